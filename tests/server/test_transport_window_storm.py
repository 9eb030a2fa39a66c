"""A window-change storm stays paced through its holds (server/transport/input_budget.py): the
connection is not read while held, and when it is read again the session is still a storm, so
the merged size it asks for is drawn in the paced tier, not the burst tier a person's quick input
gets. (Through real SSH sessions: test_transport_fair_input.py.)"""

from __future__ import annotations

import asyncio

from server.config import ServerConfig
from server.transport import input_budget
from server.transport.input_budget import FLOOD_MEMORY_SECONDS, InputBudget, WindowChangeLimit


class FakeTransport:
    def __init__(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True


class FakeConnection:
    def __init__(self) -> None:
        self._transport = FakeTransport()


async def test_a_storm_is_still_paced_after_a_hold_longer_than_the_flood_memory(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(input_budget, "_clock", lambda: now[0])
    config = ServerConfig(window_changes_per_second=20.0, window_change_burst=10)
    budget = InputBudget(config, now[0])
    limit = WindowChangeLimit(config, budget)
    conn = FakeConnection()
    for _ in range(10):
        limit.note(conn)
    assert conn._transport.reading and budget.tier(now[0]) == "light"
    limit.note(conn)  # past the bucket: held, and paced
    assert not conn._transport.reading and limit.held
    assert budget.tier(now[0]) == "paced"
    # The hold outlasts the flood memory (holds of a storm grow); when it ends, still paced.
    now[0] += FLOOD_MEMORY_SECONDS * 3
    assert budget.tier(now[0]) == "light"
    limit._release(conn)
    assert conn._transport.reading and not limit.held
    assert budget.tier(now[0]) == "paced"
    now[0] += FLOOD_MEMORY_SECONDS + 0.1  # quiet since: a person's again
    assert budget.tier(now[0]) == "light"
    await asyncio.sleep(0)
