"""Fair input: what one session's input may cost the server.

Two token buckets per session (:class:`InputBudget`):

- **keys**: each key, mouse click or scroll, and paste takes a token (``key_burst`` at once,
  ``key_rate_per_second`` refilled); past it the event is dropped and the player told.
- **loop time**: the event-loop time the session's app spends after one of its input events until
  it has drawn the frames that show its effect (two frames, at most ``input_cost_window_seconds``:
  the handlers, the layout and the rendering that input caused) and the time spent parsing its
  bytes are charged to a bucket of
  ``input_cpu_burst_seconds`` refilled at ``input_cpu_share`` seconds per second. While it is
  negative the driver reads nothing more from the session (its input waits in its client) and
  holds its window changes: a storm of any kind costs the server at most that share, however
  expensive each key or resize is on the screen it hits.

The loop-time bucket is spent in three tiers, so that one person's burst (quick presses, a held
key: a terminal repeats it ~30 times a second, each redrawing a large table) is paid at once
while many sessions bursting together (a flood from several sessions) cannot take the loop:

- **light** (less than ``input_light_seconds`` spent): handed over at once;
- **burst** (up to three quarters of the bucket spent): also draws on one pool per loop shared by every
  session in this tier (``input_burst_pool_share`` of a core, ``input_burst_pool_seconds`` at
  once); when it is spent they wait for it, and they give way to light sessions;
- **paced** (past that): draws on a smaller shared pool (``paced_input_share``) and gives way too.

A session whose keys the key bucket is dropping (more than a terminal's key repeat: a flood, not
a person), or whose window changes are past their bucket (a storm, not a window being dragged), is
paced whatever its budget, for ``FLOOD_MEMORY_SECONDS`` after the last one.

The loop time is measured per task step: a task factory wraps the coroutine of every task
created in a session's context (the session task and every task its Textual app creates) so
that each step's time is charged to that session's budget while its input window is open.
Tasks created elsewhere (table actors, the lobby, asyncssh) are left alone; actors are started
from clean contexts (docs: textual-over-ssh.md).
"""

from __future__ import annotations

import asyncio
import collections.abc
import contextvars
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from server.config import ServerConfig
from server.transport.compat import hold_connection

_clock = time.perf_counter

# Frames drawn after an input event whose loop time is still charged to it.
ARMED_FRAMES = 2
# A hold that begins within this long of the last one's end continues a storm (it lasts longer).
HOLD_STREAK_SECONDS = 5.0
# A session whose keys were dropped for their rate is paced for this long after the last drop.
FLOOD_MEMORY_SECONDS = 5.0
# Past three quarters of its budget spent, a session's input is paced (the small shared pool).
PACED_BELOW = 0.25
# What the paced sessions may spend of their shared pool at once.
PACED_POOL_BURST_SECONDS = 0.05


class TokenBucket:
    """``capacity`` tokens, refilled at ``rate`` per second; spending may go below zero."""

    __slots__ = ("capacity", "level", "rate", "stamp")

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.level = capacity
        self.stamp = now

    def refill(self, now: float) -> float:
        if now > self.stamp:
            self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
            self.stamp = now
        return self.level

    def take(self, amount: float, now: float) -> bool:
        """Take ``amount`` if there is that much; else take nothing."""
        if self.refill(now) >= amount:
            self.level -= amount
            return True
        return False

    def spend(self, amount: float, now: float) -> None:
        """Spend ``amount`` whatever the level (a cost already paid)."""
        self.refill(now)
        self.level -= amount

    def seconds_until(self, amount: float, now: float) -> float:
        missing = amount - self.refill(now)
        return max(0.0, missing / self.rate)


class LoopPools:
    """The loop time shared by all sessions of one tier (burst or paced), one pool per loop."""

    _pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, TokenBucket]] = weakref.WeakKeyDictionary()

    @classmethod
    def get(cls, tier: str, share: float, capacity: float) -> TokenBucket:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # outside a loop (unit tests): a pool of its own
            return TokenBucket(share, capacity, _clock())
        pools = cls._pools.setdefault(loop, {})
        pool = pools.get(tier)
        if pool is None:
            pool = pools[tier] = TokenBucket(share, capacity, _clock())
        return pool


