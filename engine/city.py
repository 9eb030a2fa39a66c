"""Facts about cities: types, costs, completeness, protections."""

from __future__ import annotations

from . import caches
from .cards.districts import DISTRICTS
from .cards.editions import COST_TABLE
from .hooks import UNIQUES, Unique
from .rules import RuleSet
from .state import Built, GameState


def dtype(name: str) -> str:
    return DISTRICTS[name].type


def base_cost(name: str) -> int:
    return DISTRICTS[name].cost


def printed_cost(g: GameState | None, name: str) -> int:
    """A district's printed cost in the edition in play (2000: Observatory 5, Factory 6...)."""
    return COST_TABLE[g.rules.edition][name] if g is not None else DISTRICTS[name].cost


def value(b: Built, g: GameState | None = None) -> int:
    """A built district's cost (and score): printed cost, +1 if beautified (`g`: the edition's cost)."""
    cost = COST_TABLE[g.rules.edition][b.name] if g is not None else DISTRICTS[b.name].cost  # printed_cost
    return cost + 1 if b.beautified else cost


def has(g: GameState, seat: int, name: str) -> bool:
    return name in caches.city(g, seat).names


def find(g: GameState, seat: int, name: str) -> Built | None:
    for b in g.players[seat].city:
        if b.name == name:
            return b
    return None


def copy_tag(b: Built, city: list[Built]) -> str | None:
    """Tells apart two copies of one district in a city (Quarry) when only one is beautified
    (Artist): "beautified" names that copy; None otherwise (no ambiguity)."""
    if b.beautified and any(x.name == b.name and not x.beautified for x in city):
        return "beautified"
    return None


def distinct_copies(city: list[Built]) -> list[Built]:
    """One district per (name, beautified): the targets a player can tell apart."""
    return list({(b.name, b.beautified): b for b in city}.values())


def find_copy(g: GameState, seat: int, name: str | None, tag: str | None) -> Built | None:
    """The district a command names: the beautified copy if tagged so, else a plain one."""
    copies = [b for b in g.players[seat].city if b.name == name]
    if tag == "beautified":
        return next((b for b in copies if b.beautified), None)
    return next((b for b in copies if not b.beautified), copies[0] if copies else None)


def owned_uniques(g: GameState, seat: int) -> list[Unique]:
    """The rule objects of the unique districts in `seat`'s city, in city order (do not change the list)."""
    return caches.city(g, seat).uniques


def size(g: GameState, seat: int) -> int:
    """Districts toward a complete city (the Monument counts as two)."""
    return caches.city(g, seat).size


def complete_size(rules: RuleSet, players: int) -> int:
    """The districts that complete a city under `rules` (here, not in the interpreted rules.py: the flow
    asks it at every build)."""
    return rules.complete_at_small if players <= 3 else rules.complete_at


def complete_at(g: GameState) -> int:
    for s in g.cards.values():  # a card may change it for the game (the Bell Tower's announcement)
        n = s.complete_at()
        if n:
            return n
    return complete_size(g.rules, len(g.players))


def is_complete(g: GameState, seat: int, target: int | None = None) -> bool:
    """`target`: complete_at(g), when the caller knows it."""
    return caches.city(g, seat).size >= (complete_at(g) if target is None else target)


def count_type(g: GameState, seat: int, kind: str, c: caches.CityCache | None = None) -> int:
    """Districts of a type, for income (the School of Magic counts as any type). `c`: the city's
    cache, when the caller has it."""
    if c is None:
        c = caches.city(g, seat)
    n = c.types.get(kind, 0)
    if c.wild:  # a wildcard counts once, as its own type or as this one
        n += sum(k for t, k in c.wild.items() if t != kind)
    return n


def shielded(g: GameState, seat: int) -> bool:
    """True if rank-8 abilities may not target any of `seat`'s districts (Bishop)."""
    return any(r.shields(g, seat) for r in caches.lineup(g).shields)


def rank8_price(g: GameState, seat: int, b: Built) -> int:
    """Extra gold a rank-8 character pays to act on `b` in `seat`'s city (Great Wall)."""
    extra = 0
    for u in caches.city(g, seat).rank8_extra_cost:
        extra += u.rank8_extra_cost(g, seat, b.name)
    return extra


def rank8_immune(g: GameState, seat: int, b: Built) -> bool:
    return b.name in UNIQUES and UNIQUES[b.name].rank8_immune(g, seat, b.name)
