"""The churn part of benchmarks/server_scale.py: sessions that come and go while the players stay
seated, RSS read before, after each wave and after the server's quiet-time collection."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server_scale import Bench


async def churn(bench: Bench, seated: int, deadline: float) -> dict:
    args = bench.args
    await asyncio.sleep(args.gc_interval + 2)
    before = bench.rss()
    after_wave = []
    done = 0
    t0 = time.monotonic()
    while done < args.churn and time.monotonic() < deadline:
        wave, _ = await bench.connect(min(args.wave, args.churn - done), f"c{done}-")
        for c in wave:
            c.send(b"\x1b[B")  # a key in the lobby
        await asyncio.sleep(0.3)
        for c in wave:
            c.close()
        done += len(wave)
        for _ in range(200):
            if (await bench.stats())["sessions"] <= seated:
                break
            await asyncio.sleep(0.1)
        after_wave.append(round(bench.rss(), 1))
    await asyncio.sleep(args.gc_interval * 2 + 2)  # the quiet-time unfreeze + collect
    st = await bench.stats(frozen=True)
    return {
        "sessions": done,
        "wave": args.wave,
        "seated_meanwhile": seated,
        "seconds": round(time.monotonic() - t0, 1),
        "rss_before_mb": round(before, 1),
        "rss_after_each_wave_mb": after_wave,
        "rss_after_mb": round(bench.rss(), 1),
        "server_gc": st["gc"],
    }
