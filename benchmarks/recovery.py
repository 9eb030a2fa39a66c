"""What recovery keeps from a damaged command log (server/storage/recovery.py), as ONE JSON line.

Bots play games whose commands are recorded in a table's log (no snapshot in
between: the log holds them all, as it can up to 100). Then, many times, the log
is damaged and the table reopened as a restarting server would:

- one flipped bit at a random place: moves lost (the issue's target: 0);
- one whole record overwritten with garbage: how often the missing command is
  rebuilt (of which "uncertain": one of several choices leading to the same game),
  and moves lost when it is not;

every recovered game checked against the real one (the same state after as many
commands; the same commands unless marked uncertain),

with the time to reopen a table, clean and damaged (the same games, the same run:
compare them with each other, the machine is shared).

    python benchmarks/recovery.py [--games 6] [--commands 80] [--flips 200] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameConfig, apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.savefile import Seat
from engine.state import encode
from server.storage.persistence import SaveStore
from server.storage.savelog import LOG_HEADER, RECORD


def record_starts(data: bytes) -> list[int]:
    out, pos = [], LOG_HEADER.size
    while pos < len(data):
        out.append(pos)
        pos += RECORD.size + RECORD.unpack_from(data, pos)[0]
    return out


def reopen(folder: Path, snap: bytes, cfg: GameConfig, log: list, log_bytes: bytes, times: list[float]):
    """Reopen the table from these bytes as a restarting server would, and check it against the truth."""
    for p in folder.glob("t1.log*"):
        p.unlink()
    (folder / "t1.log").write_bytes(log_bytes)
    (folder / "t1.save").write_bytes(snap)
    t0 = time.perf_counter()
    t = SaveStore(folder, durable=False).open("t1")
    times.append((time.perf_counter() - t0) * 1000)
    t.close()
    truth, _ = new_game(cfg)
    for c in log[: len(t.save.log)]:
        apply(truth, c)
    assert encode(t.state) == encode(truth), "not the game as it was"
    if not t.recovery.uncertain:
        assert t.save.log == log[: len(t.save.log)], "a command the game did not have"
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--commands", type=int, default=80)
    ap.add_argument("--flips", type=int, default=200, help="single-bit damages per game")
    ap.add_argument("--dir", default=".")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="recovery-bench-", dir=args.dir))
    rng = random.Random(18)
    lost_flip, lost_garbage, rebuilt, uncertain, garbage = [], [], 0, 0, 0
    t_clean, t_flip, t_garbage = [], [], []
    try:
        for game in range(args.games):
            folder = root / f"g{game}"
            store = SaveStore(folder, snapshot_every=1000, durable=False)
            cfg = GameConfig(players=["a", "b", "c", "d"], preset="first-game", seed=game)
            g, _ = new_game(cfg)
            table = store.create("t1", cfg, [Seat(n) for n in cfg.players], g)
            bots = [RandomBot(game * 10 + i) for i in range(4)]
            log = []
            while len(log) < args.commands and g.phase != "over":
                cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
                apply(g, cmd)
                table.record(cmd, g)
                log.append(cmd)
            table.close()
            data = (folder / "t1.log").read_bytes()
            snap = (folder / "t1.save").read_bytes()
            starts = record_starts(data)

            for _ in range(5):
                reopen(folder, snap, cfg, log, data, t_clean)
            for bit in rng.sample(range(len(data) * 8), min(args.flips, len(data) * 8)):
                bad = bytearray(data)
                bad[bit // 8] ^= 1 << (bit % 8)
                t = reopen(folder, snap, cfg, log, bytes(bad), t_flip)
                lost_flip.append(len(log) - len(t.save.log))
            for i in range(1, len(starts) - 1):
                bad = bytearray(data)
                bad[starts[i] : starts[i + 1]] = bytes(rng.randrange(256) for _ in range(starts[i + 1] - starts[i]))
                t = reopen(folder, snap, cfg, log, bytes(bad), t_garbage)
                garbage += 1
                rebuilt += bool(t.recovery.refilled)
                uncertain += t.recovery.uncertain
                lost_garbage.append(len(log) - len(t.save.log))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        json.dumps(
            {
                "bench": "recovery",
                "games": args.games,
                "commands_per_log": args.commands,
                "single_bit_flips": len(lost_flip),
                "single_bit_moves_lost_total": sum(lost_flip),
                "single_bit_moves_lost_max": max(lost_flip),
                "garbage_records": garbage,
                "garbage_rebuilt": rebuilt,
                "garbage_rebuilt_uncertain": uncertain,
                "garbage_moves_lost_mean": round(statistics.mean(lost_garbage), 2),
                "reopen_ms_clean_median": round(statistics.median(t_clean), 2),
                "reopen_ms_bit_flip_median": round(statistics.median(t_flip), 2),
                "reopen_ms_garbage_median": round(statistics.median(t_garbage), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
