"""The worker process pool: hard decisions happen in other processes, the event loop stays free."""

from __future__ import annotations

import asyncio
import time

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.registry import make_bot
from server.tables.bot_pool import BotPool


def views_to_decide(count: int):
    """Views of real decisions with several legal commands (selection picks and turns)."""
    out = []
    for seed in range(20):
        g, _ = new_game(GameConfig(players=[f"P{i}" for i in range(5)], seed=seed))
        bots = [make_bot("normal", s) for s in range(5)]
        while g.phase != "over" and len(out) < count * (seed + 1) // 4:
            seat = g.pending.seat
            v = view(g, seat)
            if len(v.legal) > 2:
                out.append(v)
            apply(g, bots[seat].choose(legal_commands(g, seat), v), check=False)
        if len(out) >= count:
            return out[:count]
    return out


async def test_decisions_are_legal_and_the_loop_stays_free():
    views = views_to_decide(6)
    async with BotPool(workers=2) as pool:
        await pool.warm_up()
        lags: list[float] = []
        stop = False

        async def ticker():
            while not stop:
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                lags.append(time.perf_counter() - t - 0.005)

        tick = asyncio.create_task(ticker())
        t0 = time.perf_counter()
        cmds = await asyncio.gather(*[pool.decide("hard", v, seed=i, budget_ms=200) for i, v in enumerate(views)])
        elapsed = time.perf_counter() - t0
        stop = True
        await tick
        for v, c in zip(views, cmds):
            assert c in v.legal
        assert pool.fallbacks == 0
        # 6 decisions of 200 ms on 2 workers: about 0.6 s, never the 1.2 s of a serial loop on the event loop
        assert elapsed < 1.2 * 1.5
        assert max(lags) < 0.1, f"the event loop stalled {max(lags) * 1000:.0f} ms"


async def test_normal_and_random_through_the_pool():
    views = views_to_decide(3)
    async with BotPool(workers=1) as pool:
        for kind in ("random", "easy", "normal"):
            for v in views:
                assert await pool.decide(kind, v, seed=3) in v.legal


async def test_the_expert_thinks_in_the_pool_within_its_budget():
    """Legal decisions from the worker pool, none left to the normal bot. The grace is wide: a search
    plays at least one whole sampled world, which takes longer than usual on a loaded machine."""
    views = views_to_decide(2)
    async with BotPool(workers=2, grace_ms=2000) as pool:
        await pool.warm_up()
        t0 = time.perf_counter()
        cmds = await asyncio.gather(*[pool.decide("expert", v, seed=i, budget_ms=300) for i, v in enumerate(views)])
        elapsed = time.perf_counter() - t0
        for v, c in zip(views, cmds):
            assert c in v.legal
        assert pool.fallbacks == 0
        assert elapsed < (0.3 + pool.grace_ms / 1000) * 2
