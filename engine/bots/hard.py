"""The hard bot: information-set Monte Carlo over the normal bot's heuristics.

It plays the normal bot's command unless the decision is close: several commands the normal bot
rates within `margin` points of the best (at most `top_k`) for a character pick, within
`turn_margin` (at most `turn_top_k`) for a turn's command (gathering, building, abilities and
their targets; these playouts are short, so it looks wider). Card selections and option choices
are the normal bot's.

A search samples worlds consistent with its view (`determinize`; during the selection, each world
is drawn among `infer` samples in proportion to how plausible the earlier picks are, see
`policy_infer`), plays every candidate in each world (the same worlds and the same random seeds
for all candidates: common random numbers) and continues with the normal bot at every seat to the
end of the round (`horizon` more rounds if asked), then scores the position with a fitted model
of each seat's chance to win (`policy_eval`; a finished game scores 1 for a win, shared in a tie).
The candidate with the best mean wins, the normal bot's rating breaking ties. It sees only the
view; the sampled worlds are its imagination.

Budget: `budget_ms` (default 300, capped at 1000) of thinking per searched decision, measured by
`clock` ("wall": elapsed time, what a person waits; "cpu": this thread's CPU time, for tournaments
on a busy machine, elapsed time still capped at 1 s), and/or `iterations` (sampled worlds per
searched decision). With `iterations` and `budget_ms=None` the bot is reproducible from its seed
and the view whatever the machine's load; with both, the first limit reached ends the search.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from ..apply import apply
from ..commands import Choose, Command, Confirm, DiscardCharacter, Keep, Pick, Select, Unselect
from ..state import copy_state
from . import policy_eval
from .normal import NormalBot
from .policy_infer import PickModel
from .styles import STYLES, Style
from .worlds import play_out, rollout_bots, sample_world

if TYPE_CHECKING:
    from ..state import GameState
    from ..view import View


MAX_BUDGET_MS = 1000.0
DEFAULT_BUDGET_MS = 300.0


class HardBot:
    kind = "hard"
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        style: Style | str | None = None,
        name: str | None = None,
        budget_ms: float | None = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        horizon: int = 0,
        margin: float = 3.0,
        top_k: int = 4,
        max_commands: int = 400,
        clock: str = "wall",
        prior_weight: float = 0.002,
        infer: int = 4,
        turn_margin: float | None = 6.0,
        turn_top_k: int | None = 5,
    ) -> None:
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
        self.prior_weight = prior_weight
        self.infer = infer
        self.turn_margin = margin if turn_margin is None else turn_margin
        self.turn_top_k = top_k if turn_top_k is None else turn_top_k
        self.pick_model = PickModel()
        # "wall": the budget is elapsed time (what a person waits); "cpu": this thread's CPU time, for
        # tournaments on a shared, oversubscribed machine (elapsed time is then capped at 1 s).
        if clock not in ("wall", "cpu"):
            raise ValueError(f"Unknown clock {clock!r}: wall or cpu.")
        self.clock = clock
        self.normal = NormalBot(seed, self.style, self.name)
        self.last_stats: dict[str, Any] = {}

    def choose(self, legal: list[Command], view: View | None = None) -> Command:
        if view is None:
            raise ValueError("the hard bot decides from its seat's view")
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
        if isinstance(first, (Pick, DiscardCharacter)):
            margin, top_k = self.margin, self.top_k
        else:  # turn decisions: rollouts to the end of the round are short, so look wider
            margin, top_k = self.turn_margin, self.turn_top_k
        cands = [i for i in order[:top_k] if scores[i] >= best - margin]
        if len(cands) <= 1:
            return legal[order[0]]
        return legal[self.search(legal, view, cands, scores, t0)]

    # --- the search -------------------------------------------------------------------------------
    def search(self, legal: list[Command], view: View, cands: list[int], prior: list[float], t0: float) -> int:
        me = view.seat
        assert me is not None
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
        stop_round = view.round + 1 + self.horizon
        bots = rollout_bots(len(view.players))
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
                world = self.sample(view, rng)
            except Exception:
                failures += 1
                continue
            worlds += 1
            wseed = rng.getrandbits(32)
            done = []
            for i in cands:  # common random numbers: every candidate in the same world, same seeds
                if deadline is not None and now() >= deadline and worlds > 1:
                    break
                g = copy_state(world)
                try:
                    apply(g, legal[i], check=False)
                    val = self.rollout(g, me, wseed, stop_round, bots)
                except Exception:
                    failures += 1
                    continue
                done.append((i, val))
            if len(done) < len(cands) and worlds > 1:
                break  # out of time mid-world: drop it, so all candidates saw the same worlds
            for i, val in done:
                totals[i] += val
                counts[i] += 1
        self.last_stats = {
            "searched": True,
            "worlds": worlds,
            "candidates": len(cands),
            "failures": failures,
            "ms": round((time.perf_counter() - t0) * 1000, 1),
        }
        if not any(counts.values()):
            return cands[0]
        # the mean outcome, with the normal bot's rating as a small prior (and the tie-break)
        lo = min(prior[i] for i in cands)

        def value(i: int) -> float:
            if not counts[i]:
                return -1.0
            return totals[i] / counts[i] + self.prior_weight * (prior[i] - lo)

        return max(cands, key=value)

    def sample(self, view: View, rng: random.Random) -> GameState:
        """A world consistent with the view (`worlds.sample_world`, with the pick inference)."""
        return sample_world(view, rng, self.pick_model, self.infer)

    def rollout(self, g: GameState, me: int, seed: int, stop_round: int, bots: list[NormalBot]) -> float:
        """Normal bots play every seat of the sampled world to the end of `stop_round - 1`."""
        return play_out(g, me, seed, stop_round, bots, self.max_commands)


def evaluate(g: GameState, me: int) -> float:
    """`me`'s chance to win: exact once the game is over, else the fitted model of `policy_eval`."""
    return policy_eval.evaluate(g, me)
