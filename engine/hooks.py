"""Where the flow asks the cards.

Each character has one `Role` subclass in `engine/roles/<name>.py` and each
unique district one `Unique` subclass in `engine/uniques/<name>.py`. The flow
(selection, turns, building, scoring) knows no card by name: it calls these
hooks. Defaults do nothing, so a card overrides only what it changes.
`Choice` and `SelectCards` decisions are resolved by the handler registered
under their `about`/`purpose` key.

What a card remembers is a typed struct in its module (engine/cardstate.py);
the hooks here are its legality (`abilities`, `why`, ...), its effects (`act`,
the reactions) and its determinization (`sample`: what a bot, from one seat's
view, rebuilds of it in a sampled world). Redaction is the state's own `show`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from .commands import Ability, Build
    from .events import Event
    from .state import GameState, Turn
    from .view import View


def _no_mypyc_attr(*args: object, **kwargs: object) -> Callable[[type[Any]], type[Any]]:
    return lambda cls: cls


try:
    from mypy_extensions import mypyc_attr
except ImportError:  # the pure-Python install (no mypy): the attribute matters only to mypyc
    mypyc_attr = _no_mypyc_attr  # type: ignore[assignment]


Events = list["Event"]
ScoreCtx = dict[str, Any]  # end-of-game choices (e.g. {"type:Haunted Quarter": "military"})
ChoiceHandler = Callable[["GameState", int, str, Events], None]  # (g, seat, option, ev)
SelectHandler = Callable[["GameState", int, list[str], Events], None]  # (g, seat, cards, ev)


# The compiled build (setup.py) compiles this module: Role, Unique and Variant are native classes there, and so
# is every card class of a compiled module (registered by a call after its class, not a class decorator, which
# would make it an ordinary Python class): the flow reads their attributes and calls their hooks directly. A
# card module that is not compiled (it declares msgspec fields) subclasses them from interpreted code.
@mypyc_attr(allow_interpreted_subclasses=True)
class Role:
    """The rules of one character. `g` is the game state, `t` the current turn."""

    name: str = ""
    overridden: frozenset[str] = frozenset()  # the hooks its class overrides (set when registered)
    build_limit: int = 1
    can_build: bool = True
    # When this card limits a turn to gathering (Turn.gather_only): the view's reason and the sentence
    # that refuses anything else.
    gather_only_reason: str = ""
    gather_only_why: str = ""
    paused_why: str = ""  # when its turn is paused (Turn.paused): why nothing but its ability is allowed

    # --- its own turn -------------------------------------------------------
    def on_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        """Its turn starts (after a robbery is settled)."""

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        """The ability commands legal now in its turn."""
        return []

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        """Apply one of its ability commands (already known to be legal)."""

    def must(self, g: GameState, t: Turn) -> str | None:
        """Why the turn cannot end yet (a mandatory ability not used), or None."""
        return None

    def on_gather(self, g: GameState, t: Turn, ev: Events) -> None:
        """Right after its player gathered resources."""

    def exempt_from_limit(self, g: GameState, t: Turn, district: str) -> bool:
        return False

    def build_options(self, g: GameState, t: Turn, district: str, cost: int) -> list[Build]:
        """Extra ways to build `district` (the Cardinal's borrowing)."""
        return []

    def end_turn(self, g: GameState, t: Turn, ev: Events) -> None:
        """Its turn ends."""

    def end_round(self, g: GameState, ev: Events) -> bool:
        """The round ends (its holder may have been killed); return True if a decision is now
        pending (its handler then calls flow.end_round again to go on)."""
        return False

    def allows_duplicates(self, g: GameState, t: Turn) -> bool:
        return False

    # --- while it is in the line-up, in anyone's turn ------------------------
    def on_any_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        """Some character's turn starts (the Thief's robbery)."""

    def shields(self, g: GameState, seat: int) -> bool:
        """True if rank-8 abilities may not target `seat`'s districts."""
        return False

    def after_build(self, g: GameState, seat: int, district: str, ev: Events) -> None:
        """A district entered `seat`'s city (the Tax Collector's tax)."""

    def intercept_build(self, g: GameState, t: Turn, district: str, paid: int, via: str | None, ev: Events) -> bool:
        """A district was just paid for in turn `t`; return True to stop it entering the city
        (the Magistrate's warrant takes over)."""
        return False

    def pay(self, g: GameState, t: Turn, cmd: Build, cost: int, ev: Events) -> int | None:
        """Pay for a build offered by `build_options` (`cmd.via == self.name`)."""
        return 0

    def on_any_gather(self, g: GameState, t: Turn, ev: Events) -> None:
        """Some player finished gathering (the Blackmailer's threat is resolved now)."""

    def on_any_turn_end(self, g: GameState, t: Turn, ev: Events) -> bool:
        """Some turn ended; return True if this role started another turn (the Witch resumes)."""
        return False

    def on_selection_end(self, g: GameState, ev: Events) -> bool:
        """The selection phase ended; return True if a decision is now pending."""
        return False

    def why(self, g: GameState, cmd: Ability) -> str | None:
        """Why one of its ability commands is refused now, for the player."""
        return None

    def on_killed_revealed(self, g: GameState, seat: int, ev: Events) -> None:
        """2000 rules (RuleSet.reveal_killed): at round end the killed character was revealed;
        `seat` held it (the Assassin's Plague contact)."""

    # --- determinization (engine/bots/determinize.py) --------------------------
    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        """Rebuild this card's state in `g`, a world sampled from `view` (one seat's): what the
        view shows is kept, what it hides is drawn with `rng`. Called in line-up order."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Unique:
    """The rules of one unique district; `seat` owns it."""

    name: str = ""
    overridden: frozenset[str] = frozenset()  # the hooks its class overrides (set when registered)
    gather_only_reason: str = ""  # as Role's: when this district limits a turn to gathering (Hospital)
    gather_only_why: str = ""

    def gather_gold(self, g: GameState, seat: int) -> int:
        """Extra gold when gathering gold."""
        return 0

    def draw_count(self, g: GameState, seat: int, n: int) -> int:
        """How many cards are drawn when gathering cards."""
        return n

    def keep_all(self, g: GameState, seat: int) -> bool:
        return False

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        return []

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        pass

    def end_turn(self, g: GameState, t: Turn, ev: Events) -> None:
        pass

    def cost_change(self, g: GameState, seat: int, district: str) -> int:
        """Added to the cost of a district `seat` builds (the Factory: -1)."""
        return 0

    def build_options(self, g: GameState, t: Turn, district: str, cost: int, in_city: bool) -> list[Build]:
        """Other ways to build `district`: from a card in the city (Framework) or the card itself."""
        return []

    def pay(self, g: GameState, t: Turn, cmd: Build, cost: int, ev: Events) -> int | None:
        """Pay for a build through this card (`cmd.via == self.name`); return the gold paid,
        or None when the build waits for a further decision."""
        return 0

    def can_build(self, g: GameState, seat: int) -> bool:
        """False if this district may not be built now (the Monument)."""
        return True

    def build_is_paid(self) -> bool:
        """False if building through this card (`Build.via`) is not paying for the district
        (Framework, Necropolis): the Magistrate cannot confiscate it."""
        return True

    def exempt_from_limit(self, g: GameState, t: Turn) -> bool:
        return False

    def allows_duplicates(self, g: GameState, seat: int) -> bool:
        return False

    def income_wildcard(self) -> bool:
        return False

    def rank8_extra_cost(self, g: GameState, seat: int, district: str) -> int:
        return 0

    def rank8_immune(self, g: GameState, seat: int, district: str) -> bool:
        return False

    def city_size(self) -> int:
        """How many districts it counts as toward a complete city."""
        return 1

    def end_selection(self, g: GameState, seat: int, ev: Events) -> bool:
        """The selection phase ended; return True if a decision is now pending (Theater)."""
        return False

    def score_options(self, g: GameState, seat: int) -> list[ScoreCtx]:
        """End-of-game choices it offers (each a dict merged into the scoring context)."""
        return []

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        """Bonus points at game end for this district in `seat`'s city (ctx: the end-of-game choices)."""
        return 0

    def score_from_hand(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        """Bonus points at game end for this card in `seat`'s hand (the Secret Vault)."""
        return 0

    # --- older editions (engine/cards/editions.py) ----------------------------
    def keep_count(self, g: GameState, seat: int, keep: int) -> int:
        """How many drawn cards are kept when gathering cards (2000: Observatory with Library keep 2)."""
        return keep

    def on_built(self, g: GameState, seat: int, ev: Events) -> None:
        """This district was just built in `seat`'s city (Lighthouse, Bell Tower); may set a decision."""

    def on_removed(self, g: GameState, seat: int) -> None:
        """This district left `seat`'s city by destruction or seizure (the Bell Tower's end returns)."""

    def on_crown_moved(self, g: GameState, seat: int, old: int, new: int, ev: Events) -> None:
        """The crown changed hands; `seat` owns this district (Throne Room)."""

    def on_any_reveal(self, g: GameState, seat: int, t: Turn, ev: Events) -> None:
        """A character was revealed (its turn starts); `seat` owns this district (Ballroom)."""

    def killed_may_gather(self, g: GameState, seat: int) -> bool:
        """True if `seat`, killed this round, still gathers resources when called (Hospital)."""
        return False

    def on_rank8_destroyed(self, g: GameState, seat: int, victim: int, district: str, ev: Events) -> bool:
        """The Warlord destroyed `district` in `victim`'s city (it waits in the turn's `aside`);
        `seat` owns this district. Return True if a decision is now pending (Graveyard)."""
        return False

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        """As Role.sample, for the unique districts of the deck."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Variant:
    """A rules variant switched on in `g.rules.variants` (the Plague). Cards report their
    interactions through `contact`; the flow asks `turn_start` at every turn's start."""

    name: str = ""
    overridden: frozenset[str] = frozenset()  # the hooks its class overrides (set when registered)

    def start(self, g: GameState, ev: Events) -> None:
        """The game is set up."""

    def turn_start(self, g: GameState, t: Turn, ev: Events) -> None:
        """A turn starts (after the reveal and its reactions); may set a decision."""

    def contact(self, g: GameState, a: int, b: int, by: str, ev: Events) -> None:
        """Seats `a` and `b` interacted through the ability of `by` (kill, robbery, tax, ...)."""

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        """As Role.sample, for the variants switched on."""


# Final: compiled, other compiled modules read them from a C static, not from this module's dictionary.
ROLES: Final[dict[str, Role]] = {}
UNIQUES: Final[dict[str, Unique]] = {}
CHOICES: Final[dict[str, ChoiceHandler]] = {}  # about -> fn(g, seat, option, ev)
SELECTS: Final[dict[str, SelectHandler]] = {}  # purpose -> fn(g, seat, cards, ev)
VARIANTS: Final[dict[str, Variant]] = {}
_DEFAULT_ROLE: Final = Role()
_DEFAULT_UNIQUE: Final = Unique()


R = TypeVar("R", bound=Role)
U = TypeVar("U", bound=Unique)
V = TypeVar("V", bound=Variant)


def role(cls: type[R]) -> type[R]:
    """Register a character's rules: `role(Warlord)` after its class."""
    obj = _card(cls, _ROLE_VALUES)
    obj.overridden = _overridden(cls, Role)
    ROLES[obj.name] = obj
    return cls


def unique(cls: type[U]) -> type[U]:
    """Register a unique district's rules: `unique(Library)` after its class."""
    obj = _card(cls, _UNIQUE_VALUES)
    obj.overridden = _overridden(cls, Unique)
    UNIQUES[obj.name] = obj
    return cls


def variant(cls: type[V]) -> type[V]:
    """Register a variant's rules: `variant(Plague)` after its class."""
    obj = _card(cls, ("name",))
    obj.overridden = _overridden(cls, Variant)
    VARIANTS[obj.name] = obj
    return cls


_ROLE_VALUES = ("name", "build_limit", "can_build", "gather_only_reason", "gather_only_why", "paused_why")
_UNIQUE_VALUES = ("name", "gather_only_reason", "gather_only_why")
C = TypeVar("C")


def _card(cls: type[C], values: tuple[str, ...]) -> C:
    """The card's object. In the compiled build, the values an interpreted subclass (a card module that is not
    compiled) gives in its class body (`name = "Seer"`) are not seen by the compiled class's attributes: they
    are set on the object (a compiled class's own attributes are descriptors, left alone)."""
    obj = cls()
    for attr in values:
        value = getattr(cls, attr)
        if hasattr(value, "__get__"):
            continue  # a compiled class's own attribute: the object has its value
        for klass in cls.__mro__:
            slot: Any = vars(klass).get(attr)
            if hasattr(slot, "__set__"):  # the compiled base class's attribute, under the subclass's value
                slot.__set__(obj, value)
                break
        else:
            setattr(obj, attr, value)
    return obj


def overrides(card: Role | Unique | Variant, hook: str) -> bool:
    """True if the card's class defines `hook` other than its base class (Role, Unique, Variant) does:
    calling only the cards that override a hook gives what calling every card gives (the defaults do
    nothing or return a neutral value), in the same order. The caches of engine/caches.py list them."""
    return hook in card.overridden


def _overridden(cls: type, base: type) -> frozenset[str]:
    return frozenset(
        name
        for name, default in vars(base).items()
        if callable(default) and not name.startswith("_") and getattr(cls, name) is not default
    )


def active_variants(g: GameState) -> list[Variant]:
    return [VARIANTS[v] for v in g.rules.variants if v in VARIANTS]


def contact(g: GameState, a: int | None, b: int | None, by: str, ev: Events) -> None:
    """Two players interacted through a card's ability (for variants: the Plague passes)."""
    if a is None or b is None or a == b or not g.rules.variants:
        return
    for v in active_variants(g):
        v.contact(g, a, b, by, ev)


def choice(about: str) -> Callable[[ChoiceHandler], ChoiceHandler]:
    """Register the handler of `Choice` decisions about `about`."""

    def deco(fn: ChoiceHandler) -> ChoiceHandler:
        CHOICES[about] = fn
        return fn

    return deco


def select(purpose: str) -> Callable[[SelectHandler], SelectHandler]:
    """Register the handler of `SelectCards` decisions for `purpose`."""

    def deco(fn: SelectHandler) -> SelectHandler:
        SELECTS[purpose] = fn
        return fn

    return deco


def role_of(name: str) -> Role:
    return ROLES.get(name, _DEFAULT_ROLE)


def unique_of(name: str) -> Unique:
    return UNIQUES.get(name, _DEFAULT_UNIQUE)


def card_of(name: str) -> Role | Unique:
    """The rules of a character or a unique district, by name."""
    return ROLES.get(name) or UNIQUES.get(name) or _DEFAULT_ROLE
