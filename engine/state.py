"""The game state: everything a game is, as dataclasses that msgspec encodes and decodes.

The state is mutable for speed; `apply` validates a command completely before
it changes anything, so a refused command leaves the state as it was.
Cards are identified by name; copies of a base district are interchangeable.
Decks are lists with the top card at the END (pop() draws) so that drawing is
cheap; `deck[0]` is the bottom.

What a card remembers is not here: each card declares its own typed state in
its module, kept in `GameState.cards` and `Turn.cards` (engine/cardstate.py).

Dataclasses, not msgspec Structs, so that the compiled build (docs/speed.md) makes them mypyc native
classes: compiled code reads `g.turn`, `p.city` as C struct fields. msgspec encodes a dataclass as it
does a Struct (a map of every field, in field order: the same bytes) and decodes one by setting its
fields and calling `__post_init__`. With slots, as a Struct has them: interpreted, an attribute is read
as fast, and an object msgspec decodes (`copy_state`) is as fast to read as one built by `__init__`.
Each class writes its `__init__` (`init=False`): mypyc compiles a written `__init__`, not the one
`@dataclass` generates (tests/test_state_defaults.py checks them against the fields).
The caches (engine/caches.py) are slots that msgspec does not see (`_cache`): never encoded, compared
or copied. A district in a city and a final score stay msgspec Structs (engine/state_structs.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgspec

from . import cardstate, source_types
from .decisions import Decision
from .rules import RuleSet
from .state_structs import Built, Score

if TYPE_CHECKING:
    from .caches import CityCache, LineupCache

__all__ = ["Built", "GameState", "Markers", "Player", "Score", "Selection", "Turn"]


@dataclass(slots=True, init=False)
class Player:
    """A player."""

    name: str
    gold: int = 2
    hand: list[str] = field(default_factory=list)
    city: list[Built] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)  # held this round, in pick order
    city_cache: CityCache | None = field(default=None, init=False, repr=False, compare=False)  # _cache

    def __init__(
        self,
        name: str,
        gold: int = 2,
        hand: list[str] | None = None,
        city: list[Built] | None = None,
        characters: list[str] | None = None,
    ) -> None:
        self.name = name
        self.gold = gold
        self.hand = [] if hand is None else hand
        self.city = [] if city is None else city
        self.characters = [] if characters is None else characters
        self.city_cache = None

    def __post_init__(self) -> None:
        # Decoded by msgspec, which does not know the slot. Compiled, a slot that `__init__` always sets is
        # written without a check for its empty value; `setattr` takes the checked way (an object decoded
        # by msgspec did not run `__init__`).
        setattr(self, "city_cache", None)  # noqa: B010


@dataclass(slots=True, init=False)
class Selection:
    """The selection phase of one round."""

    faceup: list[str] = field(default_factory=list)  # public discards
    facedown: list[str] = field(default_factory=list)  # hidden discards
    pool: list[str] = field(default_factory=list)  # the cards being passed (hidden)
    steps: list[list[Any]] = field(default_factory=list)  # remaining steps: [kind, seat]

    def __init__(
        self,
        faceup: list[str] | None = None,
        facedown: list[str] | None = None,
        pool: list[str] | None = None,
        steps: list[list[Any]] | None = None,
    ) -> None:
        self.faceup = [] if faceup is None else faceup
        self.facedown = [] if facedown is None else facedown
        self.pool = [] if pool is None else pool
        self.steps = [] if steps is None else steps


@dataclass(slots=True, init=False)
class Turn:
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

    def __init__(
        self,
        seat: int,
        character: str,
        gathered: bool = False,
        builds: int = 0,
        limit: int = 1,
        built: list[str] | None = None,
        used: list[str] | None = None,
        drawn: list[str] | None = None,
        keep: int = 0,
        gather_first: bool = False,
        paused: bool = False,
        gather_only: str | None = None,
        resumed: bool = False,
        build_gold: int = 0,
        aside: list[str] | None = None,
        cards: dict[str, cardstate.AnyCardState] | None = None,
    ) -> None:
        self.seat = seat
        self.character = character
        self.gathered = gathered
        self.builds = builds
        self.limit = limit
        self.built = [] if built is None else built
        self.used = [] if used is None else used
        self.drawn = [] if drawn is None else drawn
        self.keep = keep
        self.gather_first = gather_first
        self.paused = paused
        self.gather_only = gather_only
        self.resumed = resumed
        self.build_gold = build_gold
        self.aside = [] if aside is None else aside
        self.cards = {} if cards is None else cards


@dataclass(slots=True, init=False)
class Markers:
    """The round's marks that the flow itself reads (the other cards' marks are their own state)."""

    killed: str | None = None  # the Assassin's victim: passed over when called

    def __init__(self, killed: str | None = None) -> None:
        self.killed = killed


@dataclass(slots=True, init=False)
class GameState:
    """A game."""

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
    lineup_cache: LineupCache | None = field(default=None, init=False, repr=False, compare=False)  # _cache

    def __init__(
        self,
        rules: RuleSet,
        lineup: list[str],
        uniques: list[str],
        players: list[Player],
        deck: list[str],
        crown: int,
        rng: int,
        pending: Decision,
        round: int = 1,
        phase: str = "selection",
        selection: Selection | None = None,
        called: int = 0,
        turn: Turn | None = None,
        holders: dict[str, int] | None = None,
        revealed: dict[str, int] | None = None,
        markers: Markers | None = None,
        first_complete: int | None = None,
        tax: int = 0,
        seq: int = 0,
        scores: list[Score] | None = None,
        winners: list[int] | None = None,
        end_round_from: int = 0,
        cards: dict[str, cardstate.AnyCardState] | None = None,
    ) -> None:
        self.rules = rules
        self.lineup = lineup
        self.uniques = uniques
        self.players = players
        self.deck = deck
        self.crown = crown
        self.rng = rng
        self.pending = pending
        self.round = round
        self.phase = phase
        self.selection = Selection() if selection is None else selection
        self.called = called
        self.turn = turn
        self.holders = {} if holders is None else holders
        self.revealed = {} if revealed is None else revealed
        self.markers = Markers() if markers is None else markers
        self.first_complete = first_complete
        self.tax = tax
        self.seq = seq
        self.scores = scores
        self.winners = [] if winners is None else winners
        self.end_round_from = end_round_from
        self.cards = {} if cards is None else cards
        self.lineup_cache = None

    def __post_init__(self) -> None:
        setattr(self, "lineup_cache", None)  # noqa: B010 - decoded by msgspec: as Player.__post_init__


def _cache(cls: type, name: str) -> None:
    """`name` is a cache (engine/caches.py), not part of the state: no longer a field to msgspec (which
    encodes and decodes a dataclass's `__dataclass_fields__` by its annotations) nor to
    `dataclasses.fields`/`replace`. Its slot stays; `__init__` and `__post_init__` set it to None."""
    del cls.__dataclass_fields__[name]  # type: ignore[attr-defined]
    del cls.__annotations__[name]


# Compiled, these classes would reach msgspec with `players: list` (engine/source_types.py).
source_types.restore(Player, Selection, Turn, Markers, GameState)
_cache(Player, "city_cache")
_cache(GameState, "lineup_cache")


def current_turn(g: GameState) -> Turn:
    """The turn being played: for the rules that only run inside one (a card's decision handlers)."""
    t = g.turn
    if t is None:
        raise RuntimeError("no turn is being played")
    return t


_enc: Final = msgspec.msgpack.Encoder()


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
