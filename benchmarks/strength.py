"""Merge the JSON lines of `citadels sim --seats ...` chunks into one figure per table.

    citadels sim --seats hard,normal,normal --games 250 --seed 100000 --iterations 4 --no-check > fg-3p-s100000.json
    ...
    python benchmarks/strength.py fg-3p-s*.json fg-5p-s*.json ...

A chunk file is named <table>-s<seed>.json; chunks of the same <table> are pooled.

Chunks with the same seats, preset and rule set are pooled: each kind's win rate per seat over all
their games, with a 95% confidence interval (normal approximation; the per-chunk variances are
recovered from the chunks' intervals and pooled with the between-chunk spread), the fair share and
the ratio to it. Prints one JSON line per table.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections import defaultdict


def pooled(parts: list[tuple[int, float, float]]) -> tuple[int, float, float]:
    """(games, mean, variance) of the union of groups given as (games, mean, variance)."""
    m = sum(p[0] for p in parts)
    mean = sum(n * mu for n, mu, _ in parts) / m
    ss = sum((n - 1) * var + n * (mu - mean) ** 2 for n, mu, var in parts)
    return m, mean, ss / max(m - 1, 1)


def main(files: list[str]) -> int:
    tables: dict[tuple, dict] = defaultdict(
        lambda: {"chunks": 0, "seeds": [], "seconds": 0.0, "kinds": defaultdict(list)}
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
            for k, v in kinds.items():
                half = (v["ci95"][1] - v["ci95"][0]) / 2
                var = (half / 1.96) ** 2 * v["games"]
                t["kinds"][k].append((v["games"], v["win_rate"], var))
    for (players, _, _, tag), t in sorted(tables.items()):
        out = {
            "players": players,
            "tag": tag,
            "chunks": t["chunks"],
            "seconds": round(t["seconds"], 1),
            "lineup": t["lineup"],
            "kinds": {},
        }
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
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
