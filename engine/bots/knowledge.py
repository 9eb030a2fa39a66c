"""What the bots know about the cards, one entry per card, and what they read from a view.

Everything here is pure and works from a `View` only. `Ctx` is the reading of
one view (the leader, who might hold which character, what each district is
worth to me); the tables below map a card name to a small function, so a new
character or unique district adds one entry. Cards without an entry get a
generic treatment (see `generic_ability`, `generic_pick`): the bots never stop
on something they do not know.

Values are in "points": roughly one gold, one point of score, or a little
less than one card.

Editions: costs, ranks and income are the printed ones of the edition of the
rule set in play (`engine/cards/editions.py`; `Ctx.cost`, `Ctx.rank`,
`Ctx.income`): the 2000 Observatory costs 5, the Dark City Tax Collector is rank 2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..cards import editions
from ..cards.characters import CHARACTERS
from ..cards.districts import DISTRICTS
from ..rules import RULESETS

if TYPE_CHECKING:
    from ..state import Built
    from ..view import View
    from .ctx import Ctx


UNIQUE_TYPE = "unique"

# Printed costs and ranks by edition (tables, not calls: the bots ask them very often).
COSTS = {ed: {n: editions.cost(ed, n) for n in DISTRICTS} for ed in editions.EDITIONS}
RANKS = {ed: {n: editions.rank(ed, n) for n in CHARACTERS} for ed in editions.EDITIONS}
INCOMES = {ed: {n: editions.income(ed, n) for n in CHARACTERS} for ed in editions.EDITIONS}


def edition_of(view: View) -> str:
    """The edition of the view's rule set ("2016", "classic", "2000")."""
    r = RULESETS.get(getattr(view, "rules", "") or "")
    return r.edition if r is not None else "2016"


def dcost(name: str, edition: str = "2016") -> int:
    return COSTS[edition].get(name, 3)


def dtype(name: str) -> str:
    d = DISTRICTS.get(name)
    return d.type if d is not None else UNIQUE_TYPE


def built_value(b: Built, edition: str = "2016") -> int:
    return dcost(b.name, edition) + (1 if getattr(b, "beautified", False) else 0)


# --- unique districts: extra worth of owning one, beyond its cost in points ---------------------
# fn(ctx) -> points. Unknown uniques are worth their cost plus a small bonus.


CtxValue = Callable[["Ctx"], float]  # fn(ctx) -> points
SeatValue = Callable[["Ctx", int], float]  # fn(ctx, seat) -> weight


def _u(v: float) -> CtxValue:
    return lambda ctx: v


UNIQUE_WORTH: dict[str, CtxValue] = {
    "Dragon Gate": _u(2.0),
    "Imperial Treasury": lambda ctx: 0.6 * min(ctx.gold, 6),
    "Map Room": lambda ctx: 0.6 * min(len(ctx.hand), 6),
    "Wishing Well": lambda ctx: 1.0 + ctx.uniques_in_city,
    "Statue": lambda ctx: 2.5 if ctx.my_crown else 1.0,
    "Library": lambda ctx: 2.0 if ctx.rounds_left > 2 else 0.5,
    "Observatory": lambda ctx: 1.0 if ctx.rounds_left > 2 else 0.2,
    "School of Magic": _u(1.5),
    "Keep": _u(0.8),
    "Great Wall": _u(0.8),
    "Laboratory": lambda ctx: 1.5 if ctx.rounds_left > 2 else 0.3,
    "Smithy": lambda ctx: 1.5 if ctx.rounds_left > 2 else 0.3,
    "Quarry": _u(0.5),
    "Factory": lambda ctx: 0.5 + 0.8 * sum(1 for c in ctx.hand if dtype(c) == UNIQUE_TYPE),
    "Haunted Quarter": lambda ctx: 1.2 if len(ctx.my_types) >= 3 else 0.5,
    "Thieves' Den": _u(0.3),
    "Basilica": lambda ctx: 0.6 * sum(1 for b in ctx.city if ctx.cost(b) % 2 == 1),
    "Capitol": lambda ctx: 2.5 if max(ctx.type_counts.values(), default=0) >= 2 else 0.8,
    "Ivory Tower": lambda ctx: 4.0 if ctx.uniques_in_city == 0 else -1.0,
    "Monument": lambda ctx: 3.0,
    "Museum": lambda ctx: 1.0 if ctx.rounds_left > 2 else 0.2,
    "Necropolis": _u(0.0),
    "Framework": _u(0.3),
    "Gold Mine": lambda ctx: 1.5 if ctx.rounds_left > 2 else 0.3,
    "Park": _u(0.8),
    "Poor House": _u(0.6),
    "Stables": _u(1.0),
    "Armory": _u(0.6),
    "Theater": _u(0.5),
    "Secret Vault": _u(3.0),  # never built: worth keeping in hand
}
UNBUILDABLE = {"Secret Vault"}


