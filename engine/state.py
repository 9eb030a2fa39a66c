"""The game state: everything a game is, as msgspec Structs.

The state is mutable for speed; `apply` validates a command completely before
it changes anything, so a refused command leaves the state as it was.
Cards are identified by name; copies of a base district are interchangeable.
Decks are lists with the top card at the END (pop() draws) so that drawing is
cheap; `deck[0]` is the bottom.
"""

from __future__ import annotations

import msgspec
from msgspec import Struct, field

from .decisions import Decision
from .rules import RuleSet


class Built(Struct):
    """A district in a city."""

    name: str
    beautified: bool = False  # Artist: +1 cost and score, once
    under: list[str] = field(default_factory=list)  # Museum: cards kept under it


class Player(Struct):
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
    steps: list[list] = field(default_factory=list)  # remaining steps: [kind, seat]


class Turn(Struct):
    """The turn being played: `seat` acts as `character`."""

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
    paused: bool = False  # the Witch's turn pauses: no end-of-turn effects now
    bewitched: bool = False  # the bewitched player's short turn: only gathering
    resumed: bool = False  # the Witch resuming as `character`
    paid_builds: int = 0  # districts paid for this turn (Magistrate)
    build_gold: int = 0  # gold paid to build this turn (Alchemist)
    aside: list[str] = field(
        default_factory=list
    )  # cards between places while a decision is pending (a district under a warrant)
    extra: dict[str, int] = field(default_factory=dict)  # per-card turn counters


class Markers(Struct):
    """Round markers on characters; hidden ones are redacted in views."""

    killed: str | None = None
    robbed: str | None = None
    bewitched: str | None = None
    warrants: list[str] = field(default_factory=list)  # three characters; signed is the real one
    signed: str | None = None  # hidden until revealed
    warrant_revealed: bool = False
    threats: list[str] = field(default_factory=list)  # two characters; flowered is the real one
    flowered: str | None = None  # hidden until revealed
    threats_revealed: list[str] = field(default_factory=list)


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


class GameState(Struct):
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
    flags: dict[str, int] = field(default_factory=dict)  # small per-game values for cards


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(GameState)


def copy_state(state: GameState) -> GameState:
    """A deep copy (via msgpack: fast and exact)."""
    return _dec.decode(_enc.encode(state))


def encode(state: GameState) -> bytes:
    return _enc.encode(state)


def decode(data: bytes) -> GameState:
    return _dec.decode(data)
