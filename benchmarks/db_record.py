"""Recording a finished game and updating its ratings (`PlayerStore.record_game`). ONE JSON line.

    python benchmarks/db_record.py [--games 300] [--players 60] [--database URL] [--dir DIR]

Real games first (the engine's random bots, 4 players, not timed), then each is recorded
with four of `--players` accounts seated at random: one write transaction that inserts
the game, its compressed command log, its seats and the characters they picked, locks
and updates four ratings and adds four rating-history rows. Each call is timed alone;
median and 95th percentile in milliseconds. The same number of records then goes through
`AsyncPlayerStore` from an event loop, each followed by a no-op call through it: what the
hand-over to a worker thread and back costs by itself.

Default: a new SQLite file in a temporary folder under --dir (default: the current
folder, so that the disk measured is the one a host would use, not a tmpfs).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.db_generate import real_game
from server.players.aio import AsyncPlayerStore
from server.players.game_record import GameRecord, SeatRecord
from server.players.store import PlayerStore


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def ms(xs: list[float]) -> dict:
    return {"median_ms": round(statistics.median(xs) * 1000, 3), "p95_ms": round(pct(xs, 0.95) * 1000, 3)}


def seated(base: GameRecord, uid: str, ids: list[int], end: datetime) -> GameRecord:
    seats = [
        SeatRecord(
            seat=s.seat,
            name=f"p{pid}",
            player_id=pid,
            score=s.score,
            winner=s.winner,
            place=s.place,
            characters=s.characters,
        )
        for s, pid in zip(base.seats, ids)
    ]
    return msgspec.structs.replace(base, uid=uid, seats=seats, started_at=end - timedelta(minutes=30), finished_at=end)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--database", default=None, metavar="URL", help="an empty database (default: a new SQLite file)")
    ap.add_argument("--dir", default=".", help="where the temporary SQLite file goes")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tmp = None
    url = args.database
    if url is None:
        tmp = Path(tempfile.mkdtemp(prefix="db_record-", dir=args.dir))
        url = f"sqlite:///{tmp / 'players.sqlite3'}"
    try:
        bases = [real_game(args.seed * 1000 + i, 4, "2016") for i in range(40)]
        store = PlayerStore.open(url, migrate_schema=True)
        ids = [store.player_for_key(f"SHA256:bench{i}").id for i in range(args.players)]
        t0 = datetime(2026, 1, 1, tzinfo=UTC)

        def records(prefix: str, n: int) -> list[GameRecord]:
            return [
                seated(rng.choice(bases), f"{prefix}-{i}", rng.sample(ids, 4), t0 + timedelta(minutes=i))
                for i in range(n)
            ]

        warm = records("warm", 20)
        timed_records = records("bench", args.games)
        for r in warm:
            store.record_game(r)
        times = []
        for r in timed_records:
            t = time.perf_counter()
            result = store.record_game(r)
            times.append(time.perf_counter() - t)
            assert result.rated and result.new
        db = AsyncPlayerStore(store)
        via_loop_records = records("async", args.games)

        async def run_async() -> tuple[list[float], list[float]]:
            out, bare = [], []
            for r in via_loop_records:
                t = time.perf_counter()
                await db.record_game(r)
                out.append(time.perf_counter() - t)
                t = time.perf_counter()
                await db._run(lambda: None)
                bare.append(time.perf_counter() - t)
            await db.close()
            return out, bare

        via_loop, handover = asyncio.run(run_async())
        result = {
            "database": "sqlite" if args.database is None else store.where,
            "games": args.games,
            "players": args.players,
            "seats": 4,
            "commands_per_game": round(statistics.mean(len(b.log) for b in bases)),
            "record_and_rate": ms(times),
            "record_and_rate_via_async_store": ms(via_loop),
            "async_handover": ms(handover),
        }
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