# --- characters: how much taking one is worth this round, before fear -------------------------
# fn(ctx) -> points (what the turn brings beyond gathering). Unknown: `generic_pick`.


def income_of(ctx: Ctx, name: str, extra_builds: float = 0.5) -> float:
    income_type, income_kind = ctx.income(name)
    if income_type is None:
        return 0.0
    n: float = float(ctx.type_counts.get(income_type, 0) + ctx.wild_income)
    if any(dtype(h) == income_type and ctx.can_afford_soon(h) for h in ctx.hand):
        n += extra_builds
    return n * (0.8 if income_kind == "cards" else 1.0)


def _extra_builds(ctx: Ctx, limit: int, extra_gold: int = 0, extra_cards: int = 0) -> float:
    """How many more districts than one this character lets me build this turn."""
    costs = sorted(ctx.cost(c) for c in set(ctx.hand) if ctx.buildable(c))
    gold = ctx.gold + 2 + extra_gold
    n: float = 0.0
    for c in costs:
        if c <= gold and n < limit:
            gold -= c
            n += 1
    n += 0.25 * extra_cards if n < limit else 0
    return max(0.0, n - 1)


def _pick_assassin(ctx: Ctx) -> float:
    return 2.0 + 1.5 * ctx.style.aggression + (1.5 if ctx.leader_margin > 4 else 0.0)


def _pick_thief(ctx: Ctx) -> float:
    rich = sorted((ctx.players[s].gold for s in ctx.others), reverse=True)
    return 0.45 * (rich[0] if rich else 0) + 0.25 * (rich[1] if len(rich) > 1 else 0) + 0.5 * ctx.style.aggression


def _pick_magician(ctx: Ctx) -> float:
    best_other = max((ctx.players[s].hand_size for s in ctx.others), default=0)
    useless = sum(1 for c in ctx.hand if not ctx.buildable(c))
    return max(0.7 * (best_other - len(ctx.hand)), 0.5 * useless, 0.0) + (1.0 if not ctx.hand else 0.0)


def _pick_king(ctx: Ctx) -> float:
    return income_of(ctx, "King") + 1.2 + (1.5 if "Statue" in ctx.city else 0.0)


def _pick_bishop(ctx: Ctx) -> float:
    risk = 0.0
    if ctx.rank8_possible and ctx.city:
        risk = 0.15 * sum(ctx.cost(b) for b in ctx.city) * (1.5 if ctx.i_lead else 0.8)
        if ctx.my_size >= ctx.complete_at - 2:
            risk += 2.0
    return income_of(ctx, "Bishop") + min(risk, 5.0)


def _pick_merchant(ctx: Ctx) -> float:
    return income_of(ctx, "Merchant") + 1.0 + (0.8 if ctx.needs_gold else 0.0)


def _pick_architect(ctx: Ctx) -> float:
    return 1.5 + 2.5 * _extra_builds(ctx, 3) + (0.5 * ctx.style.builder)


def _pick_warlord(ctx: Ctx) -> float:
    target = 0.0
    if ctx.leader is not None and ctx.players[ctx.leader].city and not ctx.complete(ctx.leader):
        target = 1.0 + (1.0 if ctx.leader_margin > 3 else 0.0)
    return income_of(ctx, "Warlord") + target + 0.5 * ctx.style.aggression


def _pick_alchemist(ctx: Ctx) -> float:
    best = max((ctx.cost(c) for c in ctx.hand if ctx.buildable(c) and ctx.cost(c) <= ctx.gold + 2), default=0)
    return 0.8 * best


def _pick_navigator(ctx: Ctx) -> float:
    return 3.0 if ctx.needs_gold or len(ctx.hand) < 2 else 1.5


def _pick_scholar(ctx: Ctx) -> float:
    return 1.5 + 2.0 * _extra_builds(ctx, 2, extra_cards=1)


def _pick_seer(ctx: Ctx) -> float:
    return 1.5 + 1.5 * _extra_builds(ctx, 2)


def _pick_trader(ctx: Ctx) -> float:
    trades = sum(1 for c in ctx.hand if dtype(c) == "trade" and ctx.buildable(c))
    return income_of(ctx, "Trader") + 1.0 * min(trades, 2)


