"""Create-if-absent, compare-and-set and watching, over nats-py's key-value buckets.

nats-py's ``create`` does not see a key that expired with a server-placed marker (buckets
with ``limit_marker_ttl``, as the leases and nodes are) as absent; here an expiry marker, a
delete and a purge all count as "no value", and ``create`` writes after them with the
marker's revision as the expected last one. Every write that must not clobber another
node's is conditional on the revision it read (JetStream's expected last subject sequence).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

import nats.errors
import nats.js.errors as js_errors
from nats.js.kv import KeyValue

from server.logging_setup import log_event
from server.task_stop import stop_task

log = logging.getLogger("citadels.cluster")

WRONG_LAST_SEQUENCE = (10071, 10164)
# What a lost connection, a restarting server or a slow answer raises: try again later.
TRANSIENT: tuple[type[BaseException], ...] = (nats.errors.Error, js_errors.Error, TimeoutError, OSError)


class Exists(Exception):
    """The key holds a value: not created."""


class Conflict(Exception):
    """The key changed since the revision given: not written."""


@dataclass(frozen=True)
class Value:
    """A key's current value (None: absent, deleted or expired) and the revision of its last write."""

    value: bytes | None
    revision: int


async def get(kv: KeyValue, key: str) -> Value:
    try:
        entry = await kv.get(key)
    except js_errors.KeyNotFoundError as error:
        gone = getattr(error, "entry", None)  # a delete marker's entry, with its revision
        return Value(None, (gone.revision or 0) if gone is not None else 0)
    return Value(entry.value or None, entry.revision or 0)


async def create(kv: KeyValue, key: str, value: bytes) -> int:
    """Write ``value`` if the key holds none; its revision. `Exists` if it holds one."""
    try:
        return await kv.update(key, value, last=0)
    except js_errors.KeyWrongLastSequenceError:
        pass
    current = await get(kv, key)
    if current.value is not None:
        raise Exists(key)
    try:
        return await kv.update(key, value, last=current.revision)
    except js_errors.KeyWrongLastSequenceError:
        raise Exists(key) from None  # another writer got there between our read and our write


async def update(kv: KeyValue, key: str, value: bytes, last: int) -> int:
    """Write ``value`` if the key's last revision is still ``last``; `Conflict` otherwise."""
    try:
        return await kv.update(key, value, last=last)
    except js_errors.KeyWrongLastSequenceError:
        raise Conflict(key) from None


async def delete(kv: KeyValue, key: str, last: int | None = None) -> None:
    """Delete the key (only if its last revision is ``last``, when given); `Conflict` otherwise."""
    try:
        await kv.delete(key, last=last)
    except js_errors.APIError as error:
        if error.err_code in WRONG_LAST_SEQUENCE:
            raise Conflict(key) from None
        raise


Handler = Callable[[str, bytes | None, int], None]
RESTART_BACKOFF = 0.25


class Watch:
    """Calls ``handler(key, value or None, revision)`` for every key matching ``pattern``: first
    each current value, then every change (a delete or an expiry gives None). ``ready`` is set
    once the current values have been delivered.

    A NATS server restart leaves nats-py's watcher silent for up to two idle heartbeats (10 s);
    given the connection's ``reconnects`` list, the watch starts afresh as soon as the client
    reconnects: current values again, and None for each key it knew that is gone now (a lease
    that expired during the outage leaves no marker by then)."""

    def __init__(
        self,
        kv: KeyValue,
        pattern: str,
        handler: Handler,
        name: str,
        reconnects: list[Callable[[], None]] | None = None,
    ) -> None:
        self.kv = kv
        self.pattern = pattern
        self.handler = handler
        self.name = name
        self.reconnects = reconnects
        self.ready = asyncio.Event()
        self.known: set[str] = set()
        self.restarts = 0
        self._task: asyncio.Task[None] | None = None
        self._watcher: KeyValue.KeyWatcher | None = None
        self._restart: asyncio.Task[None] | None = None
        self._stopped = False

    async def start(self, timeout: float = 5.0) -> Watch:
        await self._open()
        await asyncio.wait_for(self.ready.wait(), timeout)
        if self.reconnects is not None:
            self.reconnects.append(self._reconnected)
        return self

    async def _open(self) -> None:
        self._watcher = await self.kv.watch(self.pattern)
        self._task = asyncio.get_running_loop().create_task(
            self._run(self._watcher), name=f"citadels-watch-{self.name}"
        )

    async def _run(self, watcher: KeyValue.KeyWatcher) -> None:
        seen: set[str] | None = set()  # keys of the initial values; None once they are all in
        async for entry in watcher:
            if entry is not None:
                value = None if entry.operation in ("DEL", "PURGE") else (entry.value or None)
                if value is None:
                    self.known.discard(entry.key)
                else:
                    self.known.add(entry.key)
                    if seen is not None:
                        seen.add(entry.key)
                self._deliver(entry.key, value, entry.revision or 0)
            if seen is not None and (entry is None or entry.delta == 0):
                for key in sorted(self.known - seen):  # gone while we were not watching
                    self.known.discard(key)
                    self._deliver(key, None, 0)
                seen = None
                self.ready.set()

    def _deliver(self, key: str, value: bytes | None, revision: int) -> None:
        try:
            self.handler(key, value, revision)
        except Exception as error:  # one bad value must not stop the watch
            log_event(log, logging.ERROR, "watch handler failed", watch=self.name, key=key, error=repr(error))

    def _reconnected(self) -> None:
        if not self._stopped and (self._restart is None or self._restart.done()):
            self._restart = asyncio.get_running_loop().create_task(self._reopen(), name=f"citadels-rewatch-{self.name}")

    async def _reopen(self) -> None:
        await self._close_watcher()
        while not self._stopped:
            try:
                await self._open()
            except TRANSIENT:  # JetStream still starting: try again
                await asyncio.sleep(RESTART_BACKOFF)
                continue
            self.restarts += 1
            return

    async def _close_watcher(self) -> None:
        watcher, self._watcher = self._watcher, None
        task, self._task = self._task, None
        if watcher is not None:
            with contextlib.suppress(*TRANSIENT):
                await asyncio.wait_for(watcher.stop(), 2)
        await stop_task(task)

    async def stop(self) -> None:
        self._stopped = True
        if self.reconnects is not None and self._reconnected in self.reconnects:
            self.reconnects.remove(self._reconnected)
        await stop_task(self._restart)
        await self._close_watcher()
