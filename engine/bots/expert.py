"""The expert bot: information-set Monte Carlo tree search over its own decisions.

One tree per decision, over this seat's own decisions from now to the end of the round (its picks
and every command of its turn: gathering, abilities and their targets, builds, ending the turn),
not only the next command. The search goes world by world:

1. **Sample a world** consistent with the view, as the hard bot does (`worlds.sample_world`:
   `determinize`, and during the selection the plausibility of the earlier picks).
2. For **every command at the root** (the close ones, below), in a copy of that same world with the
   same random seeds (common random numbers: the root commands are compared on equal worlds):
   - **descend the tree** below it: at each of its own later decisions choose among the commands
     legal *in this world* by PUCT (the mean outcome plus an exploration bonus weighted by the
     normal bot's opinion of the command, `prior`), counting how often each was available
     (information-set MCTS: a node is a history of its own commands, the same in every world);
     everyone else's decisions, and its own small ones (card selections, answers, keeping a drawn
     card), are the normal bot's. The first command never tried before ends the descent;
   - **play out** the rest of the round with normal bots at every seat and score the position with
     the hard bot's fitted evaluation (`policy_eval`; a finished game scores 1 for a win);
   - **back up** the score along the commands chosen.

It plays the root command with the best mean outcome. Like the hard bot it searches only close
decisions: the commands the normal bot rates within `margin` (picks) or `turn_margin` (turn
commands) points of its best, at most `top_k` / `turn_top_k` of them, at the root and at every node.

Budget: `budget_ms` (default 2000, capped at `MAX_BUDGET_MS`) per searched decision, on `clock`
"wall" (elapsed) or "cpu" (this thread's CPU time, for tournaments on a busy machine); or
`iterations` (play-outs per searched decision; with `budget_ms=None` the bot is reproducible
from its seed and the view whatever the machine's load). It sees only the view.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

from ..apply import apply
from ..commands import Choose, Command, Confirm, DiscardCharacter, Keep, Pick, Select, Unselect
from ..legal import legal_commands
from ..state import copy_state
from ..view import view as seat_view
from .normal import NormalBot
from .policy_infer import PickModel
from .styles import STYLES, Style
from .worlds import play_out, rollout_bots, sample_world

if TYPE_CHECKING:
    from ..state import GameState
    from ..view import View

DEFAULT_BUDGET_MS = 2000.0
MAX_BUDGET_MS = 5000.0
_SMALL = (Select, Unselect, Confirm, Keep, Choose)  # decisions the normal bot makes, in the tree too


class Edge:
    """A command tried from a node: how often it was available, tried, and the sum of its outcomes."""

    __slots__ = ("avail", "child", "prior", "total", "visits")

    def __init__(self, prior: float) -> None:
        self.prior = prior
        self.avail = 0
        self.visits = 0
        self.total = 0.0
        self.child: Node | None = None


class Node:
    """A history of this seat's own commands since the root (the same in every sampled world)."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[Command, Edge] = {}


