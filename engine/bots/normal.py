"""The normal bot: sound heuristics from the seat's view only.

Every legal command gets a score and the best one is played, so a command the
bot knows nothing about still gets a sensible generic score. Scores are tiers
(see `knowledge`): abilities that matter before gathering (Assassin, Thief,
Magician, extra resources), gathering, income, building (30 + the district's
worth), abilities after building (Warlord, Smithy...), ending the turn (0).

Choosing a character weighs what it brings now (income, extra builds, the
crown, protection) against the fear of being killed or robbed, which depends on
the face-up discards, on the characters missing from the pool passed to it
(someone before took them) and on whether it leads.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..commands import (
    Ability,
    Build,
    Choose,
    Command,
    Confirm,
    DiscardCharacter,
    DrawCards,
    EndTurn,
    Income,
    Keep,
    Pick,
    Select,
    TakeGold,
    Unselect,
)
from . import knowledge as K
from . import tactics as T
from .ctx import KILLERS, POPULAR, ROBBERS, Ctx
from .styles import STYLES, Style

if TYPE_CHECKING:
    from ..view import TurnView, View


class NormalBot:
    kind = "normal"

    def __init__(self, seed: int = 0, style: Style | str | None = None, name: str | None = None) -> None:
        self.rng = random.Random(seed)
        if isinstance(style, str):
            style = STYLES[style]
        self.style = style or STYLES["balanced"]
        self.name = name or self.style.name

    # --- the entry point ------------------------------------------------------------------------
    def choose(self, legal: list[Command], view: View | None = None) -> Command:
        if view is None:
            raise ValueError("the normal bot decides from its seat's view")
        if len(legal) == 1:
            return legal[0]
        if self.style.mistakes and self.rng.random() < self.style.mistakes:
            safe = [c for c in legal if not isinstance(c, Unselect)]
            return self.rng.choice(safe or legal)
        scores = self.scores(legal, view)
        best = max(range(len(legal)), key=scores.__getitem__)
        return legal[best]

    def scores(self, legal: Sequence[Command], view: View, noise: bool = True) -> list[float]:
        """A score for every legal command (higher is better)."""
        ctx = Ctx(view, self.style)
        first = legal[0]
        if isinstance(first, (Pick, DiscardCharacter)):
            out = self._pick_scores(legal, ctx)
        elif isinstance(first, (Select, Unselect, Confirm)):
            out = self._select_scores(legal, ctx, view)
        elif isinstance(first, Choose):
            out = self._choose_scores(legal, ctx, view)
        else:
            out = self._turn_scores(legal, ctx, view)
        if noise and self.style.noise:
            sd = self.style.noise
            out = [s + self.rng.gauss(0.0, sd) for s in out]
        return out

    # --- choosing characters --------------------------------------------------------------------
    def pick_value(self, ctx: Ctx, c: str) -> float:
        f = K.PICK_VALUE.get(c)
        try:
            v = f(ctx) if f is not None else K.generic_pick(ctx, c)
        except Exception:
            v = K.generic_pick(ctx, c)
        st = self.style
        if c in KILLERS or c in ROBBERS or ctx.rank(c) == 8:
            v += 0.5 * st.aggression
        if c in ("Architect", "Scholar", "Seer"):
            v += 0.5 * st.builder
        if ctx.income(c)[1] == "gold" or c in ("Merchant", "Thief", "Navigator"):
            v += 0.3 * st.greed
        return v

    def fear(self, ctx: Ctx, c: str) -> float:
        """Expected loss from being killed or robbed as `c`."""
        if not self.style.reads_table:
            return 0.0
        r = ctx.rank(c, 5)
        lead = 1.7 if ctx.i_lead else 1.0
        loss = 0.0
        for killer in KILLERS:
            if ctx.rank(killer, 1) >= r or killer not in ctx.v.lineup:
                continue
            p = ctx.p_in_play_by_others(killer)
            if p:
                share = POPULAR.get(c, 1.0) / 7.0 * lead
                loss += p * share * (self.pick_value(ctx, c) + 4.0)
        for robber in ROBBERS:
            if ctx.rank(robber, 2) >= r or robber not in ctx.v.lineup:
                continue
            p = ctx.p_in_play_by_others(robber)
            if p:
                rich = 1.0 + (0.8 if ctx.gold >= max(ctx.players[s].gold for s in ctx.others) else 0.0)
                share = POPULAR.get(c, 1.0) / 6.0 * rich
                loss += p * share * (ctx.gold + 2)
        if r == 8 or c in ("Bishop",):
            pass
        return loss * self.style.caution

    def _pick_scores(self, legal: Sequence[Command], ctx: Ctx) -> list[float]:
        out = []
        for cmd in legal:
            assert isinstance(cmd, (Pick, DiscardCharacter))
            c = cmd.character
            val = self.pick_value(ctx, c) - self.fear(ctx, c)
            if isinstance(cmd, DiscardCharacter):
                # 2 players: discard what the opponent wants most and I want least
                opp = ctx.others[0] if ctx.others else ctx.me
                val = 0.8 * K.attract(ctx, c, opp) * 3 - 0.4 * val
            out.append(val)
        return out

    # --- small decisions ------------------------------------------------------------------------
    def _choose_scores(self, legal: Sequence[Command], ctx: Ctx, view: View) -> list[float]:
        about = view.pending.about if view.pending is not None and view.pending.about else ""
        options = [c.option for c in legal if isinstance(c, Choose)]
        want = T.choose_option(about, options, ctx)
        return [1.0 if isinstance(c, Choose) and c.option == want else 0.0 for c in legal]

    def _select_scores(self, legal: Sequence[Command], ctx: Ctx, view: View) -> list[float]:
        pv = view.pending
        purpose = pv.about or "" if pv is not None else ""
        options = list(pv.options) if pv is not None else []
        selected = list(pv.selected) if pv is not None else []
        lo, hi = (pv.min, pv.max) if pv is not None else (0, 0)
        target = T.select_cards(purpose, ctx, options, lo, hi)
        # What is still to select (counting copies), and what we would add to reach the minimum.
        remaining = list(target)
        for c in selected:
            if c in remaining:
                remaining.remove(c)
        out = []
        for cmd in legal:
            if isinstance(cmd, Select):
                if cmd.card in remaining:
                    out.append(2.0)
                elif len(selected) < lo:
                    out.append(1.0 - 0.01 * ctx.card_worth(cmd.card))
                else:
                    out.append(-1.0)
            elif isinstance(cmd, Confirm):
                out.append(1.5 if not remaining or len(selected) >= hi else 0.5)
            else:  # Unselect: never (it could loop)
                out.append(-5.0)
        return out

    # --- a turn -----------------------------------------------------------------------------------
    def _gather_pref(self, ctx: Ctx, view: View) -> float:
        """Positive: draw cards; negative: take gold."""
        buildable = sorted({c for c in ctx.hand if ctx.buildable(c)}, key=ctx.cost)
        if not buildable:
            return 2.0
        pref = 0.0
        gold = ctx.gold
        costly = ctx.cost(buildable[-1])
        limit = view.turn.limit if view.turn else 1
        if gold >= costly + 2 and len(buildable) <= limit:
            pref += 1.5
        elif gold >= costly and len(buildable) <= 1:
            pref += 1.0
        if gold < 3 or gold < ctx.cost(buildable[0]):
            pref -= 2.0
        if len(buildable) >= 3:
            pref -= 1.0
        if "Library" in ctx.city_set or "Observatory" in ctx.city_set:
            pref += 0.7
        pref -= 0.4 * self.style.greed
        return pref

    def _best_build(self, legal: Sequence[Command], ctx: Ctx) -> Build | None:
        best, bs = None, -1e9
        for cmd in legal:
            if isinstance(cmd, Build):
                s = ctx.build_worth(cmd.district) - T.via_cost(cmd, ctx)
                if s > bs:
                    best, bs = cmd, s
        return best

    def _turn_scores(self, legal: Sequence[Command], ctx: Ctx, view: View) -> list[float]:
        t = view.turn
        best_build = None
        if any(isinstance(c, Build) for c in legal):
            best_build = self._best_build(legal, ctx)
        out = []
        for cmd in legal:
            if isinstance(cmd, TakeGold):
                s = 50.0 - self._gather_pref(ctx, view) * 0.5
            elif isinstance(cmd, DrawCards):
                s = 50.0 + self._gather_pref(ctx, view) * 0.5 - 0.25
            elif isinstance(cmd, Keep):
                s = ctx.card_worth(cmd.card)
            elif isinstance(cmd, Income):
                s = self._income_score(cmd, ctx, t, best_build)
            elif isinstance(cmd, Build):
                s = 30.0 + ctx.build_worth(cmd.district) - T.via_cost(cmd, ctx)
                if cmd.district in K.UNBUILDABLE:
                    s = -50.0
            elif isinstance(cmd, Ability):
                try:
                    s = T.ability_score(cmd, ctx)
                except Exception:
                    s = T.generic_ability(cmd, ctx)
            elif isinstance(cmd, EndTurn):
                s = 0.0
            elif isinstance(cmd, Choose):
                s = 1.0
            else:
                s = 0.5
            out.append(s)
        return out

    def _income_score(self, cmd: Income, ctx: Ctx, t: TurnView | None, best_build: Build | None) -> float:
        kind = ctx.income(t.character)[0] if t else None
        base = 58.0
        if best_build is not None and kind and K.dtype(best_build.district) == kind:
            base = 30.0 + ctx.build_worth(best_build.district) - 0.5  # build first, then take more
        if cmd.gold is not None:  # the Abbot: gold unless the hand is empty
            want_cards = len([h for h in ctx.hand if ctx.buildable(h)]) < 1
            base += (-0.1 * cmd.gold) if want_cards else 0.1 * cmd.gold
        return base
