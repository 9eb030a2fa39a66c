"""Sending on NATS from code that must not wait: the table actor posts to its sessions and never
awaits one (server/tables/table.py), and nats-py's `publish` is a coroutine.

`Sender.send(subject, data)` queues the message and returns; one task publishes the queue in
order (what one table posts, its sessions receive in that order). A publish that fails (NATS
restarting: nats-py buffers while it reconnects, and refuses past its buffer) is logged and
dropped: a session that misses a view gets the next one, and a session that reconnects gets
the whole view again.

`request(nc, subject, data, ...)`: a request answered by whoever subscribes to ``subject`` now,
tried again while nobody does (a table between two owners) until ``deadline``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import cast

import nats.errors
from nats.aio.client import Client

from server.logging_setup import log_event
from server.task_stop import stop_task

log = logging.getLogger("citadels.cluster.bus")

RETRY_FIRST = 0.02
# Nobody subscribes now (a table between owners), no answer in time, NATS reconnecting.
TRY_AGAIN = (
    nats.errors.NoRespondersError,
    nats.errors.TimeoutError,
    TimeoutError,
    nats.errors.ConnectionReconnectingError,
    nats.errors.OutboundBufferLimitError,
    nats.errors.StaleConnectionError,
)
RETRY_MAX = 0.25


class Unreachable(Exception):
    """Nobody answered before the deadline."""


class Sender:
    """Publishes queued messages in order on one connection."""

    def __init__(self, nc: Client) -> None:
        self.nc = nc
        self._queue: deque[tuple[str, bytes]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sent = 0
        self.dropped = 0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="citadels-sender")

    def send(self, subject: str, data: bytes) -> None:
        self._queue.append((subject, data))
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                subject, data = self._queue.popleft()
                try:
                    await self.nc.publish(subject, data)
                    self.sent += 1
                except (nats.errors.Error, OSError) as error:
                    self.dropped += 1
                    log_event(log, logging.WARNING, "publish dropped", subject=subject, error=type(error).__name__)

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait until everything queued so far was handed to the connection, then flush it."""
        deadline = time.monotonic() + timeout
        while self._queue and time.monotonic() < deadline:  # noqa: ASYNC110 (the sender's own queue)
            await asyncio.sleep(0.005)
        with contextlib.suppress(nats.errors.Error, OSError, TimeoutError):
            # nats-py annotates flush's timeout as an int but only hands it to asyncio.wait_for, which
            # takes float seconds: the fraction left of the deadline works as it is.
            await self.nc.flush(timeout=cast(int, max(0.1, deadline - time.monotonic())))

    async def stop(self) -> None:
        if self._task is not None:
            await self.flush(1.0)
            await stop_task(self._task)
            self._task = None


async def request(nc: Client, subject: str, data: bytes, *, timeout: float, deadline: float) -> bytes:
    """The answer to ``data`` on ``subject``; `Unreachable` if nobody answered by ``deadline``
    (time.monotonic()). No responders (between two owners) and timeouts are tried again."""
    wait = RETRY_FIRST
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Unreachable(subject)
        try:
            msg = await nc.request(subject, data, timeout=min(timeout, max(left, 0.05)))
            return msg.data
        except TRY_AGAIN:
            pass
        await asyncio.sleep(min(wait, max(0.0, deadline - time.monotonic())))
        wait = min(wait * 2, RETRY_MAX)
