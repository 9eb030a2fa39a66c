"""The outbox: finished games on their way to the players database. A slow or unreachable database
delays the record, never a move.

    outbox = GameOutbox(db, Path("saves/db-outbox"))
    await outbox.start()          # records left by an earlier run are sent first
    outbox.submit(record)         # returns at once; the game goes on
    await outbox.close()          # what is not written yet stays in the folder

`submit` queues the record in memory and writes it to the folder (one file per game,
on a thread: the loop waits for neither the disk nor the database). One task sends the
records in order; while the database fails (unreachable, locked, timing out) it tries
again with a growing pause and tells the host once per outage (a warning naming how
many games wait), then once when it is back (how many were written). A record the
database refuses for good (not an outage) is logged as an error and its file moved to
`failed/` to be looked at; the others go on. Recording is idempotent (a game's uid), so a
record sent twice after a lost reply is written once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from pathlib import Path

from sqlalchemy.exc import DBAPIError, OperationalError

from server.storage.folder_sweep import RECORD_SUFFIX as SUFFIX  # the start-up sweep reads it too
from server.storage.savelog import atomic_write
from server.task_stop import stop_task

from .aio import AsyncPlayerStore
from .game_record import GameRecord, decode_record, encode_record

log = logging.getLogger("citadels.server.players.outbox")

RETRY_FIRST_S = 0.5
RETRY_MAX_S = 30.0


def is_outage(error: BaseException) -> bool:
    """An error that says the database is away or busy (try again), not that the record is bad."""
    if isinstance(error, OperationalError | TimeoutError | ConnectionError):
        return True
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


def _file_name(uid: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in uid)[:150] + SUFFIX


class GameOutbox:
    def __init__(
        self,
        db: AsyncPlayerStore,
        folder: Path | None = None,
        *,
        retry_first: float = RETRY_FIRST_S,
        retry_max: float = RETRY_MAX_S,
    ) -> None:
        self.db = db
        self.folder = folder
        self.retry_first = retry_first
        self.retry_max = retry_max
        self._queue: deque[tuple[GameRecord, asyncio.Future | None]] = deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task | None = None
        self.down = False  # in an outage: the last try failed
        self.written = 0
        self.failed = 0

    @property
    def pending(self) -> int:
        return len(self._queue)

    async def start(self) -> None:
        if self.folder is not None:
            for record in await asyncio.to_thread(self._load_folder):
                self._queue.append((record, None))
            if self._queue:
                log.info("players database outbox: %d finished game(s) from an earlier run to record", self.pending)
        self._task = asyncio.create_task(self._drain(), name="players-outbox")
        self._kick()

    def submit(self, record: GameRecord) -> None:
        """Queue a finished game for the database; returns at once."""
        saved = None
        if self.folder is not None:
            saved = asyncio.ensure_future(asyncio.to_thread(self._save_file, record))
        self._queue.append((record, saved))
        self._kick()

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued game is written (True) or the timeout passes (False)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        """Stop sending; files of unwritten games stay for the next start."""
        if self._task is not None:
            await stop_task(self._task)
            self._task = None
        pending_files = [f for _, f in self._queue if f is not None]
        if pending_files:
            await asyncio.gather(*pending_files, return_exceptions=True)
        if self._queue:
            where = f" in {self.folder}" if self.folder is not None else " (no outbox folder: lost)"
            log.warning("players database outbox: %d finished game(s) not recorded yet%s", self.pending, where)

    # -- the sending task ---------------------------------------------------------------------------
    def _kick(self) -> None:
        if self._queue:
            self._idle.clear()
        self._wake.set()

    async def _drain(self) -> None:
        pause = self.retry_first
        written_in_outage = 0
        while True:
            if not self._queue:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            record, saved = self._queue[0]
            try:
                result = await self.db.record_game(record)
            except Exception as e:
                if is_outage(e):
                    if not self.down:
                        self.down = True
                        log.warning(
                            "players database unavailable (%s): %d finished game(s) wait in the outbox; retrying",
                            one_line(e),
                            self.pending,
                        )
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, self.retry_max)
                    continue
                self._queue.popleft()
                self.failed += 1
                log.error("players database refused game %s for good (%s): kept in failed/", record.uid, one_line(e))
                await self._settle(record, saved, failed=True)
                continue
            self._queue.popleft()
            self.written += 1
            pause = self.retry_first
            log.info(
                "finished game recorded: game %d%s (%s)",
                result.game_id,
                "" if result.new else ", already there",
                "rated" if result.rated else f"unrated: {result.unrated_reason}",
            )
            if self.down:
                written_in_outage += 1
                if not self._queue:
                    log.info("players database back: %d waiting game(s) recorded", written_in_outage)
                    self.down = False
                    written_in_outage = 0
            await self._settle(record, saved, failed=False)

    async def _settle(self, record: GameRecord, saved: asyncio.Future | None, failed: bool) -> None:
        if self.folder is None:
            return
        if saved is not None:
            with contextlib.suppress(Exception):
                await saved
        try:
            await asyncio.to_thread(self._finish_file, record.uid, failed)
        except OSError as e:
            log.warning("players database outbox: cannot tidy %s: %s", record.uid, e)

    # -- files (on threads) -------------------------------------------------------------------------
    def _save_file(self, record: GameRecord) -> None:
        assert self.folder is not None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write(self.folder / _file_name(record.uid), encode_record(record), durable=True)
        except OSError as e:
            log.warning("players database outbox: cannot keep game %s on disk (%s); it waits in memory", record.uid, e)

    def _finish_file(self, uid: str, failed: bool) -> None:
        assert self.folder is not None
        path = self.folder / _file_name(uid)
        if not path.exists():
            return
        if failed:
            (self.folder / "failed").mkdir(exist_ok=True)
            os.replace(path, self.folder / "failed" / path.name)
        else:
            path.unlink()

    def _load_folder(self) -> list[GameRecord]:
        assert self.folder is not None
        if not self.folder.is_dir():
            return []
        records = []
        for path in sorted(self.folder.glob("*" + SUFFIX), key=lambda p: p.stat().st_mtime):
            try:
                records.append(decode_record(path.read_bytes()))
            except Exception as e:
                log.error("players database outbox: %s is not a game record (%s): moved to failed/", path.name, e)
                (self.folder / "failed").mkdir(exist_ok=True)
                os.replace(path, self.folder / "failed" / path.name)
        return records


def one_line(e: BaseException) -> str:
    """The driver's own message: SQLAlchemy's adds the statement and its parameters (the record)."""
    inner = e.orig if isinstance(e, DBAPIError) and e.orig is not None else e
    text = " ".join(str(inner).split()) or type(inner).__name__
    return text[:200]
