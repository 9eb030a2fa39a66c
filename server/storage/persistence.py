"""Autosave: every table on disk after every applied command, before anyone sees its effects.

The choice: an append-only command log per table, with checksummed records and a
periodic snapshot, rather than rewriting the whole save after each command.

- Per command, the log costs one small ``write`` (~40 bytes) and one
  ``fdatasync``; an atomic replace would write the whole save (10-30 KB, growing
  with the game: quadratic in total), ``fsync`` it, rename it and ``fsync`` the
  folder: about 2-3 times the latency on this machine, and more as a game gets
  long. ``benchmarks/autosave.py`` measures both.
- A crash at any instant leaves a readable save: the snapshot (``<id>.save``)
  is only ever replaced atomically (temporary file, fsync, rename, fsync of the
  folder), and a torn or corrupt log record is detected by its length and CRC-32.
  A torn last record was never acknowledged (``record`` returns only after its
  record is on disk) and is dropped. A damaged one is repaired when one flipped
  bit or byte explains its checksum, else skipped, and every later record that
  holds and applies is kept (server/storage/recovery.py); the damaged log is
  kept beside the save as ``<id>.log.damaged`` and the loss reported.
- Every recovery replays and checks: the snapshot against its own log
  (``engine.savefile.loads``), then each log record through ``engine.apply``
  (validated), so a damaged file can never put an impossible state in play.

Files in the saves folder::

    <id>.save              the latest snapshot: a full save (engine/savefile.py format)
    <id>.log               commands after that snapshot: header, then records
    <id>.log.damaged       a log that recovery found damaged, kept as evidence
    finished/<id>.save     a finished game, kept as a record (no log)
    closed/<id>.save       a game the host closed (`citadels admin close`): not resumed
    .<name>.tmp            a temporary file being written; removed on start

Log file: ``b"CTDLLOG\\0"``, u16 version, u16 zero, then records; each record is
``u32 length | u32 CRC-32 of payload | payload`` (little-endian), payload a
MessagePack array: the first is ``LogHead(id, base)`` (``base`` = the snapshot's
command count when the log was started), then one ``LogEntry(seq, command, time, bot)``
per applied command, ``seq`` = the command count after it, ``bot`` whether a bot
chose it in a person's stead (kept in the save as the seat's ``bot_played``). Records whose ``seq``
the snapshot already holds are skipped (a crash between writing a snapshot and
starting its new log leaves such a log).

Using it from the table actor (one table, one task; not thread-safe)::

    store = SaveStore(config.saves_dir); store.lock()       # once, at server start
    tables, problems = store.resume_all()                   # unfinished games, replayed and checked
    table = store.create(table_id, cfg, seats, state)       # a new game: state from engine.new_game(cfg)
    ...
    events = engine.apply(state, cmd)                       # for each command, then ONE line:
    if notice := await table.arecord(cmd, state): announce(notice)  # on disk before any view goes out
                                                            # (or table.record(...): same, blocking the loop)
    ...
    store.export(table, path)                               # the creator saves to a named file
    table = store.adopt(savefile_from_lobby, new_id)        # a lobby entry loads a save

``record`` never raises for I/O: when the folder is unwritable or full it returns
a `SaveNotice` (``ok=False``; ``message`` for the players, ``detail`` for the
log) and the game goes on in memory; every following ``record`` tries again with
a full snapshot, and the first that succeeds returns a notice with ``ok=True``.
Between transitions it returns None; ``table.problem`` holds the current failure.
A finished game (``state.phase == "over"``) is moved to ``finished/`` by the
``record`` that ends it.

``durable=False`` skips the fsyncs: the saves then survive a crash of the process
(``kill -9``) but not of the machine.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from engine.savefile import MAX_SAVE_BYTES, Save, SaveError, Seat, dumps, new_save, utcnow
from engine.setup import GameConfig
from engine.state import GameState

from .recovery import Recovery, quarantine, replay_entries
from .savelog import (
    FINISHED,
    SNAPSHOT_EVERY,
    TABLE_ID,
    LogScan,
    atomic_write,
    fsync_dir,
    oneline,
    read_limited,
    read_save_file,
    scan_log,
)
from .table_save import TableSave

CLOSED = "closed"


class PersistenceError(Exception):
    """A store operation that cannot be done (unreadable folder, unknown table); one line."""


class SaveStore:
    """A saves folder: active tables (`<id>.save` + `<id>.log`) and finished games (`finished/`)."""

    def __init__(self, root: str | Path, *, snapshot_every: int = SNAPSHOT_EVERY, durable: bool = True) -> None:
        self.root = Path(root)
        self.snapshot_every = max(1, snapshot_every)
        self.durable = durable
        self._lock_fd: int | None = None  # the open .lock file while this process holds the folder

    def lock(self) -> None:
        """Claim the folder for this process (call once at server start): a second server on the same
        folder would interleave its writes. PersistenceError if another process holds it."""
        import fcntl

        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self.root / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise PersistenceError(f"cannot use the saves folder {self.root}: {e.strerror or oneline(e)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise PersistenceError(f"the saves folder {self.root} is in use by another citadels server") from None
        self._lock_fd = fd

    def unlock(self) -> None:
        fd = self._lock_fd
        if fd is not None:
            os.close(fd)
            self._lock_fd = None

    # -- paths ---------------------------------------------------------------------------------------------
    def save_path(self, table_id: str) -> Path:
        return self.root / f"{table_id}.save"

    def log_path(self, table_id: str) -> Path:
        return self.root / f"{table_id}.log"

    def finished_path(self, table_id: str) -> Path:
        return self.root / FINISHED / f"{table_id}.save"

    def _ensure_dirs(self) -> None:
        (self.root / FINISHED).mkdir(mode=0o700, parents=True, exist_ok=True)

    @staticmethod
    def check_id(table_id: str) -> str:
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            raise ValueError(
                f"a table id is 1-64 letters, digits, '-' or '_' (starting with a letter or digit), not {table_id!r}"
            )
        return table_id

    # -- new tables ----------------------------------------------------------------------------------------
    def create(
        self,
        table_id: str,
        config: GameConfig,
        seats: list[Seat],
        state: GameState,
        now: datetime | None = None,
        *,
        private: bool = False,
    ) -> TableSave:
        """A new table's saving, for `state` = engine.new_game(config)[0] (no command applied yet).

        Writes the first snapshot; if that fails the table is returned all the same, with `table.problem`
        set (show it), and the game goes on in memory.
        """
        self.check_id(table_id)
        if state.seq != 0:
            raise ValueError("create() takes a new game; use adopt() for a game in progress")
        if self.save_path(table_id).exists() or self.finished_path(table_id).exists():
            raise PersistenceError(f"a saved game called {table_id!r} already exists")
        now = now or utcnow()
        table = TableSave(self, new_save(table_id, config, seats, state, created=now, private=private))
        table.snapshot()
        return table

    def adopt(self, save: Save, table_id: str | None = None, now: datetime | None = None) -> TableSave:
        """Start a table from a loaded save (a lobby entry loading a file; `citadels serve --load FILE`)."""
        if save.finished:
            raise SaveError("the game in this save is over: it can be watched as a replay, not continued")
        table_id = self.check_id(table_id or save.id)
        if self.save_path(table_id).exists() or self.finished_path(table_id).exists():
            raise PersistenceError(f"a saved game called {table_id!r} already exists")
        save.id = table_id
        save.updated = now or utcnow()
        table = TableSave(self, save)
        table.snapshot()
        return table

    def export(self, table: TableSave, path: str | Path) -> None:
        """Save a table to a named file (atomic); OSError propagates for the caller to report."""
        atomic_write(Path(path), dumps(table.save), self.durable)

    def set_aside(self, table: TableSave) -> Path:
        """A game the host closed: its snapshot moved to `closed/` so that it is not resumed at the next
        start (`citadels serve --load closed/<id>.save` brings it back). OSError propagates."""
        table.close()
        folder = self.root / CLOSED
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = folder / f"{table.id}.save"
        atomic_write(target, dumps(table.save), self.durable)
        for p in (self.log_path(table.id), self.save_path(table.id)):
            p.unlink(missing_ok=True)
        if self.durable:
            fsync_dir(self.root)
        table.finished = True  # nothing more is recorded for it
        return target

    # -- listing and recovery ------------------------------------------------------------------------------
    def _names(self, folder: Path) -> list[str]:
        try:
            names = sorted(
                p.name[:-5] for p in folder.iterdir() if p.name.endswith(".save") and not p.name.startswith(".")
            )
        except FileNotFoundError:
            return []
        except OSError as e:
            raise PersistenceError(f"cannot read the saves folder {folder}: {e.strerror or oneline(e)}") from None
        return [n for n in names if TABLE_ID.match(n)]

    def unfinished(self) -> list[str]:
        """Ids of the games to resume (a finish interrupted by a crash counts as finished)."""
        done = set(self.finished())
        return [n for n in self._names(self.root) if n not in done]

    def finished(self) -> list[str]:
        return self._names(self.root / FINISHED)

    def read_finished(self, table_id: str) -> Save:
        return read_save_file(self.finished_path(self.check_id(table_id)))

    def cleanup(self) -> None:
        """Remove temporary files and the leftovers of a finish interrupted by a crash (call once at start)."""
        for folder in (self.root, self.root / FINISHED):
            try:
                entries = list(folder.iterdir())
            except OSError:
                continue
            for p in entries:
                if p.name.startswith(".") and p.name.endswith(".tmp"):
                    p.unlink(missing_ok=True)
        for n in self.finished():
            self.save_path(n).unlink(missing_ok=True)
            self.log_path(n).unlink(missing_ok=True)

    def open(self, table_id: str, *, check: bool = True) -> TableSave:
        """Reopen an unfinished table: the snapshot, checked by replay, then the good records of its log.

        Raises SaveError (the snapshot is unusable: the files are left as they are) or PersistenceError.
        On success the recovered game is written back as a fresh snapshot and log (if that fails,
        `table.problem` says so and the game goes on in memory).
        """
        self.check_id(table_id)
        path = self.save_path(table_id)
        if not path.exists():
            raise PersistenceError(f"no unfinished game called {table_id!r} in {self.root}")
        save = read_save_file(path, check=check)  # check=False: the snapshot as saved, without replaying its log
        if save.id != table_id:
            raise SaveError(f"{path}: the save inside is table {save.id!r}, not {table_id!r}")
        snap = len(save.log)
        log_path = self.log_path(table_id)
        try:
            log_data = read_limited(log_path, MAX_SAVE_BYTES) if log_path.exists() else b""
        except SaveError as e:
            scan, log_data = LogScan(None, fatal=str(e)), b""
        else:
            scan = scan_log(log_data, table_id)
        done = replay_entries(save, scan)
        save.finished = save.state.phase == "over"
        damage = ([scan.fatal] if scan.fatal and log_data else []) + scan.damaged + scan.repaired
        if done.stop and done.lost:
            damage.append(done.stop)
        kept = None
        if damage:  # the evidence stays: a copy of the damaged log beside the save, before it is replaced
            try:
                kept = str(quarantine(log_path, log_data))
            except OSError as e:
                damage.append(f"cannot keep a copy of the damaged log: {e.strerror or oneline(e)}")
        parts: list[str | None] = [
            scan.fatal,
            *([*scan.damaged, done.stop] if done.lost or done.stop else []),
            scan.torn,
        ]
        dropped = "; ".join(p for p in parts if p) or None  # why part of the log was not used
        recovery = Recovery(
            table_id,
            snap,
            done.recovered,
            dropped=dropped,
            damage=damage,
            repaired=len(scan.repaired),
            refilled=done.refilled,
            uncertain=done.uncertain,
            lost=done.lost,
            quarantined=kept,
        )
        table = TableSave(self, save, recovery)
        table._persist(None)  # a fresh snapshot and log (or finished/ if the log ended the game)
        return table

    def resume_all(self) -> tuple[list[TableSave], list[str]]:
        """Reopen every unfinished game: (tables, one line per game that could not be reopened).

        A game whose last commands finish it is moved to finished/ and not returned.
        """
        self.cleanup()
        tables: list[TableSave] = []
        problems: list[str] = []
        for n in self.unfinished():
            try:
                t = self.open(n)
            except (SaveError, PersistenceError) as e:
                problems.append(str(e))
                continue
            if not t.finished:
                tables.append(t)
        return tables, problems
