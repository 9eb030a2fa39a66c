"""Engine speed: random-bot games per second, this working tree against a baseline revision.

    python benchmarks/sim_throughput.py --baseline main [--players 5] [--games 300] [--seed 1] [--rounds 5]
    python benchmarks/sim_throughput.py [--games 300] [--seed 0]        # this tree only, at 2, 5 and 7 players

With `--baseline REV` the script checks REV out in a temporary git worktree and plays the same
seeded random-bot games (`engine.sim.run(players, games, seed, check_every=False)`: invariants
checked at each game's end only, as `citadels sim --no-check`) on REV's engine and on this working
tree, each in its own subprocess with its tree first on sys.path. The machine is shared and noisy,
so the two alternate for `--rounds` rounds (the first to run alternates too) and the figures are
medians. Each run reports games per second of its own CPU time (`cpu_games_per_second`: what one
core gives the engine when it has the core to itself) and of elapsed time (`wall_games_per_second`:
what it got here, beside everything else the machine ran meanwhile). Before timing, one untimed run
of each tree hashes every game's commands and outcome: `identical` says both engines played the
same games.

`compiled` says whether a tree's engine was built with mypyc (the optional build, docs/speed.md):
a fresh checkout of REV never is; this tree is when its `.so` files are present. With `--compiled`
the script also builds a copy of this tree with mypyc (`CITADELS_MYPYC=1 setup.py build_ext
--inplace` in a temporary folder: minutes) and times it as a third tree, `compiled_tree`, in the
same rounds. `--compiled-against REV2` builds REV2's tree with mypyc as well (REV2's own setup.py
decides what is compiled) and times it as `compiled_baseline`: the compiled engines compared in the
same run (`compiled_against_ratio`, `compiled_against_identical`).

Prints one JSON line.
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

# Run in a subprocess whose sys.path starts with one tree: plays the games and prints one JSON line.
CHILD = r"""
import hashlib, json, sys, time
tree, players, games, seed, digest = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
sys.path.insert(0, tree)
import msgspec
import engine
from engine.sim import run
assert engine.__file__.startswith(tree), (engine.__file__, tree)
out = {"compiled": not sys.modules["engine.apply"].__file__.endswith(".py")}
if digest:
    h = hashlib.sha256()
    enc = msgspec.msgpack.Encoder()
    def on_game(cfg, g, log, bots):
        h.update(enc.encode(log))
        h.update(enc.encode([g.scores, g.winners, g.rng, g.round, g.seq]))
    r = run(players, games, seed=seed, check_every=False, on_game=on_game)
    out["digest"] = h.hexdigest()
else:
    c0, w0 = time.process_time(), time.perf_counter()
    r = run(players, games, seed=seed, check_every=False)
    out["cpu_s"] = time.process_time() - c0
    out["wall_s"] = time.perf_counter() - w0
