"""Fit the hard bot's round-end evaluation (engine/bots/policy_eval.py) on normal-bot games.

    python benchmarks/fit_eval.py gen --players 5 --games 600 --preset first-game --seed 0 > rounds-5.jsonl
    python benchmarks/fit_eval.py fit rounds-*.jsonl      # prints WEIGHTS per stage

`gen` plays normal-bot games and writes, at the start of every round, each seat's features, the
stage and the seats that went on to win; `fit` fits a conditional logit per stage by Newton's
method (pure Python) and prints the weights and the log-likelihood against a uniform guess.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.policy_eval import FEATURES, features, stage_of
from engine.bots.registry import make_bot
from engine.city import complete_at


def gen(args) -> None:
    for i in range(args.games):
        seed = args.seed + i
        g, _ = new_game(GameConfig(players=[f"P{s}" for s in range(args.players)], preset=args.preset, seed=seed))
        bots = [make_bot("normal", seed * 10 + s) for s in range(args.players)]
        snaps = []
        last_round = None
        while g.phase != "over":
            if g.phase == "selection" and g.round != last_round:
                last_round = g.round
                t = complete_at(g)
                snaps.append((stage_of(g), [features(g, s, t) for s in range(args.players)]))
            seat = g.pending.seat
            legal = legal_commands(g, seat)
            cmd = legal[0] if len(legal) == 1 else bots[seat].choose(legal, view(g, seat))
            apply(g, cmd, check=False)
        for stage, xs in snaps:
            print(json.dumps({"n": args.players, "stage": stage, "x": xs, "w": list(g.winners)}))


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows: list[dict], ridge: float = 1.0) -> tuple[list[float], float, float]:
    d = len(FEATURES)
    w = [0.0] * d
    for _ in range(12):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        ll = 0.0
        for r in rows:
            xs, win = r["x"], r["w"]
            us = [sum(a * b for a, b in zip(w, x)) for x in xs]
            top = max(us)
            es = [math.exp(u - top) for u in us]
            z = sum(es)
            ps = [e / z for e in es]
            mean = [sum(ps[j] * xs[j][k] for j in range(len(xs))) for k in range(d)]
            for s in win:  # a tie: each winner counts for 1/len(win)
                f = 1.0 / len(win)
                ll += f * math.log(max(ps[s], 1e-300))
                for k in range(d):
                    grad[k] += f * (xs[s][k] - mean[k])
            for j, x in enumerate(xs):
                for k in range(d):
                    dk = x[k] - mean[k]
                    for m in range(k, d):
                        hess[k][m] += ps[j] * dk * (x[m] - mean[m])
        for k in range(d):
            grad[k] -= ridge * w[k] * 0.01
            hess[k][k] += ridge * 0.01
            for m in range(k):
                hess[k][m] = hess[m][k]
        step = solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-5:
            break
    base = sum(-math.log(len(r["x"])) for r in rows)
    return w, ll, base


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--players", type=int, default=5)
    g.add_argument("--games", type=int, default=500)
    g.add_argument("--preset", default="first-game")
    g.add_argument("--seed", type=int, default=0)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.cmd == "gen":
        gen(args)
        return
    rows = [json.loads(line) for fn in args.files for line in open(fn)]
    out = {}
    for stage in (0, 1, 2):
        rs = [r for r in rows if r["stage"] == stage and r["w"]]
        w, ll, base = fit(rs)
        out[stage] = [round(x, 3) for x in w]
        print(f"# stage {stage}: {len(rs)} positions, log-lik {ll:.1f} vs uniform {base:.1f}", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