def _pick_abbot(ctx: Ctx) -> float:
    return income_of(ctx, "Abbot") + (1.0 if not ctx.richest else 0.0)


def _pick_emperor(ctx: Ctx) -> float:
    return income_of(ctx, "Emperor") + 1.0


def _pick_witch(ctx: Ctx) -> float:
    return 2.0 + 1.0 * ctx.style.aggression


def _pick_magistrate(ctx: Ctx) -> float:
    return 2.0 + 1.0 * ctx.style.aggression


def _pick_blackmailer(ctx: Ctx) -> float:
    return _pick_thief(ctx) * 0.8 + 0.5


def _pick_spy(ctx: Ctx) -> float:
    return 1.5 + 0.2 * max((ctx.players[s].hand_size for s in ctx.others), default=0)


def _pick_wizard(ctx: Ctx) -> float:
    return 1.5 + 0.2 * max((ctx.players[s].hand_size for s in ctx.others), default=0)


def _pick_artist(ctx: Ctx) -> float:
    return 1.0 + (1.0 if ctx.gold >= 3 and ctx.city else 0.0)


def _pick_tax_collector(ctx: Ctx) -> float:
    return 1.0 + 0.5 * ctx.tax


def _pick_queen(ctx: Ctx) -> float:
    return 1.2


PICK_VALUE: dict[str, CtxValue] = {
    "Assassin": _pick_assassin,
    "Thief": _pick_thief,
    "Magician": _pick_magician,
    "King": _pick_king,
    "Bishop": _pick_bishop,
    "Merchant": _pick_merchant,
    "Architect": _pick_architect,
    "Warlord": _pick_warlord,
    "Patrician": lambda ctx: income_of(ctx, "Patrician") + 1.2,
    "Emperor": _pick_emperor,
    "Cardinal": lambda ctx: income_of(ctx, "Cardinal") + 0.8,
    "Abbot": _pick_abbot,
    "Alchemist": _pick_alchemist,
    "Trader": _pick_trader,
    "Navigator": _pick_navigator,
    "Scholar": _pick_scholar,
    "Diplomat": lambda ctx: income_of(ctx, "Diplomat") + 1.0,
    "Marshal": lambda ctx: income_of(ctx, "Marshal") + 1.2,
    "Witch": _pick_witch,
    "Magistrate": _pick_magistrate,
    "Blackmailer": _pick_blackmailer,
    "Spy": _pick_spy,
    "Wizard": _pick_wizard,
    "Seer": _pick_seer,
    "Queen": _pick_queen,
    "Artist": _pick_artist,
    "Tax Collector": _pick_tax_collector,
}


def generic_pick(ctx: Ctx, name: str) -> float:
    return 1.2 + income_of(ctx, name)


# How attractive a character is to ANOTHER player, from public information only; used to guess
# who holds what. fn(ctx, seat) -> weight > 0.


def _attract_income(name: str) -> SeatValue:
    kind = CHARACTERS[name].income_type

    def f(ctx: Ctx, s: int) -> float:
        return 1.0 + 0.6 * sum(1 for b in ctx.players[s].city if dtype(b.name) == kind)

    return f


ATTRACT: dict[str, SeatValue] = {
    "Architect": lambda ctx, s: 1.0 + 0.3 * ctx.players[s].hand_size + 0.15 * ctx.players[s].gold,
    "Magician": lambda ctx, s: 1.8 if ctx.players[s].hand_size <= 1 else 0.8,
    "Thief": lambda ctx, s: 1.0 + (0.5 if ctx.players[s].gold <= 2 else 0.0),
    "Assassin": lambda ctx, s: 1.2 + (0.6 if ctx.leader_of_others(s) else 0.0),
    "Merchant": lambda ctx, s: (
        1.2
        + 0.5 * sum(1 for b in ctx.players[s].city if dtype(b.name) == "trade")
        + (0.5 if ctx.players[s].gold <= 2 else 0.0)
    ),
    "Bishop": lambda ctx, s: (
        1.0 + 0.5 * sum(1 for b in ctx.players[s].city if dtype(b.name) == "religious") + 0.1 * len(ctx.players[s].city)
    ),
}
for _n, _c in CHARACTERS.items():
    if _n not in ATTRACT and _c.income_type:
        ATTRACT[_n] = _attract_income(_n)


def attract(ctx: Ctx, name: str, seat: int) -> float:
    f = ATTRACT.get(name)
    return f(ctx, seat) if f is not None else 1.0


def rank(name: str, edition: str = "2016") -> int:
    return RANKS[edition].get(name, 5)
