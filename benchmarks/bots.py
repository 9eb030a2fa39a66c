"""Bot decision times, printed as ONE JSON line.

Bots of every kind play whole games (the measured kind at one seat, normal bots
elsewhere); every decision of the measured seat is timed, including the ones
with a single legal command, and separately the decisions with a real choice
(2+ legal commands). The hard bot thinks within `--budget-ms` (default 300), the expert within
`--expert-budget-ms` (default 2000).

    python benchmarks/bots.py [--games 10] [--hard-games 2] [--expert-games 1] [--players 5] [--preset first-game]
                              [--budget-ms 300] [--expert-budget-ms 2000] [--seed 0] [--pool-tables 4 --pool-workers 2]

Percentiles in milliseconds: p50, p90, p99, max; wall-clock time ("all", "choices") and the
thread's CPU time for the choices ("choices_cpu": what the bot costs, without the time the OS
gave to other processes on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.registry import make_bot


def pct(xs: list[float]) -> dict:
    if not xs:
        return {}
    xs = sorted(xs)
    n = len(xs)

    def at(q: float) -> float:
        return round(xs[min(n - 1, int(q * n))] * 1000, 3)

    return {
        "n": n,
        "p50": at(0.5),
        "p90": at(0.9),
        "p99": at(0.99),
        "max": round(xs[-1] * 1000, 3),
        "mean": round(sum(xs) / n * 1000, 3),
    }


def measure(kind: str, games: int, players: int, preset: str, seed: int, budget_ms: float) -> dict:
    """`budget_ms`: the searching kinds' thinking time per decision."""
    all_t: list[float] = []
    real_t: list[float] = []
    cpu_t: list[float] = []
    for i in range(games):
        g, _ = new_game(GameConfig(players=[f"P{s}" for s in range(players)], preset=preset, seed=seed + i))
        me = i % players
        opts = {"budget_ms": budget_ms} if kind in ("hard", "expert") else {}
        bots = [
            make_bot(kind, seed + i, **opts) if s == me else make_bot("normal", (seed + i) * 10 + s)
            for s in range(players)
        ]
        while g.phase != "over":
            seat = g.pending.seat
            legal = legal_commands(g, seat)
            if seat == me:
                c = time.thread_time()
                t = time.perf_counter()
                v = view(g, seat)  # the view is part of a decision's cost
                cmd = bots[seat].choose(legal, v)
                dt = time.perf_counter() - t
                dc = time.thread_time() - c
                all_t.append(dt)
                if len(legal) > 1:
                    real_t.append(dt)
                    cpu_t.append(dc)
            else:
                cmd = bots[seat].choose(legal, view(g, seat))
            apply(g, cmd, check=False)
    return {"games": games, "all": pct(all_t), "choices": pct(real_t), "choices_cpu": pct(cpu_t)}


def pool_loop_lag(tables: int, decisions: int, budget_ms: float, workers: int) -> dict:
    """Hard bots thinking at `tables` tables through server/tables/bot_pool.py while the event loop
    measures how late a 10 ms timer fires (what every other table's key-to-screen path waits)."""
    import asyncio

    from server.tables.bot_pool import BotPool

    views = []
    seed = 0
    while len(views) < tables * decisions:
        g, _ = new_game(GameConfig(players=[f"P{s}" for s in range(5)], seed=seed))
        bots = [make_bot("normal", s) for s in range(5)]
        while g.phase != "over" and len(views) < tables * decisions * (seed + 1) // 3 + 1:
            seat = g.pending.seat
            v = view(g, seat)
            if len(v.legal) > 2:
                views.append(v)
            apply(g, bots[seat].choose(legal_commands(g, seat), v), check=False)
        seed += 1
    views = views[: tables * decisions]

    async def run() -> dict:
        lags: list[float] = []
        stop = False

        async def ticker():
            while not stop:
                t = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append(time.perf_counter() - t - 0.01)

        async def table(i: int, pool) -> list[float]:
            out = []
            for k in range(decisions):
                t = time.perf_counter()
                await pool.decide("hard", views[i * decisions + k], seed=i * 100 + k, budget_ms=budget_ms)
                out.append(time.perf_counter() - t)
            return out

        async with BotPool(workers=workers) as pool:
            await pool.warm_up()
            tick = asyncio.create_task(ticker())
            t0 = time.perf_counter()
            per = await asyncio.gather(*[table(i, pool) for i in range(tables)])
            elapsed = time.perf_counter() - t0
            stop = True
            await tick
            return {
                "tables": tables,
                "decisions": tables * decisions,
                "workers": workers,
                "budget_ms": budget_ms,
                "seconds": round(elapsed, 2),
                "decision_ms": pct([x for p in per for x in p]),
                "loop_lag_ms": pct(lags),
                "fallbacks": pool.fallbacks,
            }

    return asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games per kind (random, easy, normal)")
    ap.add_argument("--hard-games", type=int, default=2, help="games for the hard bot")
    ap.add_argument("--expert-games", type=int, default=1, help="games for the expert bot (0: skip)")
    ap.add_argument("--expert-budget-ms", type=float, default=2000.0)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--preset", default="first-game")
    ap.add_argument("--budget-ms", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--pool-tables",
        type=int,
        default=0,
        help="also measure the event loop's lag while hard bots think at this many tables "
        "through server/tables/bot_pool.py (0: skip)",
    )
    ap.add_argument("--pool-workers", type=int, default=2)
    a = ap.parse_args(argv)
    out = {
        "benchmark": "bot decision time (ms, view included)",
        "players": a.players,
        "preset": a.preset,
        "budget_ms": a.budget_ms,
        "kinds": {},
    }
    for kind in ("random", "easy", "normal", "hard", "expert"):
        n = {"hard": a.hard_games, "expert": a.expert_games}.get(kind, a.games)
        if n:
            budget = a.expert_budget_ms if kind == "expert" else a.budget_ms
            out["kinds"][kind] = measure(kind, n, a.players, a.preset, a.seed, budget)
    if a.pool_tables:
        out["pool"] = pool_loop_lag(a.pool_tables, 5, a.budget_ms, a.pool_workers)
    normal = out["kinds"].get("normal", {}).get("choices")
    hard = out["kinds"].get("hard", {}).get("choices")
    if normal is not None:
        out["normal_under_5ms_p99"] = bool(normal) and normal["p99"] < 5.0
    if hard is not None:
        out["hard_within_budget"] = bool(hard) and hard["max"] <= a.budget_ms
    expert = out["kinds"].get("expert", {}).get("choices")
    if expert is not None:
        out["expert_within_budget"] = bool(expert) and expert["max"] <= a.expert_budget_ms
    sys.stdout.write(msgspec.json.encode(out).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
