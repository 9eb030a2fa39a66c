"""A table's command log as a JetStream stream: the cluster's save.

One stream (``<ns>_log``) holds every table's log, one subject per table
(``<ns>.log.<table>``). A log is a snapshot record then command records::

    LogSnapshot(save, node, lease, t)   a full save (engine/savefile.py bytes) after `len(save.log)` commands
    LogEntry(seq, cmd, t)               one applied command, seq = the command count after it

Replay starts at the *last* snapshot of the subject and applies the entries after it
(validated by the engine, contiguous): what the owner acknowledged is exactly what a new
owner finds. The owner writes a snapshot every ``snapshot_every`` commands, when seats change
and when the game ends, then purges the records before it (an optimisation only: a reader
ignores what precedes the last snapshot).

Fencing: every write names the subject's last sequence this owner knows
(``Nats-Expected-Last-Subject-Sequence``); a new owner's first act is a snapshot written that
way after reading everything, so from then on the old owner's appends are refused and it
gets `Fenced`. A retried append (its acknowledgement lost) is recognised by its message id.
A log that cannot be read whole (an undecodable record, an illegal command, a gap) is refused
with `LogError` and left untouched: a node never truncates what another one acknowledged.

Use from a table actor (one task per table)::

    lease = await leases.acquire(table_id)
    log = await TableLog.create(conn, save, lease)       # a new table (or an adopted save)
    log = await TableLog.open(conn, table_id, lease)     # take over: replay, then fence
    events = engine.apply(log.state, cmd)
    await log.record(cmd)                                # in the stream before anyone sees events
    log.export(path)                                     # the msgspec save file, as the file store's
    # Fenced from record/snapshot: another node owns the table now; this node drops it (its
    # in-memory game may hold the refused command: it was never acknowledged nor shown).
    save = await TableLog.read(conn, table_id)           # a copy, for anyone (no lease needed)
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import NoReturn

import msgspec
import nats.errors
import nats.js.errors as js_errors
from msgspec import Struct
from nats.js.api import DeliverPolicy

from engine.apply import apply
from engine.commands import Command
from engine.errors import IllegalCommand
from engine.savefile import Save, SaveError, Seat, Timestamp, dumps, loads, utcnow
from engine.state import GameState
from server.cluster.connection import ClusterConnection
from server.cluster.kvutil import WRONG_LAST_SEQUENCE
from server.cluster.leases import Lease
from server.storage.savelog import LogEntry, atomic_write

EXPECTED_LAST = "Nats-Expected-Last-Subject-Sequence"
MSG_ID = "Nats-Msg-Id"
READ_ATTEMPTS = 3
FENCE_ATTEMPTS = 5


class LogSnapshot(Struct, array_like=True, tag="snap"):
    save: bytes  # engine.savefile.dumps(save)
    node: str  # who wrote it, under which lease revision (the log's record of its owners)
    lease: int
    t: Timestamp


_record = msgspec.msgpack.Decoder(LogSnapshot | LogEntry)
_encode = msgspec.msgpack.Encoder().encode


class LogError(Exception):
    """The log cannot be used as it is (missing, unreadable, from other rules); one line."""


class TableExists(LogError):
    """A new table's id already has a log."""


class Fenced(Exception):
    """This node may no longer write the table's log: another owner did, or the lease lapsed."""


@dataclass(frozen=True)
class Recovery:
    """What opening a log found."""

    table: str
    snapshot_commands: int  # commands in the last snapshot
    log_commands: int  # commands replayed after it
    records: int  # records read (older ones before the last snapshot included)