class InputBudget:
    """One session's key bucket and loop-time bucket, and its figures."""

    __slots__ = (
        "__weakref__",
        "armed_until",
        "burst",
        "charged_seconds",
        "cpu",
        "flooding_until",
        "frames_to_charge",
        "keys",
        "keys_dropped",
        "light",
        "paced",
        "throttles",
        "window",
    )

    def __init__(self, config: ServerConfig, now: float | None = None) -> None:
        now = _clock() if now is None else now
        self.keys = TokenBucket(config.key_rate_per_second, config.key_burst, now)
        self.cpu = TokenBucket(config.input_cpu_share, config.input_cpu_burst_seconds, now)
        self.light = min(config.input_light_seconds, config.input_cpu_burst_seconds / 2)
        self.burst = LoopPools.get("burst", config.input_burst_pool_share, config.input_burst_pool_seconds)
        self.paced = LoopPools.get("paced", config.paced_input_share, PACED_POOL_BURST_SECONDS)
        self.window = config.input_cost_window_seconds
        self.armed_until = 0.0
        self.frames_to_charge = 0
        self.charged_seconds = 0.0
        self.keys_dropped = 0
        self.throttles = 0
        self.flooding_until = 0.0

    def arm(self, now: float) -> None:
        """An input event reached the app: charge its loop time until the frames that show it.

        The second frame drawn after it (the first may have been under way already), however
        long the loop takes to get there: on a busy loop a fixed window would end before the work.
        """
        self.armed_until = now + self.window
        self.frames_to_charge = ARMED_FRAMES

    def frame_drawn(self, now: float) -> None:
        if self.frames_to_charge:
            self.frames_to_charge -= 1
            if not self.frames_to_charge:
                self.armed_until = min(self.armed_until, now)

    def pool(self, now: float) -> TokenBucket | None:
        """The shared pool this session's input draws on now: none while it is light, the burst
        pool until three quarters of its budget are spent, the paced pool past that."""
        if now < self.flooding_until:
            return self.paced
        cpu = self.cpu
        level = cpu.refill(now)
        if cpu.capacity - level < self.light:
            return None
        return self.burst if level >= cpu.capacity * PACED_BELOW else self.paced

    def flooded(self, now: float) -> None:
        """A key was dropped for its rate: this session's input is paced for a while."""
        self.keys_dropped += 1
        self.storming(now)

    def storming(self, now: float) -> None:
        """Input past its rate (keys, window changes): paced for a while, whatever the budget."""
        self.flooding_until = now + FLOOD_MEMORY_SECONDS

    def tier(self, now: float) -> str:
        pool = self.pool(now)
        return "light" if pool is None else "burst" if pool is self.burst else "paced"

    def charge(self, seconds: float, now: float) -> None:
        pool = self.pool(now)
        if pool is not None:
            pool.spend(seconds, now)  # past its light tier: its tier's shared pool pays too
        self.cpu.spend(seconds, now)
        self.charged_seconds += seconds

    def spent(self, now: float) -> bool:
        """The loop-time budget is used up: read nothing more until it is back."""
        return self.cpu.refill(now) < 0

    def seconds_until_back(self, now: float) -> float:
        return self.cpu.seconds_until(0.0, now)

    def stats(self) -> dict[str, Any]:
        return {
            "keys_dropped": self.keys_dropped,
            "input_cpu_charged_s": round(self.charged_seconds, 3),
            "input_budget_left_s": round(self.cpu.refill(_clock()), 3),
            "input_tier": self.tier(_clock()),
        }


class WindowChangeLimit:
    """Window-change requests past a bucket: the session's connection is not read for a moment.

    Each request costs the SSH layer some work before the driver merges it, and nothing in SSH
    slows a client that sends them (unlike data, which its channel's window bounds). The client's
    next requests wait in the network; the last size still wins.
    """

    __slots__ = ("bucket", "budget", "held", "holds", "released_at", "streak")

    def __init__(self, config: ServerConfig, budget: InputBudget) -> None:
        self.budget = budget  # paced while its window changes storm
        self.bucket = TokenBucket(config.window_changes_per_second, config.window_change_burst, _clock())
        self.held = False
        self.holds = 0
        self.streak = 0  # holds one after the other (each soon after the last ended): a storm
        self.released_at = 0.0

    def note(self, conn: Any) -> None:
        now = _clock()
        if self.bucket.take(1, now):
            return
        self.budget.storming(now)
        if self.held or not hold_connection(conn, True):
            return
        self.held = True
        self.holds += 1
        self.streak = self.streak + 1 if now - self.released_at < HOLD_STREAK_SECONDS else 1
        # Until the bucket is a quarter full, twice as long for each hold of a storm (what the
        # client queued meanwhile is read in one go: fewer, later), give or take a quarter so that
        # storms that began together do not come back together.
        delay = max(0.05, self.bucket.seconds_until(self.bucket.capacity / 4, now))
        delay *= 2 ** min(self.streak - 1, 4) * random.uniform(0.75, 1.25)
        asyncio.get_running_loop().call_later(delay, self._release, conn, context=contextvars.Context())

    def _release(self, conn: Any) -> None:
        self.held = False
        self.released_at = _clock()
        # Still a storm: paced from the end of the hold (a long hold outlasts the flood memory, and
        # its input, the merged size first, would otherwise be drawn in the burst tier).
        self.budget.storming(self.released_at)
        hold_connection(conn, False)


