"""Garbage collection tuned for many long-lived apps in one process: young
objects collected in small steps, survivors frozen, and collections that never
scan the whole heap while many sessions are live (see docs/server.md)."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import time
from collections.abc import Callable

from server.config import ServerConfig
from server.logging_setup import log_event

log = logging.getLogger("citadels.server")


def _settle(wait: asyncio.Future[None]) -> None:
    if not wait.done():
        wait.set_result(None)


class GcTuner:
    """Garbage collection for many long-lived widget trees in one process.

    Raised thresholds while the server runs, and ``gc.freeze()`` shortly
    after apps start: the frozen objects are never scanned again, so the
    collector's automatic runs stay short however many sessions are live.

    CPython triggers a collection of the youngest generation when allocations
    minus deallocations pass a threshold, but deallocations of *old* objects
    count too: a server that replaces cached lines and views as it plays
    keeps that difference low while the youngest generation's list grows. At
    300 sessions it held 100,000-225,000 objects when a collection came, a
    pause of 60-190 ms (and 280 ms for the next generation). So a pacer does
    the work in small steps: every ``gc_young_interval_seconds`` it collects
    generation 0 (what was made since), every ``gc_freeze_interval_seconds``
    generation 1, then freezes the survivors (they are long-lived: a second
    old). No collection ever scans more than about a second of survivors.
    Garbage cycles among frozen objects wait for the quiet-time collection
    below; reference counting frees what is not in a cycle.

    A departed session is freed by reference counting when it ends
    (``server.transport.app_cleanup.break_app_cycles`` empties its nodes; the SSH
    connection's, the socket transport's, the input parser's and Textual's
    cache and component-style cycles are broken, ``ui.compat.cycle_patch``;
    tests/server/test_session_garbage.py). Anything still left in cycles
    among frozen objects needs ``gc.unfreeze()`` + ``gc.collect()``,
    a scan of the whole heap whose pause grows with the live sessions (6.7 s
    at 300). So that full collection runs only while at most
    ``gc_full_collect_max_sessions`` sessions are live (when sessions have
    left and the server is quiet: no app start and no input for
    ``gc_quiet_seconds``, checked every ``gc_collect_interval_seconds``;
    regardless of quiet after ten intervals; at once when the last session
    leaves). With more sessions live, the same checks collect only what is
    not frozen (``gc.collect()`` without unfreezing: the objects made since
    the last freeze), and the departed sessions' frozen remains, if any,
    wait for a quieter moment (none measured since the cycles above were
    broken: RSS flat under churn, docs/server.md), unless
    ``gc_full_collect_after_departures`` sessions (0 by default: never) have
    left since the last full collection. Pauses are logged at INFO past 100 ms. The
    previous thresholds are restored on stop.
    """

    def __init__(self, config: ServerConfig, count_sessions: Callable[[], int]) -> None:
        self._config = config
        self._count_sessions = count_sessions
        self._old_thresholds: tuple[int, int, int] | None = None
        self._freeze_handle: asyncio.TimerHandle | None = None
        self._idle_handle: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._last_start = 0.0
        self._last_input = 0.0
        self._departed = 0
        self._last_collect = time.monotonic()
        self.freezes = 0
        self.collections = 0
        self.last_collect_ms = 0.0
        self.young_collections = 0
        self.last_young_ms = 0.0
        self.max_young_ms = 0.0
        self.paced_collections = 0
        self.max_paced_ms = 0.0
        self.pace_seconds = config.gc_young_interval_seconds  # the pacer's wait now (shorter after long steps)
        self.min_pace_seconds = self.pace_seconds
        self._pacer: asyncio.Task[None] | None = None
        self._quiet_wait: asyncio.Future[None] | None = None  # the pacer's wait while quiet

    @property
    def enabled(self) -> bool:
        return self._config.gc_tuning

    def start(self) -> None:
        if not self.enabled:
            return
        self._old_thresholds = gc.get_threshold()
        cfg = self._config
        gc.set_threshold(cfg.gc_threshold0, cfg.gc_threshold1, cfg.gc_threshold2)
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._maintain(), name="citadels-gc", context=contextvars.Context())
        if cfg.gc_young_interval_seconds > 0:
            self._pacer = loop.create_task(self._pace(), name="citadels-gc-pacer", context=contextvars.Context())

    def stop(self) -> None:
        for handle in (self._freeze_handle, self._idle_handle):
            if handle is not None:
                handle.cancel()
        self._freeze_handle = self._idle_handle = None
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._pacer is not None:
            self._pacer.cancel()
            self._pacer = None
        if self._old_thresholds is not None:
            gc.unfreeze()
            gc.set_threshold(*self._old_thresholds)
            self._old_thresholds = None

    def app_started(self) -> None:
        self._last_start = time.monotonic()
        if self.enabled and self._freeze_handle is None and self._old_thresholds is not None:
            loop = asyncio.get_running_loop()
            self._freeze_handle = loop.call_later(self._config.gc_freeze_delay_seconds, self._freeze)

    def session_closed(self, remaining: int) -> None:
        self._departed += 1
        if remaining == 0 and self.enabled and self._old_thresholds is not None and self._idle_handle is None:
            # Nobody is left to notice a pause: collect now rather than later.
            loop = asyncio.get_running_loop()
            self._idle_handle = loop.call_later(self._config.gc_quiet_seconds, self._collect_if_empty)

    def _collect_if_empty(self) -> None:
        self._idle_handle = None
        if self._departed and self._count_sessions() == 0:
            self.collect_now()

    def note_input(self) -> None:
        self._last_input = time.monotonic()
        wait = self._quiet_wait
        if wait is not None and not wait.done():  # play resumes: step now, not after the quiet wait
            wait.set_result(None)

    def _freeze(self) -> None:
        self._freeze_handle = None
        gc.freeze()
        self.freezes += 1

    def _quiet(self, now: float) -> bool:
        quiet = self._config.gc_quiet_seconds
        return now - self._last_start > quiet and now - self._last_input > quiet

    def collect_now(self) -> None:
        """Collect the departed sessions' cycles: the whole heap if few sessions are live, else the unfrozen part."""
        sessions = self._count_sessions()
        budget = self._config.gc_full_collect_after_departures
        over_budget = budget > 0 and self._departed >= budget
        if sessions > self._config.gc_full_collect_max_sessions and not over_budget:
            self.collect_young()
            return
        start = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.last_collect_ms = (time.perf_counter() - start) * 1000
        self.collections += 1
        self._departed = 0
        self._last_collect = time.monotonic()
        level = logging.INFO if self.last_collect_ms >= 100 else logging.DEBUG
        log_event(log, level, "gc collect", ms=round(self.last_collect_ms, 1), sessions=sessions)

    def collect_young(self) -> None:
        """Collect what is not frozen (never the frozen heap): a pause bounded by what was made since the last freeze."""
        start = time.perf_counter()
        gc.collect()
        self.last_young_ms = (time.perf_counter() - start) * 1000
        self.max_young_ms = max(self.max_young_ms, self.last_young_ms)
        self.young_collections += 1
        self._last_collect = time.monotonic()
        level = logging.INFO if self.last_young_ms >= 100 else logging.DEBUG
        log_event(
            log, level, "gc collect (unfrozen only)", ms=round(self.last_young_ms, 1), sessions=self._count_sessions()
        )

    async def _pace(self) -> None:
        """Collect the young generations in small, regular steps; freeze the survivors.

        A step scans what was made since the last one, so a burst of moves (every woken app
        building its screen) makes the next step long. A step past ``gc_pause_target_ms`` halves
        the wait before the next (down to ``gc_young_min_interval_seconds``); a step under a quarter
        of the target lets the wait grow back (by a quarter) to ``gc_young_interval_seconds``.

        A step that found next to nothing (under ``gc_quiet_step_ms``: no game moving on this
        process) doubles the wait, up to ``gc_young_quiet_interval_seconds``: an idle server wakes
        for the collector about twice a second instead of ten times (each wake costs more than the
        step itself). A player's input ends a quiet wait at once (`note_input`: play resumes, and a
        step after a second of a thousand sessions' play would scan 15 ms of survivors), and the
        first step that finds work puts the usual wait back."""
        cfg = self._config
        young = cfg.gc_young_interval_seconds
        floor = min(young, cfg.gc_young_min_interval_seconds)
        quiet_wait = max(young, cfg.gc_young_quiet_interval_seconds)
        quiet_ms = cfg.gc_quiet_step_ms
        target = cfg.gc_pause_target_ms
        every = max(1, round(cfg.gc_freeze_interval_seconds / young))
        ticks = 0
        self.pace_seconds = young
        loop = asyncio.get_running_loop()
        while True:
            if self.pace_seconds > young:  # a quiet wait: the next input ends it (note_input)
                self._quiet_wait = wait = loop.create_future()
                handle = loop.call_later(self.pace_seconds, _settle, wait)
                try:
                    await wait
                finally:
                    handle.cancel()
                    self._quiet_wait = None
            else:
                await asyncio.sleep(self.pace_seconds)
            ticks += 1
            # Always: gc.get_count() is allocations minus deallocations, which stays near zero while
            # old objects die and new ones pile up in generation 0 (the case this pacer is for).
            start = time.perf_counter()
            if ticks % every:
                gc.collect(0)
            else:
                gc.collect(1)
                gc.freeze()
                self.freezes += 1
            ms = (time.perf_counter() - start) * 1000
            self.paced_collections += 1
            if ms > self.max_paced_ms:
                self.max_paced_ms = ms
            if ms < quiet_ms:
                self.pace_seconds = min(quiet_wait, self.pace_seconds * 2)
                continue
            self.pace_seconds = min(young, self.pace_seconds)  # work again: the usual pace at most
            if ms > target:
                self.pace_seconds = max(floor, self.pace_seconds / 2)
            elif ms < target / 4:
                self.pace_seconds = min(young, self.pace_seconds * 1.25)
            self.min_pace_seconds = min(self.min_pace_seconds, self.pace_seconds)

    async def _maintain(self) -> None:
        interval = self._config.gc_collect_interval_seconds
        while True:
            await asyncio.sleep(interval)
            if not self._departed:
                continue
            now = time.monotonic()
            overdue = now - self._last_collect > 10 * interval
            if self._quiet(now) or overdue:
                self.collect_now()


# -------------------------------------------------------------- per connection
