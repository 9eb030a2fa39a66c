"""The saves folder's file formats: atomic writes and the per-table command log.

Log file: ``b"CTDLLOG\\0"``, u16 version, u16 zero, then records; each record is
``u32 length | u32 CRC-32 of payload | payload`` (little-endian), payload a
MessagePack array: first ``LogHead(id, base)``, then one ``LogEntry(seq, command,
time, bot)`` per applied command (``bot``: a bot chose it in a person's stead; a
record of three elements, written before that field existed, reads as False, and
an older reader ignores the fourth). `scan_log` reads every record that holds, repairing one
flipped bit or byte where the checksum shows which, and skips what cannot be read.
How the store uses them (and why a log rather than rewriting saves): see
`server/storage/persistence.py`.
"""

from __future__ import annotations

import errno
import os
import re
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import msgspec
from msgspec import Meta, Struct

from engine.commands import Command
from engine.savefile import MAX_SAVE_BYTES, Save, SaveError, Timestamp, loads, loads_json

LOG_MAGIC = b"CTDLLOG\x00"
LOG_VERSION = 1
LOG_HEADER = struct.Struct("<8sHH")
RECORD = struct.Struct("<II")  # payload length, CRC-32 of payload
MAX_RECORD = 64 * 1024
SNAPSHOT_EVERY = 100  # commands between snapshots (the log never holds more)
TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
FINISHED = "finished"


class LogHead(Struct, array_like=True, tag="head"):
    id: Annotated[str, Meta(max_length=200)]
    base: int


class LogEntry(Struct, array_like=True, tag="cmd"):
    seq: int
    cmd: Command
    t: Timestamp
    bot: bool = False  # a bot chose the command in a person's stead (engine.savefile.Seat.bot_played)


_rec_dec = msgspec.msgpack.Decoder(LogHead | LogEntry)
_enc = msgspec.msgpack.Encoder()