class BudgetMemory:
    """What each source's last session left of its loop-time budget (at most ``size`` sources), so
    that a new session from the same address starts from there: reconnecting refills nothing."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._levels: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def remember(self, source: str, budget: InputBudget) -> None:
        now = _clock()
        level = budget.cpu.refill(now)
        if level >= budget.cpu.capacity:
            self._levels.pop(source, None)
            return
        self._levels[source] = (level, now)
        self._levels.move_to_end(source)
        while len(self._levels) > self.size:
            self._levels.popitem(last=False)

    def restore(self, source: str, budget: InputBudget) -> None:
        entry = self._levels.get(source)
        if entry is None:
            return
        level, stamp = entry
        now = _clock()
        bucket = budget.cpu
        bucket.level = min(bucket.capacity, level + (now - stamp) * bucket.rate)
        bucket.stamp = now


_budget: contextvars.ContextVar[InputBudget | None] = contextvars.ContextVar("citadels_input_budget", default=None)


def session_context(budget: InputBudget) -> contextvars.Context:
    """A fresh context whose tasks (and the tasks they create) charge ``budget``."""
    context = contextvars.Context()
    context.run(_budget.set, budget)
    return context


def run_metered(context: contextvars.Context, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` run in a session's ``context`` (its app's), its time charged to the session's
    budget as a step of one of its own tasks would be (the server's view updates dispatched without
    waking the app's task: ui/compat/direct_messages.py)."""
    budget = context.get(_budget)
    start = _clock()
    try:
        return context.run(fn, *args)
    finally:
        if budget is not None and start < budget.armed_until:
            end = _clock()
            budget.charge(end - start, end)


class _MeteredCoroutine(collections.abc.Coroutine):  # type: ignore[type-arg]
    """A task's coroutine whose steps are charged to a session's budget while its window is open."""

    __slots__ = ("_budget", "_coro")

    def __init__(self, coro: Any, budget: InputBudget) -> None:
        self._coro = coro
        self._budget = budget

    def send(self, value: Any) -> Any:
        start = _clock()
        try:
            return self._coro.send(value)
        finally:
            budget = self._budget
            if start < budget.armed_until:
                end = _clock()
                budget.charge(end - start, end)

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        start = _clock()
        try:
            if val is None and tb is None:
                return self._coro.throw(typ)
            return self._coro.throw(typ, val, tb)  # pragma: no cover - asyncio throws one argument
        finally:
            budget = self._budget
            if start < budget.armed_until:
                end = _clock()
                budget.charge(end - start, end)

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Any:  # pragma: no cover - only tasks hold these
        return self._coro.__await__()

    def __getattr__(self, name: str) -> Any:  # cr_frame, __qualname__... for reprs and debuggers
        return getattr(self._coro, name)


class _MeteringFactory:
    """The loop's task factory: wraps tasks made in a session's context, then defers to ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
        if "eager_start" in kwargs and kwargs["eager_start"] is None:
            # uvloop on 3.13 passes eager_start=None ("as the factory makes them") to every factory;
            # asyncio's eager_task_factory of 3.13.0, which Textual sets, takes no such argument
            del kwargs["eager_start"]
        context = kwargs.get("context")
        budget = _budget.get() if context is None else context.get(_budget)
        if budget is not None:
            coro = _MeteredCoroutine(coro, budget)
        if self.inner is not None:
            return self.inner(loop, coro, **kwargs)  # type: ignore[no-any-return]
        return asyncio.Task(coro, loop=loop, **kwargs)


_users: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()


def ensure_metering(loop: asyncio.AbstractEventLoop) -> None:
    """Make sure the loop's task factory is ours (idempotent).

    Also called as each app starts: Textual's ``run_async`` sets ``asyncio.eager_task_factory`` on
    Python 3.12 and later; ours then wraps it, so tasks stay eager and metered.
    """
    current = loop.get_task_factory()
    if not isinstance(current, _MeteringFactory):
        loop.set_task_factory(_MeteringFactory(current))


def start_metering(loop: asyncio.AbstractEventLoop) -> None:
    """A server starts on ``loop``."""
    _users[loop] = _users.get(loop, 0) + 1
    ensure_metering(loop)


def stop_metering(loop: asyncio.AbstractEventLoop) -> None:
    """A server on ``loop`` stopped; the last one gives the loop its factory back."""
    left = _users.get(loop, 0) - 1
    if left > 0:
        _users[loop] = left
        return
    _users.pop(loop, None)
    current = loop.get_task_factory()
    if isinstance(current, _MeteringFactory):
        loop.set_task_factory(current.inner)