class ExpertBot:
    kind = "expert"
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        style: Style | str | None = None,
        name: str | None = None,
        budget_ms: float | None = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        clock: str = "wall",
        horizon: int = 0,
        margin: float = 4.0,
        top_k: int = 5,
        turn_margin: float = 10.0,
        turn_top_k: int = 6,
        exploration: float = 0.35,
        prior_temp: float = 2.0,
        infer: int = 4,
        max_commands: int = 400,
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
        if clock not in ("wall", "cpu"):
            raise ValueError(f"Unknown clock {clock!r}: wall or cpu.")
        self.clock = clock
        self.horizon = horizon
        self.margin, self.top_k = margin, top_k
        self.turn_margin, self.turn_top_k = turn_margin, turn_top_k
        self.exploration = exploration
        self.prior_temp = prior_temp
        self.infer = infer
        self.max_commands = max_commands
        self.normal = NormalBot(seed, self.style, self.name)
        self.pick_model = PickModel()
        self.scorer = NormalBot(0, STYLES["balanced"])  # the prior: the normal bot's scores, no noise
        self.last_stats: dict[str, Any] = {}

    # --- the decision ---------------------------------------------------------------------------
    def choose(self, legal: list[Command], view: View | None = None) -> Command:
        if view is None:
            raise ValueError("the expert bot decides from its seat's view")
        t0 = time.perf_counter()
        self.last_stats = {"searched": False}
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], _SMALL):
            return self.normal.choose(legal, view)
        root = Node()
        cands = self._expand(root, legal, view)
        if len(cands) <= 1:
            return cands[0]
        return self.search(root, view, t0)

    def _candidates(self, legal: list[Command], scores: list[float]) -> list[int]:
        """The close commands: within the margin of the normal bot's best, at most top_k, best first."""
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        best = scores[order[0]]
        if isinstance(legal[0], (Pick, DiscardCharacter)):
            margin, top_k = self.margin, self.top_k
        else:
            margin, top_k = self.turn_margin, self.turn_top_k
        return [i for i in order[:top_k] if scores[i] >= best - margin]

    def _expand(self, node: Node, legal: list[Command], view: View) -> list[Command]:
        """Give `node` an edge for each close command of `legal` not seen there yet (its prior: the
        softmax of the normal bot's scores); return the node's commands legal now."""
        if any(c not in node.edges for c in legal):
            scores = self.scorer.scores(legal, view, noise=False)
            cands = self._candidates(legal, scores)
            top = max(scores[i] for i in cands)
            weights = {i: math.exp((scores[i] - top) / self.prior_temp) for i in cands}
            z = sum(weights.values())
            for i in cands:
                if legal[i] not in node.edges:
                    node.edges[legal[i]] = Edge(weights[i] / z)
        return [c for c in legal if c in node.edges]

    def _select(self, node: Node, here: list[Command]) -> Command:
        """PUCT over the commands available in this world (each edge's availability is its parent count)."""
        best: Command | None = None
        best_u = -math.inf
        c = self.exploration
        for cmd in here:
            e = node.edges[cmd]
            e.avail += 1
            if e.visits:
                q = e.total / e.visits
            else:
                q = 1.0  # untried: try each close command once before comparing
            u = q + c * e.prior * math.sqrt(e.avail) / (1 + e.visits)
            if u > best_u:
                best, best_u = cmd, u
        assert best is not None
        return best

    # --- the search -------------------------------------------------------------------------------
    def search(self, root: Node, view: View, t0: float) -> Command:
        me = view.seat
        assert me is not None
        rng = random.Random(hash((self.seed, view.seq, me, view.round, 0xE)) & 0xFFFFFFFF)
        cpu = self.clock == "cpu"
        now = time.thread_time if cpu else time.perf_counter
        start = now() if cpu else t0
        deadline = start + self.budget_ms * 0.95 / 1000.0 - 0.005 if self.budget_ms is not None else None
        wall_cap = t0 + MAX_BUDGET_MS * 0.95 / 1000.0
        stop_round = view.round + 1 + self.horizon
        bots = rollout_bots(len(view.players))
        cands = list(root.edges)
        iterations = worlds = failures = 0

        def out_of_time() -> bool:
            if self.iterations is not None and iterations >= self.iterations:
                return True
            return worlds >= 1 and ((deadline is not None and now() >= deadline) or time.perf_counter() >= wall_cap)

        while not out_of_time():
            if failures > 20 and worlds == 0:
                break
            try:
                world = sample_world(view, rng, self.pick_model, self.infer)
            except Exception:
                failures += 1
                continue
            worlds += 1
            seed = rng.getrandbits(32)
            done: list[tuple[Edge, list[Edge], float]] = []
            for cmd in cands:  # common random numbers: every root command in the same world, same seeds
                if worlds > 1 and out_of_time():
                    break
                try:
                    done.append(self._iterate(root, cmd, copy_state(world), me, seed, stop_round, bots))
                except Exception:
                    failures += 1
                    continue
                iterations += 1
            if len(done) < len(cands) and worlds > 1:
                break  # out of time mid-world: drop it, so every root command saw the same worlds
            for first, path, value in done:
                for e in [first, *path]:
                    e.visits += 1
                    e.total += value
        edges = root.edges
        self.last_stats = {
            "searched": True,
            "iterations": iterations,
            "worlds": worlds,
            "candidates": len(edges),
            "failures": failures,
            "ms": round((time.perf_counter() - t0) * 1000, 1),
        }
        # the best mean outcome (every root command saw the same worlds); the prior breaks ties
        return max(
            edges,
            key=lambda c: (edges[c].total / edges[c].visits if edges[c].visits else -1.0, edges[c].prior),
        )

    def _iterate(
        self, root: Node, first: Command, g: GameState, me: int, seed: int, stop_round: int, bots: list[NormalBot]
    ) -> tuple[Edge, list[Edge], float]:
        """In the sampled world `g`: play `first` (a root command), descend the tree below it over this
        seat's later decisions, play the rest of the round out; (the root edge, the edges chosen below
        it, the outcome)."""
        apply(g, first, check=False)
        root_edge = root.edges[first]
        if root_edge.child is None:
            root_edge.child = Node()
        node: Node | None = root_edge.child if root_edge.visits else None
        path: list[Edge] = []
        for s, b in enumerate(bots):
            b.rng.seed(seed * 17 + s)
        steps = 0
        while node is not None and g.phase != "over" and g.round < stop_round and steps < self.max_commands:
            seat = g.pending.seat
            legal = legal_commands(g, seat)
            if not legal:
                break
            if seat == me and len(legal) > 1 and not isinstance(legal[0], _SMALL):
                here = self._expand(node, legal, seat_view(g, seat))
                if not here:
                    break
                cmd = self._select(node, here)
                e = node.edges[cmd]
                path.append(e)
                if e.visits == 0:  # a command never tried from here: the descent ends after it
                    node = None
                else:
                    if e.child is None:
                        e.child = Node()
                    node = e.child
            elif len(legal) == 1:
                cmd = legal[0]
            else:
                cmd = bots[seat].choose(legal, seat_view(g, seat))
            apply(g, cmd, check=False)
            steps += 1
        value = play_out(g, me, seed, stop_round, bots, self.max_commands)
        return root_edge, path, value
