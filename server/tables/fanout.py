"""A table's news reaches its sessions a few at a time, the loop yielded between them.

Posting a view costs the table little, but each post wakes that session's app, which then
updates its widgets and renders a frame (1.5-3 ms each, docs/performance.md). Posted all at once,
every woken app runs in the same loop iteration, and whatever else became ready meanwhile (another
table's key press, its actor, its publish) waits behind all of them: a table with 200 spectators
held every other table's move for the whole of its fan-out. Here at most `SESSIONS_PER_ITERATION`
sessions are posted per loop iteration: a table of players (at most 8 seats) is still told in one
go, as before, and a crowded table's spectators are told in slices, another table's move advancing
one step per slice. Not one session per iteration: the actor awaits its fan-out, and on a busy loop
(each iteration long) spreading a table of 6 over 6 iterations made every move six iterations
late (measured at 600 players: docs/performance.md).

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

SESSIONS_PER_ITERATION = 8  # a full table's seats: one iteration for a table without a crowd


@dataclass
class Deliveries:
    """What one table state sends: (session, message) in the order they are to be posted."""

    posts: list[tuple[Client, ToSession]] = field(default_factory=list)

    def add(self, client: Client, message: ToSession) -> None:
        self.posts.append((client, message))

    def __len__(self) -> int:
        return len(self.posts)


async def deliver(deliveries: Deliveries, per_iteration: int = SESSIONS_PER_ITERATION) -> None:
    """Post each message, yielding to the loop after every `per_iteration` sessions (never before
    the first post, nor after the last)."""
    for i, (client, message) in enumerate(deliveries.posts):
        if i and i % per_iteration == 0:
            await asyncio.sleep(0)
        post_safely(client, message)


def post_safely(client: Client, message: Any) -> None:
    """`Client.post` never blocks; one session's failure must not keep the others from the news."""
    try:
        client.post(message)
    except Exception:  # a session half torn down; its own app reports its end
        log.exception("posting to a session failed")
