"""Stopping a background task for good: `await stop_task(task)`.

`task.cancel(); await task` is not enough on Python 3.11: an `asyncio.wait_for` the task is in
(ours were replaced by `asyncio.timeout`; the NATS client awaits every request and publish ack
with one) returns the awaited result instead of raising when the cancel lands as that result
arrives, so the task goes on and the awaiting side waits forever (a table's actor did, and
`citadels admin close` never answered). Here the task is cancelled again until it has ended.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("citadels.server.tasks")

RECANCEL_SECONDS = 0.2


async def stop_task(task: asyncio.Task | None) -> None:
    """Cancel `task` and wait until it has ended (an error it ended with is logged, not raised)."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait((task,), timeout=RECANCEL_SECONDS)
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("task %s ended with an error while stopping", task.get_name(), exc_info=error)
