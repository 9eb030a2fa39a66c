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


class Watch:
    """Calls ``handler(key, value or None, revision)`` for every key matching ``pattern``: first
    each current value, then every change (a delete or an expiry gives None). ``ready`` is set
    once the current values have been delivered."""

    def __init__(self, kv: KeyValue, pattern: str, handler: Handler, name: str) -> None:
        self.kv = kv
        self.pattern = pattern
        self.handler = handler
        self.name = name
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._watcher: KeyValue.KeyWatcher | None = None

    async def start(self, timeout: float = 5.0) -> Watch:
        self._watcher = await self.kv.watch(self.pattern)
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"citadels-watch-{self.name}")
        await asyncio.wait_for(self.ready.wait(), timeout)
        return self

    async def _run(self) -> None:
        assert self._watcher is not None
        async for entry in self._watcher:
            if entry is None:
                self.ready.set()
                continue
            value = None if entry.operation in ("DEL", "PURGE") else (entry.value or None)
            try:
                self.handler(entry.key, value, entry.revision or 0)
            except Exception as error:  # one bad value must not stop the watch
                log_event(log, logging.ERROR, "watch handler failed", watch=self.name, key=entry.key, error=repr(error))
            if not self.ready.is_set() and entry.delta == 0:
                self.ready.set()

    async def stop(self) -> None:
        if self._watcher is not None:
            with contextlib.suppress(nats.errors.Error, js_errors.Error, asyncio.TimeoutError):
                await self._watcher.stop()
            self._watcher = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