class TableLog:
    """The log of one table owned by this node. Holds the live `Save` (``save.state`` is the game)."""

    def __init__(self, conn: ClusterConnection, save: Save, lease: Lease, last_seq: int) -> None:
        self.conn = conn
        self.save = save
        self.lease = lease
        self.last_seq = last_seq  # the subject's last stream sequence, as far as we know
        self.since_snapshot = 0
        self.snapshot_every = conn.config.snapshot_every
        self.fenced: str | None = None
        self.recovery: Recovery | None = None
        self.finished = save.finished

    @property
    def id(self) -> str:
        return self.save.id

    @property
    def state(self) -> GameState:
        return self.save.state

    @property
    def subject(self) -> str:
        return self.conn.names.log_subject(self.save.id)

    # -- starting ------------------------------------------------------------------------------------
    @classmethod
    async def create(cls, conn: ClusterConnection, save: Save, lease: Lease) -> TableLog:
        """A new table's log, first record a snapshot of ``save`` (a new game, or a loaded one)."""
        if save.finished:
            raise LogError("the game in this save is over: it can be watched as a replay, not continued")
        _check_lease(lease, save.id)
        log = cls(conn, save, lease, last_seq=0)
        try:
            await log._write_snapshot()
        except Fenced:
            raise TableExists(f"table {save.id!r} already has a log") from None
        return log

    @classmethod
    async def open(cls, conn: ClusterConnection, table_id: str, lease: Lease, *, check: bool = True) -> TableLog:
        """Take the table over: read its log, replay it, then fence it with a snapshot of our own.

        If the old owner appends between our read and our fence, the fence is refused: read again
        (its command was acknowledged: it must be in the game) and retry."""
        _check_lease(lease, table_id)
        for _ in range(FENCE_ATTEMPTS):
            save, last_seq, recovery = await _replay(conn, table_id, check=check)
            log = cls(conn, save, lease, last_seq)
            log.recovery = recovery
            try:
                await log._write_snapshot()
            except Fenced:
                if not lease.valid():
                    raise
                continue
            return log
        raise LogError(f"table {table_id!r}: its log kept changing while being taken over")

    # -- writing -------------------------------------------------------------------------------------
    async def record(
        self, cmd: Command, state: GameState | None = None, now: datetime | None = None, stand_in: bool = False
    ) -> int:
        """Append ``cmd``, just applied to ``state`` (default: the game held); returns once the stream
        has it. `Fenced` when this node may no longer write (nothing it shows may then go out).
        ``stand_in``: a bot chose it in the place of the seat's person (the seat's ``bot_played``)."""
        if self.finished:
            raise ValueError(f"table {self.id}: the game is over and saved; nothing more to record")
        if state is not None:
            self.save.state = state
        if self.save.state.seq != len(self.save.log) + 1:
            raise ValueError(
                f"table {self.id}: the state is after {self.save.state.seq} commands, the log would have "
                f"{len(self.save.log) + 1}: record each applied command exactly once"
            )
        self.save.log.append(cmd)
        self.save.updated = now or utcnow()
        seq = len(self.save.log)
        if stand_in:
            self.save.seats[cmd.seat].bot_played.append(seq)
        await self._publish(_encode(LogEntry(seq, cmd, self.save.updated, stand_in)), f"cmd-{seq}")
        self.since_snapshot += 1
        if self.save.state.phase == "over":
            self.save.finished = True
            await self._write_snapshot()
            self.finished = True
        elif self.since_snapshot >= self.snapshot_every:
            await self._write_snapshot()
        return self.last_seq

    async def set_seats(self, seats: list[Seat], now: datetime | None = None) -> None:
        """Change who sits where (a bot takes over, a key bound to a seat): a snapshot at once."""
        if [s.name for s in seats] != [s.name for s in self.save.seats]:
            raise ValueError("seat names are the game's player names and cannot change")
        self.save.seats = list(seats)
        self.save.updated = now or utcnow()
        await self._write_snapshot()

    async def snapshot(self) -> None:
        await self._write_snapshot()

    async def _write_snapshot(self) -> None:
        record = LogSnapshot(dumps(self.save), self.conn.node, self.lease.revision, utcnow())
        await self._publish(_encode(record), f"snap-{len(self.save.log)}-{self.last_seq}")
        self.since_snapshot = 0
        # What precedes the snapshot is no longer needed (readers skip it anyway).
        if self.last_seq > 1:
            try:
                await self.conn.js.purge_stream(self.conn.names.log_stream, subject=self.subject, seq=self.last_seq)
            except (TimeoutError, nats.errors.Error, js_errors.Error):
                pass  # kept until the next snapshot's purge

    async def _publish(self, payload: bytes, what: str) -> None:
        """Publish on condition that the subject's last sequence is still ours; retry a lost ack."""
        if self.fenced is not None:
            raise Fenced(self.fenced)
        msg_id = f"{self.id}:{self.lease.revision}:{what}:{secrets.token_hex(6)}"  # the same for every retry
        headers = {EXPECTED_LAST: str(self.last_seq), MSG_ID: msg_id}
        timeout = self.conn.config.request_timeout_seconds
        while True:
            if not self.lease.valid():
                self._fence(f"table {self.id}: the lease was lost ({self.lease.lost or 'expired'})")
            try:
                ack = await self.conn.js.publish(self.subject, payload, timeout=timeout, headers=headers)
            except js_errors.APIError as error:
                if error.err_code in WRONG_LAST_SEQUENCE:
                    mine = await self._last_is(msg_id)
                    if mine is None:
                        self._fence(f"table {self.id}: another node wrote its log ({error.description})")
                    self.last_seq = mine
                    return
                if not isinstance(error, js_errors.ServiceUnavailableError):
                    raise
                await asyncio.sleep(0.05)  # JetStream not ready (a restart): retry while the lease lasts
                continue
            except nats.errors.MaxPayloadError:
                raise LogError(
                    f"table {self.id}: a log record of {len(payload)} bytes is over NATS's max_payload"
                ) from None
            except (TimeoutError, nats.errors.Error):
                # No ack (timeout, reconnecting, no responders): did it land? The retry, with the
                # same id and the same condition, will tell.
                await asyncio.sleep(0.05)
                continue
            self.last_seq = ack.seq
            return

    async def _last_is(self, msg_id: str) -> int | None:
        """The subject's last sequence if its last record is ours (``msg_id``), else None."""
        try:
            last = await self.conn.js.get_msg(self.conn.names.log_stream, subject=self.subject)
        except js_errors.NotFoundError:
            return None
        return last.seq if (last.headers or {}).get(MSG_ID) == msg_id else None

    def _fence(self, why: str) -> NoReturn:
        self.fenced = why
        raise Fenced(why)

    # -- reading and exporting -----------------------------------------------------------------------
    def export(self, path: str | Path, durable: bool = True) -> None:
        """The game as a save file (engine/savefile.py), as the file store's export writes it."""
        atomic_write(Path(path), dumps(self.save), durable)

    @staticmethod
    async def read(conn: ClusterConnection, table_id: str, *, check: bool = True) -> Save:
        """The table's game as its log has it (a copy; no lease needed)."""
        save, _last, _recovery = await _replay(conn, table_id, check=check)
        return save

    @staticmethod
    async def exists(conn: ClusterConnection, table_id: str) -> bool:
        try:
            await conn.js.get_msg(conn.names.log_stream, subject=conn.names.log_subject(table_id))
        except js_errors.NotFoundError:
            return False
        return True

    @staticmethod
    async def remove(conn: ClusterConnection, table_id: str) -> None:
        """Forget the table's log (its game is over and recorded elsewhere, or deleted)."""
        await conn.js.purge_stream(conn.names.log_stream, subject=conn.names.log_subject(table_id))


