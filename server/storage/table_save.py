"""One table's saving: its live save, its command log and snapshots, and the notices when saving
fails or works again (the format and the folder: server/storage/persistence.py, savelog.py)."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

import msgspec

from engine.apply import apply
from engine.commands import Command
from engine.savefile import Save, Seat, dumps, owners_of, utcnow
from engine.state import GameState

from .recovery import Recovery
from .savelog import (
    LOG_HEADER,
    LOG_MAGIC,
    LOG_VERSION,
    LogEntry,
    LogHead,
    atomic_write,
    encode_record,
    fsync_dir,
    oneline,
    write_all,
)

if TYPE_CHECKING:
    from .persistence import SaveStore


@dataclass(frozen=True)
class SaveNotice:
    """A change in a table's saving: failing (ok=False) or working again (ok=True)."""

    table: str
    ok: bool
    message: str  # in English (the host's tools, tests)
    detail: str  # for the server log
    key: str = "save_working"  # what the players are told: notice.<key> of their catalogue, with `fields`
    fields: dict = field(default_factory=dict)


class TableSave:
    """The saving of one table. Holds the live `Save` (config, seats, log; `save.state` is the game)."""

    def __init__(self, store: SaveStore, save: Save, recovery: Recovery | None = None) -> None:
        self.store = store
        self.save = save
        if save.owners is None:  # a save from before owners were recorded: its players now own it
            save.owners = owners_of(save.seats)
        self.recovery = recovery
        self.problem: SaveNotice | None = None
        self._fd: int | None = None
        self._dirty = True  # the next write must be a full snapshot
        self._since = 0  # log records since the last snapshot
        self.finished = False

    @property
    def id(self) -> str:
        return self.save.id

    @property
    def state(self) -> GameState:
        return self.save.state

    @property
    def healthy(self) -> bool:
        return self.problem is None

    # -- the per-command call ------------------------------------------------------------------------------
    def record(
        self, cmd: Command, state: GameState | None = None, now: datetime | None = None, stand_in: bool = False
    ) -> SaveNotice | None:
        """Persist `cmd`, just applied to `state` (the live game; default: the one already held).
        `stand_in`: a bot chose it in the place of the seat's person (kept in the seat's `bot_played`).

        Returns only after the command is on disk (or the failure is known). Returns a SaveNotice when
        saving starts failing or works again, else None. Never raises for I/O.
        """
        self._take(cmd, state, now, stand_in)
        return self._persist(cmd)

    async def arecord(
        self, cmd: Command, state: GameState | None = None, now: datetime | None = None, stand_in: bool = False
    ) -> SaveNotice | None:
        """`record` with the disk work (write + fdatasync) in a worker thread, so that a slow disk
        stalls only this table (which awaits it before showing anything), not the server's event loop.
        Nothing may change the game while this is awaited (the actor applies one command at a time)."""
        import asyncio

        self._take(cmd, state, now, stand_in)
        return await asyncio.to_thread(self._persist, cmd)

    def _take(self, cmd: Command, state: GameState | None, now: datetime | None, stand_in: bool = False) -> None:
        if self.finished:
            raise ValueError(f"table {self.id}: the game is over and saved; nothing more to record")
        if state is not None:
            self.save.state = state
        self.save.log.append(cmd)
        if self.save.state.seq != len(self.save.log):
            self.save.log.pop()
            raise ValueError(
                f"table {self.id}: the state is after {self.save.state.seq} commands, the log would have "
                f"{len(self.save.log) + 1}: record each applied command exactly once"
            )
        if stand_in:
            self.save.seats[cmd.seat].bot_played.append(len(self.save.log))
        self.save.updated = now or utcnow()

    def apply(self, cmd: Command, now: datetime | None = None) -> tuple[list, SaveNotice | None]:
        """engine.apply then record: (events, notice). IllegalCommand propagates, nothing recorded."""
        events = apply(self.save.state, cmd)
        return events, self.record(cmd, now=now)

    def set_seats(self, seats: list[Seat], now: datetime | None = None) -> SaveNotice | None:
        """Change who sits where (a player replaced by a bot, a key bound to a seat): saved at once.
        The marks of the moves bots made for each seat (`bot_played`) are the save's and stay."""
        if [s.name for s in seats] != [s.name for s in self.save.seats]:
            raise ValueError("seat names are the game's player names and cannot change")
        self.save.seats = [
            msgspec.structs.replace(new, bot_played=list(old.bot_played)) for new, old in zip(seats, self.save.seats)
        ]
        self.save.owners = owners_of(seats, self.save.owners)  # a player replaced by a bot stays an owner
        self.save.updated = now or utcnow()
        self._dirty = True
        return self._persist(None)

    def snapshot(self) -> SaveNotice | None:
        """Write a full snapshot now (and start a new log)."""
        self._dirty = True
        return self._persist(None)

    def close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:  # pragma: no cover
                pass
            self._fd = None

    # -- internals -----------------------------------------------------------------------------------------
    def _persist(self, cmd: Command | None) -> SaveNotice | None:
        try:
            if self.save.state.phase == "over":
                self._finish()
            elif self._dirty or cmd is None or self._since >= self.store.snapshot_every:
                self._snapshot()
            else:
                self._append(cmd)
        except OSError as e:
            self.close()
            self._dirty = True
            if self.problem is None:
                what = "full" if e.errno in (errno.ENOSPC, errno.EDQUOT) else "not writable"
                self.problem = SaveNotice(
                    self.id,
                    False,
                    f"The game cannot be saved (the saves folder is {what}); it goes on, but a server crash "
                    "now would lose the moves since the last save.",
                    f"autosave failed for table {self.id}: {e.strerror or oneline(e)} "
                    f"({getattr(e, 'filename', None) or self.store.root}); game continues in memory "
                    f"after command {len(self.save.log)}",
                    "save_failing_full" if what == "full" else "save_failing_locked",
                )
                return self.problem
            return None
        if self.problem is not None:
            self.problem = None
            return SaveNotice(
                self.id,
                True,
                "The game is being saved again.",
                f"autosave works again for table {self.id} at command {len(self.save.log)}",
            )
        return None

    def _append(self, cmd: Command) -> None:
        n = len(self.save.log)
        rec = encode_record(LogEntry(n, cmd, self.save.updated, n in self.save.seats[cmd.seat].bot_played[-1:]))
        fd = self._fd
        assert fd is not None  # a log is open after the snapshot that _persist writes first
        write_all(fd, rec)
        if self.store.durable:
            os.fdatasync(fd)
        self._since += 1

    def _snapshot(self) -> None:
        store = self.store
        store._ensure_dirs()
        self.close()
        atomic_write(store.save_path(self.id), dumps(self.save), store.durable)
        # The snapshot is durable before the old log is replaced: a crash in between keeps the
        # old log, whose records the snapshot already holds (they are skipped).
        head = LOG_HEADER.pack(LOG_MAGIC, LOG_VERSION, 0) + encode_record(LogHead(self.id, len(self.save.log)))
        log_path = store.log_path(self.id)
        atomic_write(log_path, head, store.durable)
        self._fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
        self._since = 0
        self._dirty = False

    def _finish(self) -> None:
        store = self.store
        store._ensure_dirs()
        self.close()
        self.save.finished = True
        atomic_write(store.finished_path(self.id), dumps(self.save), store.durable)
        for p in (store.log_path(self.id), store.save_path(self.id)):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
        if store.durable:
            fsync_dir(store.root)
        self.finished = True
        self._dirty = False
