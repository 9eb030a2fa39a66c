"""How many sampled worlds the hard bot searches per decision in its budget: this tree against a baseline.

    python benchmarks/hard_worlds.py [--baseline ae6c508] [--players 3,5,7] [--games 2] [--rounds 2] \\
        [--budget-ms 300] [--seed 5000]

The baseline revision is checked out in a temporary git worktree (as `sim_throughput.py` does) and
each tree runs in its own subprocess with that tree first on sys.path; the two alternate round by
round (the first to run alternates too), so a change in the machine's load falls on both.

In each subprocess one hard bot plays normal bots (`engine.sim.run`, seats rotated). At every
decision the hard bot searches, the search runs twice: once with the budget on the **CPU clock**
(`clock="cpu"`, `budget_ms`; the bot's 1 s elapsed-time cap is lifted here so that a loaded machine
does not cut the search short: the CPU budget is the only limit), counting the worlds it completes,
then once with `iterations=2` and no clock, whose choice is played. So the games do not depend on
the timing and both trees meet the same decisions (`identical`: the two played the same commands);
the per-decision ratio of this tree's count to the baseline's is then paired.

Reported per player count and tree: searched decisions, worlds per search (median, mean, 10th and
90th percentile), split into character picks and turn commands (a pick's play-out is a whole round),
and the CPU ms a search took. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from engine_trees import ROOT, git, run_child

# Run with one tree first on sys.path: plays the games, prints one JSON line of per-search records.
CHILD = r"""
import hashlib, json, sys, time
tree, players, games, seed, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
sys.path.insert(0, tree)
import msgspec
import engine
from engine.bots import hard
from engine.commands import DiscardCharacter, Pick
from engine.sim import run
assert engine.__file__.startswith(tree), (engine.__file__, tree)
hard.MAX_BUDGET_MS = 1e9  # the elapsed-time cap (read at each search) must not cut a CPU-clock search
searches = []
orig = hard.HardBot.search

def search(self, legal, view, cands, prior, t0):
    self.iterations, self.budget_ms, self.clock = None, budget, "cpu"
    c0 = time.thread_time()
    orig(self, legal, view, cands, prior, time.perf_counter())
    cpu = time.thread_time() - c0
    st = self.last_stats
    kind = "pick" if isinstance(legal[0], (Pick, DiscardCharacter)) else "turn"
    searches.append([kind, st["worlds"], st["candidates"], round(cpu * 1000, 1)])
    self.iterations, self.budget_ms = 2, None  # the move played: fixed effort, independent of the clock
    return orig(self, legal, view, cands, prior, t0)

hard.HardBot.search = search
h = hashlib.sha256()
enc = msgspec.msgpack.Encoder()
def on_game(cfg, g, log, bots):
    h.update(enc.encode(log))
seats = ["hard"] + ["normal"] * (players - 1)
opts = {"iterations": 2, "budget_ms": None, "clock": "cpu"}
r = run(players, games, seed=seed, check_every=False, seats=seats, bot_options=opts, on_game=on_game)
print(json.dumps({"searches": searches, "digest": h.hexdigest(), "failures": len(r.failures)}))
"""


def _child(tree: Path, players: int, games: int, seed: int, budget: float) -> dict:
    return run_child(tree, CHILD, str(players), str(games), str(seed), str(budget))


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def summary(rows: list[list]) -> dict:
    """Worlds per search and CPU ms per search, over `rows` ([kind, worlds, candidates, cpu_ms])."""
    if not rows:
        return {"searches": 0}
    w = [r[1] for r in rows]
    return {
        "searches": len(rows),
        "worlds_median": statistics.median(w),
        "worlds_mean": round(statistics.fmean(w), 1),
        "worlds_p10": _pct(w, 0.1),
        "worlds_p90": _pct(w, 0.9),
        "cpu_ms_median": statistics.median(r[3] for r in rows),
    }


def per_tree(rows: list[list]) -> dict:
    return {
        "all": summary(rows),
        "pick": summary([r for r in rows if r[0] == "pick"]),
        "turn": summary([r for r in rows if r[0] == "turn"]),
    }


def measure(rev: str, players: list[int], games: int, rounds: int, budget: float, seed: int) -> dict:
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tmp = Path(tempfile.mkdtemp(prefix="hard-worlds-"))
    base = tmp / "baseline"
    git("worktree", "add", "--detach", "--quiet", str(base), sha)
    trees = {"baseline": base, "working_tree": ROOT}
    out: dict = {}
    try:
        for n in players:
            rows: dict[str, list[list]] = {k: [] for k in trees}
            identical = True
            for i in range(rounds):
                order = list(trees) if i % 2 == 0 else list(reversed(trees))  # who runs first alternates
                res = {k: _child(trees[k], n, games, seed + 1000 * n + games * i, budget) for k in order}
                identical &= res["baseline"]["digest"] == res["working_tree"]["digest"]
                for k in trees:
                    rows[k].extend(res[k]["searches"])
            entry: dict = {"identical": identical, **{k: per_tree(rows[k]) for k in trees}}
            old, new = rows["baseline"], rows["working_tree"]
            if identical and len(old) == len(new):  # the same decisions: paired per-decision ratios
                ratios = [b[1] / a[1] for a, b in zip(old, new) if a[1]]
                entry["paired_ratio_median"] = round(statistics.median(ratios), 2)
            entry["ratio_of_medians"] = round(
                entry["working_tree"]["all"]["worlds_median"] / entry["baseline"]["all"]["worlds_median"], 2
            )
            out[f"p{n}"] = entry
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    return {
        "benchmark": "hard_worlds",
        "python": platform.python_version(),
        "budget_ms": budget,
        "clock": "cpu",
        "games_per_round": games,
        "rounds": rounds,
        "seed": seed,
        "baseline_rev": rev,
        "baseline_sha": sha[:12],
        "working_tree_head": git("rev-parse", "--short=12", "HEAD"),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        **out,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", metavar="REV", default="ae6c508", help="git revision to compare with")
    ap.add_argument("--players", default="3,5,7", help="player counts, comma-separated")
    ap.add_argument("--games", type=int, default=2, help="games per tree, player count and round")
    ap.add_argument("--rounds", type=int, default=2, help="alternating runs of each tree")
    ap.add_argument("--budget-ms", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=5000)
    a = ap.parse_args(argv)
    players = [int(x) for x in a.players.split(",")]
    print(json.dumps(measure(a.baseline, players, a.games, a.rounds, a.budget_ms, a.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
