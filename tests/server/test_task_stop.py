"""A table's actor and every background task stop when told to, even when a cancel lands as the
awaited result arrives (Python 3.11's `asyncio.wait_for` swallowed such a cancel: the actor went on,
`Table.stop` waited forever and `citadels admin close` never answered)."""

from __future__ import annotations

import asyncio

import pytest
from test_game_bots import FakeSession

from server.config import ServerConfig
from server.lobby.lobby import Lobby, TableSpec
from server.tables.messages import Tick
from server.task_stop import stop_task


@pytest.mark.parametrize("turns", range(5))
async def test_the_actor_ends_on_one_cancel_that_lands_with_a_message(turns: int) -> None:
    lobby = Lobby(ServerConfig(port=0, bot_delay_seconds=30.0))  # a timer is due: the actor waits with a timeout
    owner = FakeSession("k", "Ana")
    lobby.sessions.add(owner)
    try:
        spec = TableSpec(name="", players=2, rules="2016", lineup="first-game", bots=1, bot_kind="normal")
        t = lobby.create(owner, spec)
        lobby.start(owner)
        for _ in range(200):
            if t.state is not None and t._due() is not None:
                break
            await asyncio.sleep(0.01)
        assert t._due() is not None
        await asyncio.sleep(0.05)
        task = t._task
        assert task is not None
        t.queue.put_nowait(Tick())  # a message arrives ...
        for _ in range(turns):
            await asyncio.sleep(0)
        task.cancel()  # ... and the one cancel lands some loop turns later
        done, _ = await asyncio.wait((task,), timeout=2)
        assert done, "the actor went on after its cancel"
        await t.stop()
    finally:
        await lobby.close()


async def test_stop_task_ends_a_task_that_swallows_a_cancel() -> None:
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                swallowed += 1
                if swallowed == 1:
                    continue  # as 3.11's wait_for did once: the task goes on
                raise

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await asyncio.wait_for(stop_task(task), 3)
    assert task.cancelled() and swallowed == 2


async def test_stop_task_logs_the_error_a_task_ended_with(caplog: pytest.LogCaptureFixture) -> None:
    async def broken() -> None:
        raise RuntimeError("boom")

    task = asyncio.create_task(broken())
    await asyncio.sleep(0)
    await stop_task(task)
    await stop_task(None)
    assert "ended with an error" in caplog.text and "boom" in caplog.text
