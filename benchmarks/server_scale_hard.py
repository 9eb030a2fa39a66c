"""The hard-bot run of benchmarks/server_scale.py (`--hard-tables K`): tables of people measured
without, then with, K tables of `hard` bots whose decisions run in worker processes (issue 9).
`self` is server_scale's `Bench` (its server process, clients and measuring window)."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from server_scale_clients import Client, cpu_seconds, descendants


async def hard_run(self: Any, deadline: float) -> dict:
    """Three tables of people measured without, then with, `--hard-tables` tables of hard bots (issue 9)."""
    args = self.args
    result: dict = {
        "benchmark": "server_scale_hard",
        "rate_per_table": args.rate,
        "bots": "hard",
        "hard_tables": args.hard_tables,
        "human_tables": args.human_tables,
    }
    await self.start_server("hard")
    result["pinning"] = self.pinning + "; hard-bot workers on all CPUs"
    players: list[Client] = []
    try:
        n = 5 * args.human_tables
        players, _ = await self.connect(n, "h")
        tables = await self.seat(players)
        await asyncio.sleep(args.gc_freeze_wait)
        await self.quiet_all(players)
        result["idle_cpu_percent"] = await self.idle_cpu(args.idle_seconds)
        result["without_bots"] = await self.active(tables, args.tries, args.min_window, args.max_window)
        await self.quiet_all(players)
        await self.request("hard", cmd="hard", k=args.hard_tables)
        workers = descendants(self.proc.pid)
        for pid in workers:
            try:
                os.sched_setaffinity(pid, set(range(os.cpu_count() or 1)))
            except OSError:
                pass
        result["worker_pids"] = len(workers)
        await asyncio.sleep(3.0)
        wcpu0 = sum(cpu_seconds(p) for p in workers if os.path.exists(f"/proc/{p}"))
        t0 = time.perf_counter()
        live = [t for t in tables if not t.over]
        result["with_hard_bots"] = await self.active(live, args.tries, args.min_window, args.max_window)
        wcpu1 = sum(cpu_seconds(p) for p in workers if os.path.exists(f"/proc/{p}"))
        result["with_hard_bots"]["workers_cpu_percent"] = round((wcpu1 - wcpu0) / (time.perf_counter() - t0) * 100, 1)
        result["hard_games_started"] = (await self.stats())["hard_games_started"]
    finally:
        for c in players:
            c.close()
        await self.stop_server()
    return result
