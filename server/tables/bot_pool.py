"""Bot decisions outside the server's event loop and interpreter lock: a worker process pool.

    pool = BotPool(workers=2)
    cmd = await pool.decide("hard", view, seed=..., budget_ms=300)    # or "expert" (default 2000 ms)
    await pool.close()

The view (only the seat's view: bots never see more) is sent to a worker
process as msgpack, the worker makes a fresh bot (`engine.bots.registry.make_bot`)
and returns its command. The searching kinds, hard and expert, run here. Searching in other processes keeps the event loop and
the GIL free, so no other table stalls while a hard bot thinks.

Each decision is bounded: the worker's bot gets `budget_ms` (capped at its kind's maximum: hard
1 s, expert 5 s; by default 300 ms and 2 s) and
the caller waits at most `budget_ms + grace_ms`; on a timeout or a worker
failure the decision falls back to the normal bot in this process (well under
a millisecond), so a table never hangs on a bot. Cheap kinds (random, easy,
normal) may be decided in-process with `decide_local`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import time

import msgspec

from engine.bots import expert, hard
from engine.bots.registry import SEARCHING, make_bot
from engine.commands import Command
from engine.view import View

log = logging.getLogger("citadels.server.tables.bot_pool")

_view_enc = msgspec.msgpack.Encoder()
_view_dec = msgspec.msgpack.Decoder(View)
_cmd_enc = msgspec.msgpack.Encoder()
_cmd_dec = msgspec.msgpack.Decoder(Command)


def _worker_init() -> None:
    import engine  # noqa: F401  (registers the cards once per worker)


# (default, maximum) thinking time per decision of each searching kind, in ms
BUDGETS = {
    "hard": (hard.DEFAULT_BUDGET_MS, hard.MAX_BUDGET_MS),
    "expert": (expert.DEFAULT_BUDGET_MS, expert.MAX_BUDGET_MS),
}


def _worker_decide(kind: str, view_bytes: bytes, seed: int, style: str | None, budget_ms: float) -> bytes:
    view = _view_dec.decode(view_bytes)
    options = {"budget_ms": budget_ms} if kind in SEARCHING else {}
    bot = make_bot(kind, seed, style, **options)
    return _cmd_enc.encode(bot.choose(list(view.legal), view))


def decide_local(kind: str, view: View, seed: int, style: str | None = None) -> Command:
    """A cheap bot's decision in this process (random, easy, normal: well under 5 ms)."""
    return make_bot(kind, seed, style).choose(list(view.legal), view)


class BotPool:
    def __init__(self, workers: int | None = None, grace_ms: float = 250.0, start_method: str = "forkserver") -> None:
        n = workers or max(1, min(4, (os.cpu_count() or 2)))
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context(start_method if start_method in methods else "spawn")
        self.workers = n
        self.grace_ms = grace_ms
        self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_init)
        self.fallbacks = 0
        self.decisions = 0
        self._inflight = 0

    async def warm_up(self) -> None:
        """Start the workers now (the first decision would otherwise pay for it)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*[loop.run_in_executor(self._pool, _worker_init) for _ in range(self.workers)])

    async def decide(
        self, kind: str, view: View, seed: int, budget_ms: float | None = None, style: str | None = None
    ) -> Command:
        """The bot's command for `view` (which must be the deciding seat's view, with `legal`)."""
        if not view.legal:
            raise ValueError("the view has no legal command: it is not this seat's decision")
        default, cap = BUDGETS.get(kind, BUDGETS["hard"])
        budget = min(float(budget_ms if budget_ms is not None else default), cap)
        self.decisions += 1
        if len(view.legal) == 1:
            return view.legal[0]
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        # Decisions queue when every worker is busy: allow one budget per batch ahead of this one.
        waves = 1 + self._inflight // self.workers
        self._inflight += 1
        fut = loop.run_in_executor(self._pool, _worker_decide, kind, _view_enc.encode(view), seed, style, budget)
        try:
            async with asyncio.timeout(
                waves * (budget + self.grace_ms) / 1000.0
            ):  # not wait_for: see server/task_stop.py
                data = await fut
            cmd = _cmd_dec.decode(data)
            if cmd in view.legal:
                return cmd
            log.warning("bot %s returned a command not in its legal list: %r", kind, cmd)
        except TimeoutError:
            log.warning(
                "bot %s took longer than %.0f ms; the normal bot decides", kind, (time.perf_counter() - t0) * 1000
            )
        except Exception:  # a broken worker must not stop the table
            log.exception("bot %s failed in its worker; the normal bot decides", kind)
        finally:
            self._inflight -= 1
        self.fallbacks += 1
        return decide_local("normal", view, seed, style)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, lambda: self._pool.shutdown(wait=True, cancel_futures=True))

    async def __aenter__(self) -> BotPool:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()
