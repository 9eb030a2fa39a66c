"""The outbox on both backends: a game finishing while the database is down is recorded when it
returns and the host is told; a slow database never stalls the event loop; records left on disk
by a stopped server are written at the next start; a record refused for good is set aside."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time

import psycopg
import pytest

from server.players.aio import AsyncPlayerStore
from server.players.outbox import GameOutbox

from .games import record, seat_players

LOGGER = "citadels.server.players.outbox"


def _people(store, n: int) -> list[int]:
    return [store.player_for_key(f"SHA256:o{i}").id for i in range(n)]


async def _until(check, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


class LoopWatch:
    """The longest the event loop went without running a 10 ms ticker."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            self.worst = max(self.worst, now - last)
            last = now

    def __enter__(self) -> LoopWatch:
        self._task = asyncio.create_task(self._tick())
        return self

    def __exit__(self, *exc) -> None:
        assert self._task is not None
        self._task.cancel()


async def test_a_game_finishing_while_the_database_is_down_is_recorded_when_it_returns(backend, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    store = backend.open()
    ana, ben = _people(store, 2)
    db = AsyncPlayerStore(store)
    folder = tmp_path / "outbox"
    outbox = GameOutbox(db, folder, retry_first=0.05, retry_max=0.3)
    await outbox.start()
    rec = record("down-1", seat_players(1, [ana, ben]), seed=1)
    with backend.outage():
        t0 = time.perf_counter()
        outbox.submit(rec)  # the table's last move: returns at once
        assert time.perf_counter() - t0 < 0.05
        await _until(lambda: outbox.down)
        await _until(lambda: any(folder.glob("*.record")))  # kept on disk while it waits
        assert outbox.pending == 1
        await asyncio.sleep(0.5)  # a few more tries fail
        assert outbox.pending == 1 and outbox.written == 0
    warnings = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]  # told once per outage, not per try
    assert "players database unavailable" in warnings[0].getMessage()
    assert "1 finished game(s) wait in the outbox" in warnings[0].getMessage()
    assert await outbox.flush(timeout=30)
    assert not outbox.down and outbox.written == 1
    back = [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.INFO]
    assert any("players database back: 1 waiting game(s) recorded" in m for m in back)
    assert not any(folder.glob("*.record"))
    games = await db.games(player_id=ana)
    assert [g.id for g in games] == [1] and games[0].rated
    prof = await db.profile(ana)
    assert prof.ratings[0].games == 1
    await outbox.close()
    await db.close()


@contextlib.contextmanager
def _slow(backend):
    """Hold the database busy: the next write waits (rather than fails) until released."""
    if backend.name == "sqlite":
        holder = sqlite3.connect(backend.path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    else:
        with psycopg.connect(backend.url) as conn:
            conn.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            yield
            conn.rollback()


@pytest.mark.slow  # holds the database for 1.5 s of real time (the outage test above keeps the outbox in the fast tier)
async def test_a_slow_database_delays_the_record_not_the_loop(backend, tmp_path):
    store = backend.open(sqlite_busy_ms=10_000) if backend.name == "sqlite" else backend.open()
    ana, ben = _people(store, 2)
    db = AsyncPlayerStore(store)
    outbox = GameOutbox(db, tmp_path / "outbox")
    await outbox.start()
    with LoopWatch() as watch:
        with _slow(backend):
            outbox.submit(record("slow-1", seat_players(1, [ana, ben]), seed=1))
            await asyncio.sleep(1.5)  # the record waits on the lock in a worker thread
            assert outbox.pending == 1
        assert await outbox.flush(timeout=30)
    assert watch.worst < 0.5, f"the loop stalled {watch.worst:.3f} s"
    assert outbox.written == 1 and not outbox.down
    assert len(await db.games()) == 1
    await outbox.close()
    await db.close()


async def test_records_left_by_a_stopped_server_are_written_at_the_next_start(backend, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    store = backend.open()
    ana, ben = _people(store, 2)
    folder = tmp_path / "outbox"
    db = AsyncPlayerStore(store)
    first = GameOutbox(db, folder, retry_first=0.05, retry_max=0.1)
    await first.start()
    with backend.outage():
        first.submit(record("left-1", seat_players(1, [ana, ben]), seed=1))
        first.submit(record("left-2", seat_players(2, [ben, ana]), seed=2, minutes=1))
        await _until(lambda: first.down)
        await first.close()  # the server stops during the outage
    assert len(list(folder.glob("*.record"))) == 2
    assert any("2 finished game(s) not recorded yet" in r.getMessage() for r in caplog.records)
    second = GameOutbox(db, folder)
    await second.start()
    assert await second.flush(timeout=30)
    assert second.written == 2 and not any(folder.glob("*.record"))
    assert [g.finished_at.minute for g in await db.games()] == [1, 0]
    await second.close()
    await db.close()


async def test_a_record_refused_for_good_is_set_aside_and_the_rest_go_on(backend, tmp_path, caplog):
    store = backend.open()
    ana, ben = _people(store, 2)
    folder = tmp_path / "outbox"
    db = AsyncPlayerStore(store)
    outbox = GameOutbox(db, folder)
    await outbox.start()
    outbox.submit(record("bad", seat_players(1, [ana, 424242]), seed=1))  # no such player
    outbox.submit(record("good", seat_players(2, [ana, ben]), seed=2))
    assert await outbox.flush(timeout=30)
    assert (outbox.failed, outbox.written) == (1, 1)
    assert [p.name for p in (folder / "failed").iterdir()] == ["bad.record"]
    assert any(r.levelno == logging.ERROR and "refused game bad for good" in r.getMessage() for r in caplog.records)
    assert len(await db.games()) == 1
    await outbox.close()
    await db.close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_an_outbox_without_a_folder_keeps_records_in_memory(backend):
    store = backend.open()
    ana, ben = _people(store, 2)
    db = AsyncPlayerStore(store)
    outbox = GameOutbox(db, None)
    await outbox.start()
    outbox.submit(record("mem", seat_players(1, [ana, ben]), seed=1))
    assert await outbox.flush(timeout=30)
    assert len(await db.games()) == 1
    await outbox.close()
    await db.close()
