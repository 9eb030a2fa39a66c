"""The hard bot: information-set Monte Carlo over the normal bot's heuristics.

For a decision worth thinking about (several commands the normal bot rates
within `margin` points of each other), it samples worlds consistent with its
view (`determinize`), plays each candidate in each world (the same worlds for
all candidates) and continues the game with the normal bot at every seat for
the rest of this round and `horizon` more rounds (or to the end of the game),
then scores the result: 1 for a win (shared in a tie) when the game ended,
else a soft estimate of its chance to win from points, progress, gold and
cards. The candidate with the best mean wins; other decisions are the normal
bot's. It sees only the view; the sampled worlds are its imagination.

Budget: `budget_ms` (default 300, capped at 1000) of thinking per decision,
and/or `iterations` (sampled worlds). With `iterations` and no time budget the
bot is fully reproducible from its seed and the view; a time budget makes the
number of worlds depend on the machine's speed.
"""
from __future__ import annotations

import math
import random
import time

from ..apply import apply
from ..commands import Choose, Confirm, Keep, Select, Unselect
from ..legal import legal_commands
from ..state import copy_state
from ..view import view as seat_view
from . import knowledge as K
from .determinize import determinize
from .normal import NormalBot
from .styles import STYLES, Style

MAX_BUDGET_MS = 1000.0
DEFAULT_BUDGET_MS = 300.0


class HardBot:
    kind = "hard"
    needs_view = True

    def __init__(self, seed: int = 0, style: Style | str | None = None, name: str | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS, iterations: int | None = None, horizon: int = 1,
                 margin: float = 3.0, top_k: int = 4, max_commands: int = 400, clock: str = "wall") -> None:
        if isinstance(style, str):
            style = STYLES[style]
        self.style = style or STYLES["balanced"]
        self.name = name or self.style.name
        self.seed = seed
        self.budget_ms = None if budget_ms is None else min(float(budget_ms), MAX_BUDGET_MS)
        if self.budget_ms is None and iterations is None:
            self.budget_ms = DEFAULT_BUDGET_MS
        self.iterations = iterations
        self.horizon = horizon
        self.margin = margin
        self.top_k = top_k
        self.max_commands = max_commands
        # "wall": the budget is elapsed time (what a person waits); "cpu": this thread's CPU time, for
        # tournaments on a shared, oversubscribed machine (elapsed time is then capped at 1 s).
        if clock not in ("wall", "cpu"):
            raise ValueError(f"Unknown clock {clock!r}: wall or cpu.")
        self.clock = clock
        self.normal = NormalBot(seed, self.style, self.name)
        self.last_stats: dict = {}

    def choose(self, legal: list, view) -> object:
        t0 = time.perf_counter()
        self.last_stats = {"searched": False}
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, (Select, Unselect, Confirm, Keep, Choose)):
            return self.normal.choose(legal, view)
        scores = self.normal.scores(legal, view, noise=False)
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        best = scores[order[0]]
        cands = [i for i in order[:self.top_k] if scores[i] >= best - self.margin]
        if len(cands) <= 1:
            return legal[order[0]]
        return legal[self.search(legal, view, cands, scores, t0)]

    # --- the search -------------------------------------------------------------------------------
    def search(self, legal: list, view, cands: list[int], prior: list[float], t0: float) -> int:
        me = view.seat
        rng = random.Random(hash((self.seed, view.seq, me, view.round)) & 0xFFFFFFFF)
        # stop early enough that the last rollout (a few ms) still ends within the budget
        cpu = self.clock == "cpu"
        now = time.thread_time if cpu else time.perf_counter
        start = now() if cpu else t0
        deadline = start + self.budget_ms * 0.9 / 1000.0 - 0.004 if self.budget_ms is not None else None
        wall_cap = t0 + MAX_BUDGET_MS * 0.95 / 1000.0
        totals = {i: 0.0 for i in cands}
        counts = {i: 0 for i in cands}
        worlds = 0
        failures = 0
        while True:
            if self.iterations is not None and worlds >= self.iterations:
                break
            if deadline is not None and now() >= deadline and worlds >= 1:
                break
            if time.perf_counter() >= wall_cap and worlds >= 1:
                break
            if failures > 20 and worlds == 0:
                break
            try:
                world = determinize(view, rng)
            except Exception:
                failures += 1
                continue
            worlds += 1
            wseed = rng.getrandbits(32)
            for i in cands:
                if deadline is not None and now() >= deadline and worlds > 1:
                    break
                g = copy_state(world)
                try:
                    apply(g, legal[i], check=False)
                    val = self.rollout(g, me, wseed)
                except Exception:
                    failures += 1
                    continue
                totals[i] += val
                counts[i] += 1
        self.last_stats = {"searched": True, "worlds": worlds, "candidates": len(cands), "failures": failures,
                           "ms": round((time.perf_counter() - t0) * 1000, 1)}
        if not any(counts.values()):
            return cands[0]
        # the mean outcome, with the normal bot's rating as a small prior (and the tie-break)
        lo = min(prior[i] for i in cands)

        def value(i: int) -> float:
            if not counts[i]:
                return -1.0
            return totals[i] / counts[i] + 0.002 * (prior[i] - lo)
        return max(cands, key=value)

    def rollout(self, g, me: int, seed: int) -> float:
        n = len(g.players)
        bots = [NormalBot(seed * 31 + s, STYLES["balanced"]) for s in range(n)]
        stop_round = g.round + self.horizon + (1 if g.phase == "selection" else 0)
        steps = 0
        while g.phase != "over" and g.round < stop_round and steps < self.max_commands:
            seat = g.pending.seat
            legal = legal_commands(g, seat)
            if not legal:
                break
            cmd = legal[0] if len(legal) == 1 else bots[seat].choose(legal, seat_view(g, seat))
            apply(g, cmd, check=False)
            steps += 1
        return evaluate(g, me)


def evaluate(g, me: int) -> float:
    """1/len(winners) for a winner of a finished game; else a soft chance to win."""
    if g.phase == "over":
        return (1.0 / len(g.winners)) if me in g.winners else 0.0
    from ..city import complete_at

    target = complete_at(g)
    ests = []
    for s, p in enumerate(g.players):
        pts = sum(K.built_value(b) for b in p.city)
        size = len(p.city) + sum(1 for b in p.city if b.name == "Monument")
        types = {K.dtype(b.name) for b in p.city}
        est = pts + 1.6 * size + 0.45 * p.gold + 0.45 * min(len(p.hand), 5)
        est += 3.0 * len(types) / 5.0 if len(types) < 5 else 3.0
        if g.first_complete == s:
            est += 4.0
        elif size >= target:
            est += 2.0
        ests.append(est)
    tau = 3.0
    top = max(ests)
    ws = [math.exp((e - top) / tau) for e in ests]
    return ws[me] / sum(ws)
