"""Per-command cost of autosave (server/storage/persistence.py), printed as ONE JSON line.

Bots play whole games; after each applied command the table is persisted with
`TableSave.record` (append a checksummed record + fdatasync; a full snapshot every
`--snapshot-every` commands) and the time of that call alone is measured. For
comparison the same games are also saved the other way, an atomic replace of the
whole save (encode, write a temporary file, fsync, rename, fsync the folder)
after every command.

    python benchmarks/autosave.py [--games 20] [--players 5] [--dir DIR] [--no-fsync]

The saves go in a temporary folder under --dir (default: the current directory,
so that the disk measured is the one the server would use, not a tmpfs).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameConfig, apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.savefile import Seat, dumps, new_save, utcnow
from server.storage.persistence import SaveStore
from server.storage.savelog import atomic_write


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def us(x: float) -> float:
    return round(x * 1e6, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--snapshot-every", type=int, default=100)
    ap.add_argument("--dir", default=".")
    ap.add_argument("--no-fsync", action="store_true", help="durable=False (survives kill -9, not power loss)")
    ap.add_argument("--compare-games", type=int, default=3, help="games also saved by atomic replace (0: skip)")
    args = ap.parse_args()

    root = Path(tempfile.mkdtemp(prefix=".autosave-bench-", dir=args.dir))
    try:
        store = SaveStore(root / "saves", snapshot_every=args.snapshot_every, durable=not args.no_fsync)
        names = [f"P{i + 1}" for i in range(args.players)]
        log_times: list[float] = []
        replace_times: list[float] = []
        snapshots = 0
        for i in range(args.games):
            cfg = GameConfig(players=names, preset="first-game", seed=args.seed + i)
            g, _ = new_game(cfg)
            table = store.create(f"bench-{i}", cfg, [Seat(n, bot="random") for n in names], g)
            bots = [RandomBot((args.seed + i) * 10 + s) for s in range(args.players)]
            compare = i < args.compare_games
            full_log = []
            while g.phase != "over":
                cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
                apply(g, cmd)
                t0 = time.perf_counter()
                notice = table.record(cmd, g)
                log_times.append(time.perf_counter() - t0)
                if notice is not None:
                    print(f"autosave failed: {notice.detail}", file=sys.stderr)
                    return 1
                if table._since == 0:
                    snapshots += 1
                if compare:
                    full_log.append(cmd)
                    t0 = time.perf_counter()
                    save = new_save(
                        f"cmp-{i}", cfg, table.save.seats, g, full_log, created=table.save.created, updated=utcnow()
                    )
                    atomic_write(root / f"cmp-{i}.save", dumps(save), durable=not args.no_fsync)
                    replace_times.append(time.perf_counter() - t0)
        out = {
            "benchmark": "autosave",
            "strategy": "append-only log + snapshot",
            "fsync": not args.no_fsync,
            "games": args.games,
            "players": args.players,
            "commands": len(log_times),
            "snapshot_every": args.snapshot_every,
            "snapshots": snapshots,
            "median_us": us(statistics.median(log_times)),
            "p95_us": us(pct(log_times, 0.95)),
            "p99_us": us(pct(log_times, 0.99)),
            "max_us": us(max(log_times)),
            "mean_us": us(statistics.fmean(log_times)),
            "target_median_us": 1000,
            "ok": statistics.median(log_times) < 1e-3,
        }
        if replace_times:
            out["atomic_replace"] = {
                "commands": len(replace_times),
                "median_us": us(statistics.median(replace_times)),
                "p95_us": us(pct(replace_times, 0.95)),
                "max_us": us(max(replace_times)),
            }
        sys.stdout.write(msgspec.json.encode(out).decode() + "\n")
        return 0 if out["ok"] else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
