"""`Ctx`: one reading of a seat's `View` for the heuristic bots.

Only the view is read: the seat's own hand, characters and the public table.
Who might hold a hidden character is estimated from public facts (cities,
gold, hand sizes, face-up discards, revealed characters, the pool passed to
the seat while choosing). Costs, ranks and income are those of the edition of
the view's rule set (`cost`, `rank`, `income`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import knowledge as K
from .styles import Style

if TYPE_CHECKING:
    from ..view import PlayerView, View


POPULAR = {
    "King": 1.4,
    "Architect": 1.5,
    "Merchant": 1.3,
    "Warlord": 1.2,
    "Patrician": 1.3,
    "Emperor": 1.2,
    "Navigator": 1.2,
    "Scholar": 1.2,
    "Trader": 1.2,
    "Alchemist": 1.1,
    "Bishop": 1.0,
    "Magician": 0.9,
}
KILLERS = ("Assassin", "Witch")
ROBBERS = ("Thief", "Blackmailer", "Magistrate")


class Ctx:
    """One seat's reading of its view (the seat is `me`)."""

    v: View
    style: Style
    edition: str
    me: int
    players: list[PlayerView]
    n: int
    mine: PlayerView
    hand: list[str]
    gold: int
    city: list[str]
    city_set: set[str]
    my_crown: bool
    complete_at: int
    tax: int
    others: list[int]
    type_counts: dict[str, int]
    my_types: set[str]
    wild_income: int
    uniques_in_city: int
    quarry: bool
    sizes: list[int]
    my_size: int
    rounds_left: int
    threat: list[float]
    leader: int | None
    i_lead: bool
    leader_margin: float
    richest: bool
    needs_gold: bool
    rank8_possible: bool

    def __init__(self, view: View, style: Style, jitter: Callable[[object], float] | None = None) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to play")
        self.v = view
        self.style = style
        self.edition = ed = K.edition_of(view)
        self._costs = K.COSTS[ed]
        self._ranks = K.RANKS[ed]
        self._incomes = K.INCOMES[ed]
        self._jitter = jitter
        self.me = me = view.seat
        self.players = view.players
        self.n = len(view.players)
        pv = view.players[me]
        self.mine = pv
        self.hand = list(pv.hand or [])
        self.gold = pv.gold
        self.city = [b.name for b in pv.city]
        self.city_set = set(self.city)
        self.my_crown = view.crown == me
        self.complete_at = view.complete_at
        self.tax = view.tax
        self.others = [s for s in range(self.n) if s != me]
        tc: dict[str, int] = {}
        for name in self.city:
            t = K.dtype(name)
            tc[t] = tc.get(t, 0) + 1
        self.type_counts = tc
        self.my_types = set(tc)
        self.wild_income = 1 if "School of Magic" in self.city_set else 0
        self.uniques_in_city = tc.get(K.UNIQUE_TYPE, 0)
        self.quarry = "Quarry" in self.city_set
        sizes = [self.size(s) for s in range(self.n)]
        self.sizes = sizes
        self.my_size = sizes[me]
        self.rounds_left = max(1, int(1.3 * (self.complete_at - max(sizes))) + 1)
        self.threat = [self._threat(s) for s in range(self.n)]
        others_t = [(self.threat[s], s) for s in self.others]
        self.leader = max(others_t)[1] if others_t else None
        best_other = max(t for t, _ in others_t) if others_t else 0
        self.i_lead = self.threat[me] >= best_other
        self.leader_margin = (
            self.threat[self.leader] - max(t for s, t in enumerate(self.threat) if s != self.leader)
            if self.leader is not None and self.n > 1
            else 0
        )
        lo, hi = min(self.threat), max(self.threat)
        self._tspan = (lo, hi - lo + 1.0)
        self.richest = self.gold >= max((p.gold for p in self.players), default=0)
        best_cost = max((self.cost(c) for c in self.hand if self.buildable(c)), default=0)
        self.needs_gold = self.gold < best_cost or self.gold < 3
        lineup = view.lineup
        rank8 = [c for c in lineup if self.rank(c) == 8]
        self.rank8_possible = bool(rank8) and rank8[0] not in view.faceup and rank8[0] not in self.my_chars()
        self._holders: dict[str, dict[int, float]] | None = None

    # --- the edition's cards -----------------------------------------------------------------------
    def cost(self, card: str) -> int:
        """The printed cost in this edition (3 for a card the tables do not know)."""
        return self._costs.get(card, 3)

    def rank(self, character: str | None, default: int = 0) -> int:
        return self._ranks.get(character, default) if character else default

    def income(self, character: str) -> tuple[str | None, str | None]:
        """(district type, "gold" | "cards" | "mix") of the character's income, or (None, None)."""
        return self._incomes.get(character, (None, None))

    # --- districts -----------------------------------------------------------------------------
    def size(self, s: int) -> int:
        city = self.players[s].city
        return len(city) + sum(1 for b in city if b.name == "Monument")

    def complete(self, s: int) -> bool:
        return self.sizes[s] >= self.complete_at

    def buildable(self, card: str) -> bool:
        if card in K.UNBUILDABLE:
            return False
        if card == "Monument" and self.my_size >= 5:
            return False
        return card not in self.city_set or self.quarry

    def affordable_now(self, card: str) -> bool:
        return self.cost(card) <= self.gold

    def can_afford_soon(self, card: str) -> bool:
        return self.cost(card) <= self.gold + 2

    def card_worth(self, card: str) -> float:
        """What a district card in hand is worth to me (to build, or to hold)."""
        if card in K.UNBUILDABLE:
            f = K.UNIQUE_WORTH.get(card)
            return f(self) if f else 0.0
        if not self.buildable(card):
            return 0.3  # a duplicate: only good to discard or trade
        cost = self.cost(card)
        t = K.dtype(card)
        w = cost + 1.0  # points, plus a step toward a complete city
        if t not in self.my_types:
            w += 0.8 if len(self.my_types) >= 3 else 0.4
        if t == K.UNIQUE_TYPE:
            f = K.UNIQUE_WORTH.get(card)
            w += f(self) if f is not None else 0.5
        short = cost - self.gold - 2 * min(self.rounds_left, 2)
        if short > 0:
            w -= 0.7 * short
        if self.rounds_left <= 2 and cost > self.gold + 2:
            w -= 2.0
        return w

    def build_worth(self, card: str) -> float:
        """What building it now is worth (the card's worth without the affordability discount)."""
        cost = self.cost(card)
        t = K.dtype(card)
        w = cost + 1.0 + 0.5 * self.style.builder
        if t not in self.my_types:
            w += 1.5 if len(self.my_types) == 4 else (0.6 if len(self.my_types) >= 2 else 0.3)
        if t == K.UNIQUE_TYPE:
            f = K.UNIQUE_WORTH.get(card)
            w += f(self) if f is not None else 0.5
        if self.my_size + 1 >= self.complete_at:
            w += 4.0
        return w

    # --- players ------------------------------------------------------------------------------
    def _threat(self, s: int) -> float:
        p = self.players[s]
        pts = sum(K.built_value(b, self.edition) for b in p.city)
        size = self.sizes[s]
        t = pts + 1.8 * size + 0.4 * p.gold + 0.4 * min(p.hand_size, 4)
        if size >= self.complete_at - 1:
            t += 4.0
        if size >= self.complete_at:
            t += 4.0
        return t

    def leader_weight(self, s: int) -> float:
        """0.5 for the weakest player up to 3 for the strongest; more near a complete city."""
        lo, span = self._tspan
        w = 0.5 + 2.5 * (self.threat[s] - lo) / span
        if self.complete_at - self.sizes[s] <= 2:
            w += 1.0
        return w * (0.7 + 0.3 * (1 + self.style.aggression)) if s != self.me else w

    def leader_of_others(self, s: int) -> bool:
        return s == self.leader

    def my_chars(self) -> list[str]:
        return [c for c in self.mine.characters if c]

    def rng_jitter(self, key: object) -> float:
        return self._jitter(key) if self._jitter else 0.0

    # --- hidden characters ---------------------------------------------------------------------
    def holder_odds(self) -> dict[str, dict[int, float]]:
        """For each character I cannot see: the estimated chance each other seat holds it."""
        if self._holders is not None:
            return self._holders
        v = self.v
        mine = set(self.my_chars())
        revealed = {}
        slots = {}
        for p in self.players:
            for c in p.revealed:
                revealed[c] = p.seat
            if p.seat != self.me:
                slots[p.seat] = sum(1 for c in p.characters if c is None)
        called = self.rank(v.called)
        killed = v.markers.killed
        hidden = [c for c in v.lineup if c not in v.faceup and c not in mine and c not in revealed]
        if v.phase == "selection" and v.pool:
            pool = set(v.pool)
            hidden = [c for c in hidden if c not in pool]
        # characters already called and not revealed are not held (unless killed)
        held_possible = [c for c in hidden if self.rank(c) > called or c == killed]
        total_slots = sum(slots.values())
        p_held = min(1.0, total_slots / max(len(held_possible), 1))
        out: dict[str, dict[int, float]] = {}
        for c in held_possible:
            ws = {s: k * K.attract(self, c, s) for s, k in slots.items() if k}
            tot = sum(ws.values())
            out[c] = {s: p_held * w / tot for s, w in ws.items()} if tot else {}
        for c, s in revealed.items():
            if s != self.me:
                out[c] = {s: 1.0}
        self._holders = out
        return out

    def character_harm(self, c: str | None, kind: str = "kill") -> float:
        """How much naming `c` (to kill or rob) hurts the others, leader first; negative for myself."""
        if c is None:
            return 0.0
        if c in self.my_chars():
            return -50.0
        odds = self.holder_odds().get(c, {})
        harm = 0.0
        agg = 1.0 + 0.5 * self.style.aggression
        for s, p in odds.items():
            if kind == "rob":
                harm += p * (self.players[s].gold + 1.5) * (0.6 + 0.4 * self.leader_weight(s) * agg)
            else:
                harm += p * (2.5 + 1.5 * self.leader_weight(s) * agg) * POPULAR.get(c, 1.0)
        return harm

    # --- fear while choosing a character --------------------------------------------------------
    def p_in_play_by_others(self, c: str) -> float:
        """Chance that an opponent ends up holding character `c` (selection phase)."""
        v = self.v
        if c not in v.lineup or c in v.faceup or c in self.my_chars():
            return 0.0
        players_after = self.picks_after()
        if v.pool and c in v.pool:
            return 0.55 if players_after > 0 else 0.0
        before = self.picks_before()
        fd = max(v.facedown_count, 1)
        return before / (before + fd) if before else 0.0

    def picks_before(self) -> int:
        return sum(len(p.characters) for p in self.players if p.seat != self.me)

    def picks_after(self) -> int:
        """Picks opponents still make after my current one this round."""
        per = 1 if self.n >= 4 else 2
        picked = sum(len(p.characters) for p in self.players)
        remaining = per * self.n - picked - 1
        my_left = per - len(self.mine.characters) - 1
        return max(0, remaining - max(my_left, 0))