out["commands"] = r.commands
out["failures"] = len(r.failures)
print(json.dumps(out))
"""


def _child(tree: Path, players: int, games: int, seed: int, digest: bool) -> dict:
    return run_child(tree, CHILD, str(players), str(games), str(seed), "1" if digest else "0")


def _compiled_copy(dest: Path, src: Path = ROOT) -> Path:
    """`src`'s engine (this tree's by default), built with mypyc in `dest` (its setup.py decides what is compiled)."""
    files = subprocess.run(
        ["git", "ls-files", "engine", "setup.py", "pyproject.toml"],
        cwd=src,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / f, dest / f)
    env = {**os.environ, "CITADELS_MYPYC": "1"}
    proc = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=dest, env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise SystemExit(f"the mypyc build failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return dest


def compare(
    rev: str, players: int, games: int, seed: int, rounds: int, compiled: bool = False, against: str | None = None
) -> dict:
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tmp = Path(tempfile.mkdtemp(prefix="sim-throughput-"))
    base = tmp / "baseline"
    git("worktree", "add", "--detach", "--quiet", str(base), sha)
    other = tmp / "against"
    try:
        trees = {"baseline": base, "working_tree": ROOT}
        if compiled:
            trees["compiled_tree"] = _compiled_copy(tmp / "compiled")
        if against:
            git(
                "worktree",
                "add",
                "--detach",
                "--quiet",
                str(other),
                git("rev-parse", "--verify", f"{against}^{{commit}}"),
            )
            trees["compiled_baseline"] = _compiled_copy(tmp / "compiled-against", other)
        digests = {k: _child(t, players, games, seed, digest=True) for k, t in trees.items()}
        runs: dict[str, list[dict]] = {k: [] for k in trees}
        for i in range(rounds):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))  # who runs first alternates
            for k in order:
                runs[k].append(_child(trees[k], players, games, seed, digest=False))
    finally:
        for wt in (base, other):
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(wt)], cwd=ROOT, capture_output=True, check=False
            )
        shutil.rmtree(tmp, ignore_errors=True)

    def figures(k: str) -> dict:
        rs = runs[k]
        cpu = statistics.median(games / r["cpu_s"] for r in rs)
        wall = statistics.median(games / r["wall_s"] for r in rs)
        return {
            "cpu_games_per_second": round(cpu, 1),
            "wall_games_per_second": round(wall, 1),
            "cpu_commands_per_second": round(cpu * rs[0]["commands"] / games),
            "cpu_games_per_second_runs": [round(games / r["cpu_s"], 1) for r in rs],
            "compiled": digests[k]["compiled"],
            "failures": digests[k]["failures"],
        }

    out = {k: figures(k) for k in trees}
    extra = {}
    if "compiled_tree" in trees:
        extra = {
            "compiled_identical": digests["baseline"]["digest"] == digests["compiled_tree"]["digest"],
            "compiled_cpu_ratio": round(
                out["compiled_tree"]["cpu_games_per_second"] / out["baseline"]["cpu_games_per_second"], 2
            ),
            "compiled_wall_ratio": round(
                out["compiled_tree"]["wall_games_per_second"] / out["baseline"]["wall_games_per_second"], 2
            ),
        }
    if "compiled_baseline" in trees and "compiled_tree" in trees:
        extra |= {
            "compiled_against": against,
            "compiled_against_identical": digests["compiled_baseline"]["digest"] == digests["compiled_tree"]["digest"],
            "compiled_against_ratio": round(
                out["compiled_tree"]["cpu_games_per_second"] / out["compiled_baseline"]["cpu_games_per_second"], 3
            ),
        }
    return {
        "benchmark": "sim_throughput",
        "python": platform.python_version(),
        "players": players,
        "games": games,
        "seed": seed,
        "rounds": rounds,
        "baseline_rev": rev,
        "baseline_sha": sha[:12],
        "working_tree_head": git("rev-parse", "--short=12", "HEAD"),
        "identical": digests["baseline"]["digest"] == digests["working_tree"]["digest"],
        "commands_per_game": round(runs["baseline"][0]["commands"] / games, 1),
        **out,
        "cpu_ratio": round(out["working_tree"]["cpu_games_per_second"] / out["baseline"]["cpu_games_per_second"], 2),
        "wall_ratio": round(out["working_tree"]["wall_games_per_second"] / out["baseline"]["wall_games_per_second"], 2),
        **extra,
    }


def this_tree(games: int, seed: int) -> dict:
    out: dict = {"benchmark": "sim_throughput", "python": platform.python_version(), "games": games}
    for n in (2, 5, 7):
        r = _child(ROOT, n, games, seed, digest=False)
        out[f"p{n}"] = {
            "cpu_games_per_second": round(games / r["cpu_s"], 1),
            "wall_games_per_second": round(games / r["wall_s"], 1),
            "commands_per_game": round(r["commands"] / games, 1),
            "failures": r["failures"],
            "compiled": r["compiled"],
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", metavar="REV", help="a git revision to compare with (e.g. main)")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs of each tree (medians are reported)")
    ap.add_argument("--compiled", action="store_true", help="also build this tree with mypyc and time it")
    ap.add_argument(
        "--compiled-against", metavar="REV2", help="with --compiled: also build REV2 with mypyc and time it (e.g. main)"
    )
    a = ap.parse_args(argv)
    if a.compiled_against and not a.compiled:
        ap.error("--compiled-against needs --compiled")
    if a.baseline:
        out = compare(a.baseline, a.players, a.games, a.seed, a.rounds, a.compiled, a.compiled_against)
    else:
        out = this_tree(a.games, a.seed)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
