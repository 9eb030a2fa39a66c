"""A recorded bot ladder: games among the bot levels, rated by the players database's openskill code.

Play (every line-up of `--players` levels out of `--levels`, `--games` games each, seats rotated
game by game; `--slice I/N` plays every N-th line-up from the I-th, so N processes can share the
work and the database):

    python benchmarks/bot_ladder.py play --database sqlite:///ladder.sqlite3 --players 3 --games 30 \\
        --seed 900000 --hard-iterations 2 --expert-iterations 40 [--slice 0/2]

Report (one JSON line: each level's openskill mu, sigma and ordinal from the ratings table, and for
every two levels how often the first finished ahead of the second in the games where both sat):

    python benchmarks/bot_ladder.py report --database sqlite:///ladder.sqlite3

Each game goes through the same code as a server's finished game: `cli.sim_cmd.SimRecorder` builds
its `GameRecord` and `PlayerStore.record_game` writes it and updates the ratings
(`server.players.ratings.update_ratings`, openskill's Plackett-Luce over the places) in one
transaction, with the host's policy of rating bots: each level is one rated player. The searching
bots play a fixed effort (`iterations`, no clock), so the games are reproducible from the seeds and
do not depend on the machine's load; the ratings depend on the order the games were recorded in.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LEVELS = ("random", "easy", "normal", "hard", "expert")


def lineups(levels: list[str], players: int) -> list[list[str]]:
    return [list(c) for c in itertools.combinations(levels, players)]


def play(a: argparse.Namespace) -> dict:
    from cli.sim_cmd import SimRecorder
    from engine.sim import run

    levels = a.levels.split(",")
    index, count = (int(x) for x in a.slice.split("/"))
    options = {
        "hard": {"iterations": a.hard_iterations, "budget_ms": None, "clock": "cpu"},
        "expert": {"iterations": a.expert_iterations, "budget_ms": None, "clock": "cpu"},
    }
    recorder = SimRecorder(a.database)
    played = []
    t0 = time.perf_counter()
    try:
        for i, seats in enumerate(lineups(levels, a.players)):
            if i % count != index:
                continue
            seed = a.seed + 1000 * i  # every line-up its own seeds, whichever slice plays it
            r = run(len(seats), a.games, seed=seed, preset=a.preset, check_every=False, seats=seats,
                    bot_options=options, on_game=recorder)  # fmt: skip
            played.append({"seats": seats, "seed": seed, "games": r.games, "failures": len(r.failures)})
    finally:
        recorder.close()
    return {
        "ladder": "play",
        "recorded": recorder.recorded,
        "rated": recorder.rated,
        "seconds": round(time.perf_counter() - t0, 1),
        "options": {k: v for k, v in options.items() if k in levels},
        "lineups": played,
    }


def share_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean of per-meeting outcomes (1 ahead, 0.5 level, 0 behind) with a 95% Wilson interval
    (sound near 0 and 1, where a weak level's share against a strong one lies)."""
    m = len(xs)
    p = sum(xs) / m
    z = 1.96
    centre = (p + z * z / (2 * m)) / (1 + z * z / m)
    half = z * math.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def report(a: argparse.Namespace) -> dict:
    from sqlalchemy import select

    from server.players.schema import game_seats, games
    from server.players.store import PlayerStore

    store = PlayerStore.open(a.database)
    try:
        with store.reading() as c:
            rows = c.execute(
                select(game_seats.c.game_id, game_seats.c.bot, game_seats.c.place)
                .join(games, games.c.id == game_seats.c.game_id)
                .where(games.c.rated, game_seats.c.bot.is_not(None))
                .order_by(game_seats.c.game_id, game_seats.c.seat)
            ).all()
        tables: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for gid, bot, place in rows:
            tables[gid].append((bot, place))
        levels = sorted({b for seats in tables.values() for b, _ in seats}, key=lambda k: (LEVELS + (k,)).index(k))
        out_levels = {}
        for k in levels:
            prof = store.profile(store.bot_player(k))
            fr = next((r for r in prof.ratings if r.family == "2016"), None) if prof else None
            if fr is not None:
                out_levels[k] = {
                    "mu": round(fr.mu, 2),
                    "sigma": round(fr.sigma, 2),
                    "ordinal": round(fr.rating, 2),
                    "games": fr.games,
                    "wins": fr.wins,
                }
    finally:
        store.close()
    meetings: dict[tuple[str, str], list[float]] = defaultdict(list)
    for seats in tables.values():
        for (x, px), (y, py) in itertools.permutations(seats, 2):
            if x != y:  # one seat per level in a ladder game
                meetings[(x, y)].append(1.0 if px < py else 0.5 if px == py else 0.0)
    pairwise = {}
    for (x, y), xs in sorted(meetings.items(), key=lambda kv: (levels.index(kv[0][0]), levels.index(kv[0][1]))):
        mean, lo, hi = share_ci(xs)
        pairwise[f"{x}/{y}"] = {"meetings": len(xs), "ahead": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}
    return {"ladder": "report", "games": len(tables), "levels": out_levels, "pairwise": pairwise}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play and record ladder games")
    p.add_argument("--database", required=True, metavar="URL", help="sqlite:///PATH (created or brought up to date)")
    p.add_argument("--levels", default=",".join(LEVELS))
    p.add_argument("--players", type=int, default=3, help="levels per table (default 3)")
    p.add_argument("--games", type=int, default=30, help="games per line-up (a multiple of --players rotates fully)")
    p.add_argument("--seed", type=int, default=900000)
    p.add_argument("--preset", default=None, help="a preset line-up (default first-game)")
    p.add_argument("--hard-iterations", type=int, default=2)
    p.add_argument("--expert-iterations", type=int, default=40)
    p.add_argument("--slice", default="0/1", metavar="I/N", help="play line-ups I, I+N, I+2N, ...")
    r = sub.add_parser("report", help="ratings and head-to-head shares from a ladder's database")
    r.add_argument("--database", required=True, metavar="URL")
    a = ap.parse_args(argv)
    out = play(a) if a.cmd == "play" else report(a)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
