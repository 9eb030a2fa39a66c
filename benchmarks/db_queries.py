"""What players look up, timed on a big database: leaderboards and profiles. ONE JSON line.

    python benchmarks/db_generate.py --database sqlite:////tmp/big.sqlite3     # 100,000 games, 10,000 players
    python benchmarks/db_queries.py --database sqlite:////tmp/big.sqlite3 [--calls 300]

Each call is timed alone through `PlayerStore` (one read transaction, the queries, the
typed answer): `leaderboard(family, limit=20, you=a random player)` over the three
families, `profile(a random player)` (each player's first look) and `games(player, 20)`.
Then the same profiles again (a warmer cache) through `AsyncPlayerStore` from an event
loop, each followed by a no-op call through it: what the hand-over to a worker thread and
back costs by itself. Medians and 95th percentiles in milliseconds; the machine is shared,
so compare figures from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from server.players.aio import AsyncPlayerStore
from server.players.schema import FAMILIES, game_seats, games, players
from server.players.store import PlayerStore


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def ms(xs: list[float]) -> dict:
    return {
        "median_ms": round(statistics.median(xs) * 1000, 3),
        "p95_ms": round(pct(xs, 0.95) * 1000, 3),
        "max_ms": round(max(xs) * 1000, 3),
    }


def timed(fn, args_list: list) -> list[float]:
    out = []
    for a in args_list:
        t = time.perf_counter()
        fn(*a)
        out.append(time.perf_counter() - t)
    return out


async def timed_async(db: AsyncPlayerStore, ids: list[int]) -> tuple[list[float], list[float]]:
    """The profiles again through the async store; and the bare hand-over (a no-op call) as many times."""
    out, bare = [], []
    for pid in ids:
        t = time.perf_counter()
        await db.profile(pid)
        out.append(time.perf_counter() - t)
        t = time.perf_counter()
        await db._run(lambda: None)
        bare.append(time.perf_counter() - t)
    return out, bare


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database", required=True, metavar="URL")
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    store = PlayerStore.open(args.database)
    with store.reading() as c:
        n_games = c.execute(select(func.count()).select_from(games)).scalar_one()
        people = list(c.execute(select(players.c.id).where(players.c.kind == "person")).scalars())
        seats = c.execute(select(func.count()).select_from(game_seats)).scalar_one()
    picks = [rng.choice(people) for _ in range(args.calls)]
    boards = [(FAMILIES[i % len(FAMILIES)], 20, rng.choice(people)) for i in range(args.calls)]
    # Warm the caches (the server's database is warm too), then measure.
    timed(store.profile, [(p,) for p in picks[:20]])
    timed(store.leaderboard, boards[:20])
    lb = timed(store.leaderboard, boards)
    prof = timed(store.profile, [(p,) for p in picks])
    lists = timed(store.games, [(p, 20) for p in picks])
    db = AsyncPlayerStore(store)

    async def run_async() -> tuple[list[float], list[float]]:
        try:
            return await timed_async(db, picks)
        finally:
            await db.close()

    via_loop, handover = asyncio.run(run_async())
    result = {
        "database": store.where if args.database.startswith("postgres") else "sqlite",
        "games": n_games,
        "players": len(people),
        "seats": seats,
        "calls": args.calls,
        "leaderboard": ms(lb),
        "profile": ms(prof),
        "my_games_20": ms(lists),
        "profile_again_via_async_store": ms(via_loop),
        "async_handover": ms(handover),
    }
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
