"""Bot strength: play tournament chunks, and merge chunks into one figure per table.

Play a chunk (one JSON line; the searching bots take their options per kind):

    python benchmarks/strength.py run --seats expert,hard,normal --games 50 --seed 300000 \\
        --expert-iterations 64 --hard-iterations 4 > ex-3p-s300000.json

Merge chunks (files named <table>-s<seed>.json; chunks of the same <table> are pooled; the
JSON lines of `citadels sim --seats ...` merge too):

    python benchmarks/strength.py ex-3p-s*.json ex-5p-s*.json ...

Each kind's win rate per seat over all the games, with a 95% confidence interval (normal
approximation; the per-chunk variances are recovered from the chunks' intervals and pooled with
the between-chunk spread), the fair share and the ratio to it. Chunks written by `run` also carry
each game's share of the win per kind, so the merge gives, for every two kinds at the table, the
ratio of their win rates with a 95% interval (delta method over games: the two kinds play the same
games, so their shares are paired). Prints one JSON line per table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def pooled(parts: list[tuple[int, float, float]]) -> tuple[int, float, float]:
    """(games, mean, variance) of the union of groups given as (games, mean, variance)."""
    m = sum(p[0] for p in parts)
    mean = sum(n * mu for n, mu, _ in parts) / m
    ss = sum((n - 1) * var + n * (mu - mean) ** 2 for n, mu, var in parts)
    return m, mean, ss / max(m - 1, 1)


def ratio_ci(xs: list[float], ys: list[float]) -> tuple[float, float, float] | None:
    """mean(xs) / mean(ys) over paired games, with a 95% interval (delta method); None if ys never won."""
    m = len(xs)
    mx, my = sum(xs) / m, sum(ys) / m
    if not my:
        return None
    r = mx / my
    d = [x - r * y for x, y in zip(xs, ys)]
    md = sum(d) / m
    var = sum((v - md) ** 2 for v in d) / max(m - 1, 1)
    half = 1.96 * math.sqrt(var / m) / my
    return r, r - half, r + half


def merge(files: list[str]) -> int:
    tables: dict[tuple, dict] = defaultdict(
        lambda: {"chunks": 0, "seconds": 0.0, "kinds": defaultdict(list), "shares": defaultdict(list)}
    )
    for fn in files:
        for line in open(fn):
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            kinds = r.get("kinds") or {}
            tag = os.path.basename(fn).rsplit("-s", 1)[0]  # chunk files: <table>-s<seed>.json
            key = (r["players"], tuple(sorted((k, v["seats"]) for k, v in kinds.items())), "", tag)
            t = tables[key]
            t["chunks"] += 1
            t["seconds"] += r["seconds"]
            t["lineup"] = (r.get("lineups") or [[]])[0]
            t["options"] = r.get("options")
            for k, v in kinds.items():
                half = (v["ci95"][1] - v["ci95"][0]) / 2
                var = (half / 1.96) ** 2 * v["games"]
                t["kinds"][k].append((v["games"], v["win_rate"], var))
            for k, xs in (r.get("per_game") or {}).items():
                t["shares"][k].extend(xs)
    for (players, _, _, tag), t in sorted(tables.items()):
        out = {
            "players": players,
            "tag": tag,
            "chunks": t["chunks"],
            "seconds": round(t["seconds"], 1),
            "lineup": t["lineup"],
            "kinds": {},
        }
        if t.get("options"):
            out["options"] = t["options"]
        for k, parts in t["kinds"].items():
            m, mean, var = pooled(parts)
            half = 1.96 * math.sqrt(var / m)
            fair = 1.0 / players
            out["kinds"][k] = {
                "games": m,
                "win_rate": round(mean, 4),
                "ci95": [round(mean - half, 4), round(mean + half, 4)],
                "fair_share": round(fair, 4),
                "vs_fair": round(mean / fair, 3),
                "vs_fair_ci95": [round((mean - half) / fair, 3), round((mean + half) / fair, 3)],
            }
        shares = t["shares"]
        ratios = {}
        for a in shares:
            for b in shares:
                if a != b and len(shares[a]) == len(shares[b]) and shares[a]:
                    rc = ratio_ci(shares[a], shares[b])
                    if rc is None:  # the denominator's kind never won: no ratio
                        ratios[f"{a}/{b}"] = {"ratio": None, "ci95": None}
                        continue
                    r, lo, hi = rc
                    ratios[f"{a}/{b}"] = {"ratio": round(r, 3), "ci95": [round(lo, 3), round(hi, 3)]}
        if ratios:
            out["ratios"] = ratios
        print(json.dumps(out))
    return 0


def run_chunk(argv: list[str]) -> int:
    from engine.bots.registry import SEARCHING
    from engine.sim import run, seat_kind

    ap = argparse.ArgumentParser(prog="strength.py run", description="play one tournament chunk")
    ap.add_argument("--seats", required=True, help="bot kinds, one per seat (rotated game by game)")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--preset", default=None)
    for kind in SEARCHING:
        ap.add_argument(f"--{kind}-iterations", type=int, default=None)
        ap.add_argument(f"--{kind}-budget-ms", type=float, default=None)
    ap.add_argument("--clock", choices=["wall", "cpu"], default="cpu", help="what a budget measures (default cpu)")
    a = ap.parse_args(argv)
    seats = a.seats.split(",")
    options: dict[str, dict] = {}
    for kind in SEARCHING:
        o: dict = {"clock": a.clock}
        its = getattr(a, f"{kind}_iterations")
        budget = getattr(a, f"{kind}_budget_ms")
        if its is not None:
            o["iterations"] = its
            o["budget_ms"] = budget
        elif budget is not None:
            o["budget_ms"] = budget
        options[kind] = o
    per_game: dict[str, list[float]] = {k: [] for k in dict.fromkeys(seats)}
    counter = {"i": 0}

    def on_game(cfg, g, log, bots) -> None:
        i = counter["i"]
        counter["i"] += 1
        if g.phase != "over":
            return
        for k in per_game:
            n = seats.count(k)
            won = sum(1.0 / len(g.winners) for w in g.winners if seat_kind(seats, i, w) == k)
            per_game[k].append(won / n)

    r = run(
        len(seats),
        a.games,
        seed=a.seed,
        preset=a.preset,
        check_every=False,
        seats=seats,
        bot_options=options,
        on_game=on_game,
    )
    out = {
        "players": r.players,
        "games": r.games,
        "seconds": r.seconds,
        "failures": r.failures,
        "lineups": r.lineups,
        "kinds": r.kinds,
        "options": {k: v for k, v in options.items() if k in seats},
        "per_game": per_game,
    }
    print(json.dumps(out))
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "run":
        return run_chunk(argv[1:])
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    return merge(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
