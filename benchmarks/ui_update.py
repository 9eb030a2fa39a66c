"""Cost of the game screen: memory per app and CPU per view update.

    python benchmarks/ui_update.py [--apps 20] [--updates 200] [--size 80x24]

Prints ONE JSON line:
  - mb_per_app_tracemalloc: Python memory allocated per running app (N apps at
    once, each mounted with its first view), from tracemalloc;
  - mb_per_app_rss: the same from the process's resident set size (includes
    allocator overhead; noisy for small N);
  - start_cpu_ms_per_app: CPU to start an app and draw its first view
    (includes the pilot's own waiting overhead);
  - cpu_ms_per_update: process CPU per view update in one app (handle the
    message, update the widgets whose data changed, render the frame),
    measured over a recorded bots-only game, minus the cost of the same
    waits without updates.
Apps run headless (Textual's test driver) at the given size.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameConfig, apply, legal_commands, new_game, redact_events, view
from engine.bots.random_bot import RandomBot
from ui import CitadelsApp, UiOptions, ViewUpdate

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox"]


def record_game(players: int = 5, seed: int = 7, seat: int = 0) -> list[ViewUpdate]:
    """A bots-only game as the ViewUpdates one seat would receive, one per command."""
    g, events = new_game(GameConfig(players=NAMES[:players], preset="first-game", seed=seed))
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    out = [(view(g, seat), redact_events(events, seat))]
    while g.phase != "over":
        s = g.pending.seat
        cmd = bots[s].choose(legal_commands(g, s), view(g, s))
        ev = apply(g, cmd)
        out.append((view(g, seat), redact_events(ev, seat)))
    return out


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def start_cost(n: int, size: tuple[int, int], first) -> float:
    """CPU ms to start an app and draw its first view (apps started one after another)."""
    total = 0.0
    for _ in range(n):
        c0 = time.process_time()
        app = CitadelsApp(None, UiOptions())
        async with app.run_test(size=size) as pilot:
            app.post_message(ViewUpdate(*first))
            await pilot.pause()
            total += time.process_time() - c0
    return total / n * 1000


async def memory_per_app(n: int, size: tuple[int, int], first) -> tuple[float, float]:
    gc.collect()
    # one app first, so that imports and one-time caches are not counted per app
    warm = CitadelsApp(None, UiOptions())
    async with warm.run_test(size=size) as pilot:
        warm.post_message(ViewUpdate(*first))
        await pilot.pause()
    gc.collect()
    rss0 = rss_mb()
    tracemalloc.start()
    t0 = tracemalloc.get_traced_memory()[0]
    async with contextlib.AsyncExitStack() as stack:
        for _ in range(n):
            app = CitadelsApp(None, UiOptions())
            pilot = await stack.enter_async_context(app.run_test(size=size))
            app.post_message(ViewUpdate(*first))
            await pilot.pause()
        gc.collect()
        t1 = tracemalloc.get_traced_memory()[0]
        rss1 = rss_mb()
    tracemalloc.stop()
    return (t1 - t0) / n / 2**20, (rss1 - rss0) / n


async def cpu_per_update(updates, size: tuple[int, int]) -> tuple[float, int]:
    app = CitadelsApp(None, UiOptions())
    async with app.run_test(size=size) as pilot:
        app.post_message(ViewUpdate(*updates[0]))
        await pilot.pause()
        rest = updates[1:]
        # baseline: the same waits with nothing to do
        c0 = time.process_time()
        for _ in rest:
            await pilot.pause()
        base = time.process_time() - c0
        c0 = time.process_time()
        for v, ev in rest:
            app.post_message(ViewUpdate(v, ev))
            await pilot.pause()
        spent = time.process_time() - c0
    return max(spent - base, 0.0) / len(rest) * 1000, len(rest)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", type=int, default=20)
    ap.add_argument("--updates", type=int, default=200, help="view updates measured (from a recorded game)")
    ap.add_argument("--size", default="80x24")
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    game = record_game()
    updates = game[: args.updates + 1]
    mb_tm, mb_rss = asyncio.run(memory_per_app(args.apps, (w, h), game[len(game) // 2]))
    cpu_ms, n = asyncio.run(cpu_per_update(updates, (w, h)))
    start_ms = asyncio.run(start_cost(5, (w, h), game[len(game) // 2]))
    print(
        json.dumps(
            {
                "benchmark": "ui_update",
                "size": f"{w}x{h}",
                "apps": args.apps,
                "mb_per_app_tracemalloc": round(mb_tm, 2),
                "mb_per_app_rss": round(mb_rss, 2),
                "updates": n,
                "cpu_ms_per_update": round(cpu_ms, 2),
                "start_cpu_ms_per_app": round(start_ms, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