def _check_lease(lease: Lease, table_id: str) -> None:
    if lease.table_id != table_id:
        raise ValueError(f"the lease is for table {lease.table_id!r}, not {table_id!r}")
    if not lease.valid():
        raise Fenced(f"table {table_id}: the lease is not held ({lease.lost or 'expired'})")


async def _read_records(conn: ClusterConnection, subject: str) -> tuple[list[tuple[int, bytes]], int]:
    """Every record of a subject in order, as (stream sequence, payload), and the last sequence."""
    js, stream = conn.js, conn.names.log_stream
    try:
        last = await js.get_msg(stream, subject=subject)
    except js_errors.NotFoundError:
        return [], 0
    records: list[tuple[int, bytes]] = []
    sub = await js.subscribe(subject, stream=stream, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL)
    try:
        while True:
            msg = await sub.next_msg(timeout=conn.config.request_timeout_seconds)
            seq = msg.metadata.sequence.stream
            records.append((seq, msg.data))
            if seq >= (last.seq or 0):
                return records, seq
    finally:
        await sub.unsubscribe()


async def _replay(conn: ClusterConnection, table_id: str, *, check: bool) -> tuple[Save, int, Recovery]:
    subject = conn.names.log_subject(table_id)
    for _ in range(READ_ATTEMPTS):
        try:
            records, last_seq = await _read_records(conn, subject)
        except nats.errors.TimeoutError:
            continue  # purged or restarted under us: read again
        if not records:
            raise LogError(f"table {table_id!r} has no log")
        try:
            decoded = [(seq, _record.decode(data)) for seq, data in records]
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            raise LogError(f"table {table_id!r}: an unreadable log record ({_one_line(error)})") from None
        snaps = [i for i, (_seq, rec) in enumerate(decoded) if isinstance(rec, LogSnapshot)]
        if not snaps:
            continue  # read while a snapshot's purge ran: read again
        start = snaps[-1]
        snapshot = decoded[start][1]
        assert isinstance(snapshot, LogSnapshot)
        try:
            save = loads(snapshot.save, check=check)
        except SaveError as error:
            raise LogError(f"table {table_id!r}: its snapshot cannot be used: {error}") from None
        if save.id != table_id:
            raise LogError(f"table {table_id!r}: its log holds table {save.id!r}")
        entries = [rec for _seq, rec in decoded[start + 1 :] if isinstance(rec, LogEntry)]
        snapshot_commands = len(save.log)
        _apply_entries(table_id, save, entries)
        recovery = Recovery(table_id, snapshot_commands, len(save.log) - snapshot_commands, len(records))
        return save, last_seq, recovery
    raise LogError(f"table {table_id!r}: its log could not be read whole in {READ_ATTEMPTS} attempts")


def _apply_entries(table_id: str, save: Save, entries: list[LogEntry]) -> None:
    state = save.state
    for entry in entries:
        if entry.seq != state.seq + 1:
            raise LogError(f"table {table_id!r}: a gap in its log (command {entry.seq} after {state.seq})")
        if save.finished:
            raise LogError(f"table {table_id!r}: commands after the end of its game")
        try:
            apply(state, entry.cmd)
        except IllegalCommand as error:
            raise LogError(f"table {table_id!r}: command {entry.seq} of its log is illegal here ({error})") from None
        save.log.append(entry.cmd)
        if entry.bot and 0 <= entry.cmd.seat < len(save.seats):
            save.seats[entry.cmd.seat].bot_played.append(entry.seq)
        save.updated = entry.t
        save.finished = state.phase == "over"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
