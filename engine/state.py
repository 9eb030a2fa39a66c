"""The game state: everything a game is, as msgspec Structs.

The state is mutable for speed; `apply` validates a command completely before
it changes anything, so a refused command leaves the state as it was.
Cards are identified by name; copies of a base district are interchangeable.
Decks are lists with the top card at the END (pop() draws) so that drawing is
cheap; `deck[0]` is the bottom.

What a card remembers is not here: each card declares its own typed state in
its module, kept in `GameState.cards` and `Turn.cards` (engine/cardstate.py).
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec
from msgspec import Struct, field

from . import cardstate
from .decisions import Decision
from .rules import RuleSet


class Built(Struct):
    """A district in a city."""

    name: str
    beautified: bool = False  # Artist: +1 cost and score, once
    under: list[str] = field(default_factory=list)  # Museum: cards kept under it


class Player(Struct, dict=True):
    """A player. `dict=True`: room for the city's cache (engine/caches.py), never encoded."""

    name: str
    gold: int = 2
    hand: list[str] = field(default_factory=list)
    city: list[Built] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)  # held this round, in pick order


class Selection(Struct):
    """The selection phase of one round."""

    faceup: list[str] = field(default_factory=list)  # public discards
    facedown: list[str] = field(default_factory=list)  # hidden discards
    pool: list[str] = field(default_factory=list)  # the cards being passed (hidden)
    steps: list[list[Any]] = field(default_factory=list)  # remaining steps: [kind, seat]


class Turn(Struct):
    """The turn being played: `seat` acts as `character`.

    Restrictions a card puts on the turn are core flags the flow enforces; the card that set
    them explains them (`gather_only` names it)."""

    seat: int
    character: str
    gathered: bool = False
    builds: int = 0  # builds that count toward the limit
    limit: int = 1  # the build limit this turn
    built: list[str] = field(default_factory=list)  # districts built this turn
    used: list[str] = field(default_factory=list)  # abilities and effects used this turn
    drawn: list[str] = field(default_factory=list)  # cards drawn, waiting to be kept
    keep: int = 0  # how many of `drawn` to keep
    gather_first: bool = False  # nothing but gathering until resources are gathered (Witch, threats)
    paused: bool = False  # only the character's own ability after gathering, no end-of-turn effects (Witch)
    # The card that limits this turn to gathering ("Witch": the bewitched player; "Hospital": a killed
    # player): its player only gathers, then the turn ends, without any end-of-turn effect.
    gather_only: str | None = None
    resumed: bool = False  # a turn without a reveal: the Witch resuming as `character`, a Hospital turn
    build_gold: int = 0  # gold paid to build this turn (the Alchemist's refund)
    aside: list[str] = field(
        default_factory=list
    )  # cards between places while a decision is pending (a district under a warrant)
    cards: dict[str, cardstate.AnyCardState] = field(default_factory=dict)  # card states of this turn


class Markers(Struct):
    """The round's marks that the flow itself reads (the other cards' marks are their own state)."""

    killed: str | None = None  # the Assassin's victim: passed over when called


class Score(Struct, omit_defaults=True):
    """One player's final score with its breakdown."""

    seat: int
    districts: int = 0
    all_types: int = 0
    first_complete: int = 0
    complete: int = 0
    bonuses: dict[str, int] = field(default_factory=dict)  # by unique district name
    total: int = 0
    choices: dict[str, str] = field(default_factory=dict)  # e.g. {"Haunted Quarter": "military"}
    tiebreak: int = -1  # highest rank revealed in the last round


class GameState(Struct, dict=True):
    """A game. `dict=True`: room for the line-up's cache (engine/caches.py), never encoded."""

    rules: RuleSet
    lineup: list[str]  # characters in play, in rank order
    uniques: list[str]  # unique districts shuffled into the deck
    players: list[Player]
    deck: list[str]  # top is the last element
    crown: int
    rng: int
    pending: Decision
    round: int = 1
    phase: str = "selection"  # selection / turns / over
    selection: Selection = field(default_factory=Selection)
    called: int = 0  # rank being called (0 during selection)
    turn: Turn | None = None
    holders: dict[str, int] = field(default_factory=dict)  # character -> seat, this round
    revealed: dict[str, int] = field(default_factory=dict)  # character -> seat, revealed this round
    markers: Markers = field(default_factory=Markers)
    first_complete: int | None = None  # the seat that completed a city first
    tax: int = 0  # gold on the Tax Collector's token
    seq: int = 0  # commands applied so far
    scores: list[Score] | None = None  # filled at game end
    winners: list[int] = field(default_factory=list)
    end_round_from: int = 0  # the flow: the role whose end of round goes on after a pending decision
    cards: dict[str, cardstate.AnyCardState] = field(default_factory=dict)  # card states (game, round)


def current_turn(g: GameState) -> Turn:
    """The turn being played: for the rules that only run inside one (a card's decision handlers)."""
    t = g.turn
    if t is None:
        raise RuntimeError("no turn is being played")
    return t


_enc = msgspec.msgpack.Encoder()


@functools.cache
def _decoder() -> msgspec.msgpack.Decoder[GameState]:
    # Built on first use: the card states' union is complete only once every card module is imported.
    return msgspec.msgpack.Decoder(GameState)


def copy_state(state: GameState) -> GameState:
    """A deep copy (via msgpack: fast and exact)."""
    return _decoder().decode(_enc.encode(state))


def encode(state: GameState) -> bytes:
    return _enc.encode(state)


def decode(data: bytes) -> GameState:
    return _decoder().decode(data)
