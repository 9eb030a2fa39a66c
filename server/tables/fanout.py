"""A table's news reaches its sessions one at a time, the loop yielded between them.

Posting a view costs the table little, but each post wakes that session's app, which then
updates its widgets and renders a frame (1-3 ms each, docs/performance.md). Posted all at once,
every woken app runs in the same loop iteration, and whatever else became ready meanwhile (another
table's key press, its actor, its publish) waits behind all of them: a table with many spectators
held every other table's move for the whole of its fan-out. Delivered one session per iteration,
another table's move advances one step per session served here, however many sessions watch.

The messages are built before the first post (`Deliveries`), each distinct view once: the
spectators share one message (they may all know the same things); each seat gets its own, never
shared with another seat. The recipients are fixed when the move is made: a session that leaves
meanwhile gets a message it drops (its app is gone), and the actor handles nothing else until the
fan-out is done, so each session still sees the table's messages in the order they were made.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from server.tables.messages import ToSession
from server.tables.seats import Client

log = logging.getLogger("citadels.server.tables.table")


@dataclass
class Deliveries:
    """What one table state sends: (session, message) in the order they are to be posted."""

    posts: list[tuple[Client, ToSession]] = field(default_factory=list)

    def add(self, client: Client, message: ToSession) -> None:
        self.posts.append((client, message))

    def __len__(self) -> int:
        return len(self.posts)


async def deliver(deliveries: Deliveries) -> None:
    """Post each message, yielding to the loop between sessions (never before the first one)."""
    for i, (client, message) in enumerate(deliveries.posts):
        if i:
            await asyncio.sleep(0)
        post_safely(client, message)


def post_safely(client: Client, message: Any) -> None:
    """`Client.post` never blocks; one session's failure must not keep the others from the news."""
    try:
        client.post(message)
    except Exception:  # a session half torn down; its own app reports its end
        log.exception("posting to a session failed")
