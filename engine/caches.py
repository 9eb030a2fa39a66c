"""What the flow asks at every command and what changes rarely, kept beside the state it comes from.

Two caches, each kept on the object it describes as an attribute that is not a field
(`GameState.lineup_cache`, `Player.city_cache`, set to None by `__post_init__`: never encoded,
compared or copied, so saves, hashes and `copy_state` do not see them):

- `lineup(g)`: the line-up's rule objects, and for each hook the flow calls in anyone's turn only
  the roles that override it (most of a line-up's roles do nothing there). A line-up is fixed for
  the game; the cache notices a replaced list.
- `city(g, seat)`: what a city holds: its districts' names, the unique districts' rule objects in
  city order and, per hook, the ones that override it, how many districts of each type, its size
  toward completion. What changes a city calls `city_changed` (building: `add_district`;
  destruction: `build.remove_built`, `build.remove_district`; the Diplomat's exchange and the
  Marshal's seizure), which drops the cache; the city list's identity and length are checked too,
  as a guard for a city replaced or changed by hand.

A hook is "overridden" when the card's class defines it other than the base class does
(`hooks.overrides`); calling only those gives the same results in the same order as calling all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards.districts import DISTRICTS
from .hooks import ROLES, UNIQUES, Role, Unique, overrides

if TYPE_CHECKING:
    from .state import Built, GameState, Player


class LineupCache:
    """The line-up's roles, and per hook the ones that override it (line-up order)."""

    __slots__ = (
        "after_build",
        "end_round",
        "intercept_build",
        "key",
        "on_any_gather",
        "on_any_reveal",
        "on_any_turn_end",
        "on_killed_revealed",
        "on_selection_end",
        "roles",
        "shields",
    )

    def __init__(self, lineup: list[str]) -> None:
        self.key = lineup
        roles = [ROLES[c] for c in lineup if c in ROLES]
        self.roles: list[Role] = roles
        self.on_any_reveal = [r for r in roles if overrides(r, "on_any_reveal")]
        self.on_any_gather = [r for r in roles if overrides(r, "on_any_gather")]
        self.on_any_turn_end = [r for r in roles if overrides(r, "on_any_turn_end")]
        self.after_build = [r for r in roles if overrides(r, "after_build")]
        self.intercept_build = [r for r in roles if overrides(r, "intercept_build")]
        self.shields = [r for r in roles if overrides(r, "shields")]
        self.on_selection_end = [r for r in roles if overrides(r, "on_selection_end")]
        self.on_killed_revealed = [r for r in roles if overrides(r, "on_killed_revealed")]
        self.end_round = roles  # every role's end of round, in rank order (flow.end_round indexes it)


def lineup(g: GameState) -> LineupCache:
    c = g.lineup_cache
    if c is None or c.key is not g.lineup or len(c.roles) > len(g.lineup):
        c = g.lineup_cache = LineupCache(g.lineup)
    return c


class CityCache:
    """One city's districts as the rules ask about them."""

    __slots__ = (
        "abilities",
        "build_options",
        "cost_change",
        "dup",
        "end_selection",
        "end_turn",
        "gather",
        "key",
        "n",
        "names",
        "on_any_reveal",
        "on_crown_moved",
        "rank8_extra_cost",
        "size",
        "types",
        "uniques",
        "wild",
    )

    def __init__(self, city: list[Built]) -> None:
        self.key = city
        self.n = 0
        self.names: set[str] = set()
        self.uniques: list[Unique] = []
        self.abilities: list[Unique] = []
        self.build_options: list[Unique] = []
        self.cost_change: list[Unique] = []
        self.dup: list[Unique] = []
        self.rank8_extra_cost: list[Unique] = []
        self.end_turn: list[Unique] = []
        self.end_selection: list[Unique] = []
        self.on_any_reveal: list[Unique] = []
        self.on_crown_moved: list[Unique] = []
        self.gather: list[Unique] = []  # any of the hooks asked when a player gathers resources
        self.size = 0
        self.types: dict[str, int] = {}
        # districts that count as any type for income (the School of Magic), by their own type
        self.wild: dict[str, int] = {}
        for b in city:
            self.added(b.name)

    def added(self, name: str) -> None:
        """A district called `name` entered the city (last)."""
        self.n += 1
        self.names.add(name)
        t = DISTRICTS[name].type
        self.types[t] = self.types.get(t, 0) + 1
        u = UNIQUES.get(name)
        if u is None:
            self.size += 1
            return
        self.size += u.city_size()
        self.uniques.append(u)
        hooks = u.overridden
        for hook, where in (
            ("abilities", self.abilities),
            ("build_options", self.build_options),
            ("cost_change", self.cost_change),
            ("allows_duplicates", self.dup),
            ("rank8_extra_cost", self.rank8_extra_cost),
            ("end_turn", self.end_turn),
            ("end_selection", self.end_selection),
            ("on_any_reveal", self.on_any_reveal),
            ("on_crown_moved", self.on_crown_moved),
        ):
            if hook in hooks:
                where.append(u)
        if hooks & _GATHER_HOOKS:
            self.gather.append(u)
        if u.income_wildcard():
            self.wild[t] = self.wild.get(t, 0) + 1


_GATHER_HOOKS: Final = frozenset(("gather_gold", "draw_count", "keep_all", "keep_count"))


def city(g: GameState, seat: int) -> CityCache:
    p = g.players[seat]
    c = p.city_cache
    districts = p.city
    if c is None or c.key is not districts or c.n != len(districts):
        c = p.city_cache = CityCache(districts)
    return c


def city_changed(p: Player) -> None:
    p.city_cache = None


def add_district(g: GameState, seat: int, b: Built) -> None:
    """`b` enters `seat`'s city (last); its cache, if any, learns it."""
    p = g.players[seat]
    c = p.city_cache
    p.city.append(b)
    if c is not None and c.key is p.city and c.n == len(p.city) - 1:
        c.added(b.name)
    else:
        city_changed(p)


_HOOKED: Final[dict[str, tuple[int, frozenset[str]]]] = {}


def uniques_overriding(hook: str) -> frozenset[str]:
    """The names of the unique districts whose card overrides `hook` (learnt again if a card is
    registered later)."""
    known = _HOOKED.get(hook)
    if known is None or known[0] != len(UNIQUES):
        known = _HOOKED[hook] = (len(UNIQUES), frozenset(n for n, u in UNIQUES.items() if overrides(u, hook)))
    return known[1]


def limit_exempt() -> frozenset[str]:
    """The unique districts that may be exempt from the build limit (their card says so: the Stables)."""
    return uniques_overriding("exempt_from_limit")