def oneline(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:  # pragma: no cover - os.write raises instead
            raise OSError(errno.EIO, "short write")
        view = view[n:]


def atomic_write(path: Path, data: bytes, durable: bool = True) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new file, never a mix."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        write_all(fd, data)
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    if durable:
        fsync_dir(path.parent)


def read_limited(path: Path, limit: int = MAX_SAVE_BYTES + 64) -> bytes:
    """A file's bytes, refusing (SaveError) one larger than `limit` before reading it."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > limit:
                raise SaveError(f"{path}: {size} bytes, more than the {limit} bytes a save may have")
            return f.read(limit + 1)
    except OSError as e:
        raise SaveError(f"{path}: cannot read: {e.strerror or oneline(e)}") from None


def read_save_file(path: str | Path, *, check: bool = True) -> Save:
    """Load a save file or a JSON export of one (recognised by its first character);
    SaveError with a one-line message naming the file."""
    path = Path(path)
    data = read_limited(path, 4 * MAX_SAVE_BYTES)
    try:
        if data[:1].isspace() or data[:1] == b"{":
            return loads_json(data, check=check)
        return loads(data, check=check)
    except SaveError as e:
        raise SaveError(f"{path}: {e}") from None


def encode_record(obj: Struct) -> bytes:
    payload = _enc.encode(obj)
    return RECORD.pack(len(payload), zlib.crc32(payload)) + payload


@dataclass
class LogScan:
    """What reading a command log found: its good records (repaired ones included), in file order."""

    base: int | None
    entries: list[LogEntry] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)  # records fixed from their checksum (one line each)
    damaged: list[str] = field(default_factory=list)  # stretches that could not be read (one line each)
    torn: str | None = None  # an incomplete last record: a crash during its write (never acknowledged)
    fatal: str | None = None  # the log as a whole is unusable (bad magic, another table's log...)
    tail_damaged: bool = False  # the damage runs to the end: records after the last good one are gone

    @property
    def why(self) -> str | None:
        parts = [self.fatal] if self.fatal else []
        parts += self.damaged + [f"repaired {r}" for r in self.repaired]
        if self.torn:
            parts.append(self.torn)
        return "; ".join(parts) or None


def read_log(data: bytes, table_id: str) -> tuple[int | None, list[LogEntry], str | None]:
    """Parse a log: (base, every record that holds, what was wrong or None). See `scan_log`."""
    scan = scan_log(data, table_id)
    return scan.base, scan.entries, scan.why


def scan_log(data: bytes, table_id: str) -> LogScan:
    """Read every record that holds. A record whose checksum fails is repaired when one flipped bit or
    one changed byte (in its length, checksum or payload) explains it and only one does; else the
    stretch is skipped up to the next record whose checksum holds (its seq shows what is missing).
    A record cut short by the end of the file is a torn write, not damage."""
    if len(data) < LOG_HEADER.size:
        return LogScan(None, torn=f"log shorter than its header ({len(data)} bytes)" if data else None)
    magic, version, _ = LOG_HEADER.unpack_from(data)
    scan = LogScan(None)
    if magic != LOG_MAGIC or version != LOG_VERSION:
        # One damaged byte in the file's header: its head record (checksummed) says whether it is ours.
        near = sum(a != b for a, b in zip(magic, LOG_MAGIC)) + (version != LOG_VERSION) <= 1
        near = near and (version == LOG_VERSION or (version ^ LOG_VERSION).bit_count() == 1)
        head = _record_at(data, LOG_HEADER.size) if near else None
        if head is None or not isinstance(head[0], LogHead) or head[2] is not None:
            if magic != LOG_MAGIC:
                return LogScan(None, fatal="not a command log (bad magic)")
            return LogScan(None, fatal=f"command log format {version}, this program reads {LOG_VERSION}")
        scan.repaired.append("the log's file header")
    pos = LOG_HEADER.size
    repairs = MAX_REPAIRS
    while pos < len(data):
        found = _record_at(data, pos, search=repairs > 0)
        if found is None:
            repairs -= 1
            nxt = _resync(data, pos + 1)
            if nxt is None and _torn_at(data, pos):
                scan.torn = _torn_text(data, pos)
                break
            end = len(data) if nxt is None else nxt
            scan.damaged.append(f"a damaged record at byte {pos} ({end - pos} bytes unreadable)")
            if nxt is None:
                scan.tail_damaged = True
                break
            pos = nxt
            continue
        rec, end, repair = found
        if repair:
            scan.repaired.append(f"the record at byte {pos} ({repair})")
        if scan.base is None and not (scan.damaged and isinstance(rec, LogEntry)):  # (a lost head: seqs still tell)
            if not isinstance(rec, LogHead):
                scan.fatal = "the log does not start with its head record"
                return scan
            if rec.id != table_id:
                scan.fatal = f"the log belongs to table {rec.id!r}"
                return scan
            scan.base = rec.base
        elif isinstance(rec, LogEntry):
            scan.entries.append(rec)
        else:
            scan.damaged.append(f"a second head record at byte {pos}")
            break
        pos = end
    return scan


REPAIR_LIMIT = 512  # longer records are not searched for a changed byte (measured: 62 bytes on average, 138 at most)
MAX_REPAIRS = 16  # damaged places searched for a repair in one log (a real log holds at most 100 records)
RESYNC_WINDOW = 1 << 20  # bytes looked through for the next good record (a real log is a few KB)


def _decode(payload: bytes) -> LogHead | LogEntry | None:
    try:
        return _rec_dec.decode(payload)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return None


def _record_at(data: bytes, pos: int, search: bool = True) -> tuple[LogHead | LogEntry, int, str | None] | None:
    """(record, end, how it was repaired or None) for a record starting at `pos`, or None. `search`:
    also look for a changed byte in its length or contents (bounded work: see MAX_REPAIRS)."""
    if len(data) - pos < RECORD.size:
        return None
    length, crc = RECORD.unpack_from(data, pos)
    start = pos + RECORD.size
    fits = length <= MAX_RECORD and start + length <= len(data)
    if fits:
        payload = data[start : start + length]
        actual = zlib.crc32(payload)
        if actual == crc or _one_byte(actual ^ crc):  # intact, or the checksum field itself was hit
            rec = _decode(payload)
            if rec is not None:
                return rec, start + length, None if actual == crc else "its checksum field"
    if not search:
        return None
    for mask in _byte_masks(4):  # the length field was hit
        n = length ^ mask
        if n <= MAX_RECORD and start + n <= len(data) and zlib.crc32(data[start : start + n]) == crc:
            rec = _decode(data[start : start + n])
            if rec is not None:
                return rec, start + n, "its length field"
    if fits and length <= REPAIR_LIMIT:  # one byte of the payload was hit
        fixes = []
        buf = bytearray(payload)
        for i in range(length):
            orig = buf[i]
            for v in range(1, 256):
                buf[i] = orig ^ v
                if zlib.crc32(buf) == crc:
                    fixes.append(bytes(buf))
            buf[i] = orig
        decoded = [r for r in map(_decode, fixes) if r is not None]
        if len(decoded) == 1:
            return decoded[0], start + length, "one changed byte in its contents"
    return None


def _one_byte(x: int) -> bool:
    return any(x & ~(0xFF << (8 * k)) == 0 for k in range(4)) and x != 0


def _byte_masks(width: int):
    for k in range(width):
        for v in range(1, 256):
            yield v << (8 * k)


def _torn_at(data: bytes, pos: int) -> bool:
    """The record at `pos` is the prefix of a real one cut by the end of the file (a write torn by a
    crash writes a prefix: its length field is a possible one)."""
    if len(data) - pos < RECORD.size:
        return True
    length, _crc = RECORD.unpack_from(data, pos)
    return length <= MAX_RECORD and pos + RECORD.size + length > len(data)


def _torn_text(data: bytes, pos: int) -> str:
    if len(data) - pos < RECORD.size:
        return f"torn record header at byte {pos}"
    length, _crc = RECORD.unpack_from(data, pos)
    return f"torn record at byte {pos} ({len(data) - pos - RECORD.size} of {length} bytes)"


def _resync(data: bytes, start: int) -> int | None:
    """The next position from `start` where a record whose checksum holds begins."""
    for p in range(start, min(len(data) - RECORD.size + 1, start + RESYNC_WINDOW)):
        length, crc = RECORD.unpack_from(data, p)
        end = p + RECORD.size + length
        ok = length <= MAX_RECORD and end <= len(data) and zlib.crc32(data[p + RECORD.size : end]) == crc
        if ok and isinstance(_decode(data[p + RECORD.size : end]), LogEntry):
            return p
    return None
