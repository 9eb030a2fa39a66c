"""The table actor's saving in a cluster: its game in the JetStream log (server/cluster/table_log.py)
behind the interface of the file store (server/storage/persistence.py), so that the actor
(server/tables/table.py) runs unchanged.

    store = ClusterStore(conn, leases, root, on_failed)   # one per node
    save = store.create(id, config, seats, state)          # a new game (the actor calls it in a thread)
    save = store.adopt(save_file, id)                      # a loaded game
    save = store.taken_over(table_log)                     # a table taken over (replayed by TableLog.open)
    notice = await save.arecord(cmd, state, stand_in=...)  # in the stream before any view goes out

The log is the save: `arecord` returns once JetStream stored the command. It never reports a
failure as a notice the game could go on after (as the file store does for a full disk): a
command that cannot be stored here (the lease lost, the log fenced by a new owner, NATS gone
past the lease) raises, so the actor shows nothing of it, and ``on_failed(table, reason)``
tells the node to drop the table: whoever holds the lease next replays the log, where that
command is not.

The first snapshot of a new or loaded game is written in the background (`create` and
`adopt` are called where the actor cannot await); the first `arecord` waits for it. A
finished game is also written to ``<root>/finished/<id>.save``, as the file store keeps it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.commands import Command
from engine.savefile import Save, SaveError, Seat, dumps, new_save, owners_of, utcnow
from engine.setup import GameConfig
from engine.state import GameState
from server.cluster.connection import ClusterConnection
from server.cluster.leases import Lease
from server.cluster.table_log import TableLog
from server.logging_setup import log_event
from server.storage.savelog import FINISHED, atomic_write

log = logging.getLogger("citadels.cluster.store")

FailedHandler = Callable[[str, str], None]


class ClusterSave:
    """One table's saving in the cluster log (the file store's `TableSave`, for the actor)."""

    def __init__(self, store: ClusterStore, save: Save, log_: TableLog | None = None) -> None:
        self.store = store
        self.save = save
        self.log = log_
        self.problem = None  # the file store's "saving fails, the game goes on": never here
        self.recovery: Any = None
        self.finished = save.finished
        self._opening: asyncio.Future[TableLog] | None = None

    @property
    def id(self) -> str:
        return self.save.id

    @property
    def state(self) -> GameState:
        return self.save.state

    @property
    def lease(self) -> Lease | None:
        return None if self.log is None else self.log.lease

    def start(self) -> None:
        """Write the first snapshot now, in the background (the loop's thread)."""
        if self.log is None and self._opening is None:
            self._opening = asyncio.ensure_future(self._open())

    async def _open(self) -> TableLog:
        lease = await self.store.lease_for(self.save.id)
        self.log = await TableLog.create(self.store.conn, self.save, lease)
        log_event(log, logging.INFO, "table log created", table=self.id, commands=len(self.save.log))
        return self.log

    async def opened(self) -> TableLog:
        if self.log is not None:
            return self.log
        self.start()
        assert self._opening is not None
        try:
            return await asyncio.shield(self._opening)
        except Exception as error:
            self.store.failed(self.id, f"cannot start its log: {error}")
            raise

    async def arecord(
        self, cmd: Command, state: GameState | None = None, now: datetime | None = None, stand_in: bool = False
    ) -> None:
        table_log = await self.opened()
        try:
            await table_log.record(cmd, state, now, stand_in=stand_in)
        except Exception as error:
            self.store.failed(self.id, f"{type(error).__name__}: {error}")
            raise
        if table_log.finished and not self.finished:
            self.finished = True
            await asyncio.to_thread(self.store.keep_finished, self.save)

    def record(self, *args: Any, **kwargs: Any) -> None:  # pragma: no cover - the actor uses arecord
        raise RuntimeError("a cluster table records with `await arecord(...)`")

    def set_seats(self, seats: list[Seat], now: datetime | None = None) -> None:
        """Who sits where changed: a snapshot at once (the actor calls this in a worker thread)."""
        kept = [s.bot_played for s in self.save.seats]
        self.store.run(self._set_seats([_with_marks(new, old) for new, old in zip(seats, kept)], now))

    async def _set_seats(self, seats: list[Seat], now: datetime | None) -> None:
        table_log = await self.opened()
        self.save.owners = owners_of(seats, self.save.owners)  # a player replaced by a bot stays an owner
        try:
            await table_log.set_seats(seats, now)
        except Exception as error:
            self.store.failed(self.id, f"{type(error).__name__}: {error}")
            raise

    def snapshot(self) -> None:
        self.store.run(self._snapshot())

    async def _snapshot(self) -> None:
        table_log = await self.opened()
        await table_log.snapshot()

    def close(self) -> None:
        pass


def _with_marks(seat: Seat, marks: list[int]) -> Seat:
    import msgspec

    return msgspec.structs.replace(seat, bot_played=list(marks))


class ClusterStore:
    """Where a node's tables save: the cluster's log stream, one subject per table."""

    def __init__(
        self,
        conn: ClusterConnection,
        acquire: Callable[[str], Awaitable[Lease | None]],
        root: str | Path,
        on_failed: FailedHandler,
        *,
        durable: bool = True,
    ) -> None:
        self.conn = conn
        self.acquire = acquire
        self.root = Path(root)
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.on_failed = on_failed
        self.durable = durable
        self.loop = asyncio.get_running_loop()

    async def lease_for(self, table_id: str) -> Lease:
        lease = await self.acquire(table_id)
        if lease is None:
            raise SaveError(f"table {table_id}: another node holds its lease")
        return lease

    def run(self, coro: Any) -> Any:
        """Run ``coro`` on the loop from the actor's worker thread and wait for it."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def failed(self, table_id: str, reason: str) -> None:
        self.loop.call_soon_threadsafe(self.on_failed, table_id, reason)

    # --- the file store's interface, as the actor and the lobby use it -------------------------------------
    def create(
        self,
        table_id: str,
        config: GameConfig,
        seats: list[Seat],
        state: GameState,
        now: datetime | None = None,
        *,
        private: bool = False,
    ) -> ClusterSave:
        if state.seq != 0:
            raise ValueError("create() takes a new game; use adopt() for a game in progress")
        save = ClusterSave(self, new_save(table_id, config, seats, state, created=now or utcnow(), private=private))
        self.run(save.opened())
        return save

    def adopt(self, save: Save, table_id: str | None = None, now: datetime | None = None) -> ClusterSave:
        if save.finished:
            raise SaveError("the game in this save is over: it can be watched as a replay, not continued")
        save.id = table_id or save.id
        save.updated = now or utcnow()
        table = ClusterSave(self, save)
        table.start()
        return table

    def taken_over(self, table_log: TableLog) -> ClusterSave:
        table = ClusterSave(self, table_log.save, table_log)
        table.recovery = table_log.recovery
        return table

    def export(self, table: ClusterSave, path: str | Path) -> None:
        atomic_write(Path(path), dumps(table.save), self.durable)

    def set_aside(self, table: ClusterSave) -> Path:
        """A game the host closed: a copy in ``<root>/closed/`` (its log is removed by the node)."""
        folder = self.root / "closed"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = folder / f"{table.id}.save"
        atomic_write(target, dumps(table.save), self.durable)
        return target

    def keep_finished(self, save: Save) -> None:
        folder = self.root / FINISHED
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            atomic_write(folder / f"{save.id}.save", dumps(save), self.durable)
        except OSError as error:
            log_event(log, logging.WARNING, "cannot keep the finished game", table=save.id, error=str(error))
