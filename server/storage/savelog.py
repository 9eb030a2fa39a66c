"""The saves folder's file formats: atomic writes and the per-table command log.

Log file: ``b"CTDLLOG\\0"``, u16 version, u16 zero, then records; each record is
``u32 length | u32 CRC-32 of payload | payload`` (little-endian), payload a
MessagePack array: first ``LogHead(id, base)``, then one ``LogEntry(seq, command,
time, bot)`` per applied command (``bot``: a bot chose it in a person's stead; a
record of three elements, written before that field existed, reads as False, and
an older reader ignores the fourth). `read_log` stops at the first torn or bad record.
How the store uses them (and why a log rather than rewriting saves): see
`server/storage/persistence.py`.
"""

from __future__ import annotations

import errno
import os
import re
import struct
import zlib
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


def read_log(data: bytes, table_id: str) -> tuple[int | None, list[LogEntry], str | None]:
    """Parse a log: (base, entries up to the first bad record, why the rest was dropped or None)."""
    if len(data) < LOG_HEADER.size:
        return None, [], (f"log shorter than its header ({len(data)} bytes)" if data else None)
    magic, version, _ = LOG_HEADER.unpack_from(data)
    if magic != LOG_MAGIC:
        return None, [], "not a command log (bad magic)"
    if version != LOG_VERSION:
        return None, [], f"command log format {version}, this program reads {LOG_VERSION}"
    pos = LOG_HEADER.size
    base = None
    entries: list[LogEntry] = []
    while pos < len(data):
        if len(data) - pos < RECORD.size:
            return base, entries, f"torn record header at byte {pos}"
        length, crc = RECORD.unpack_from(data, pos)
        if length > MAX_RECORD:
            return base, entries, f"record length {length} at byte {pos} is impossible"
        start, end = pos + RECORD.size, pos + RECORD.size + length
        if end > len(data):
            return base, entries, f"torn record at byte {pos} ({len(data) - start} of {length} bytes)"
        payload = data[start:end]
        if zlib.crc32(payload) != crc:
            return base, entries, f"bad checksum at byte {pos}"
        try:
            rec = _rec_dec.decode(payload)
        except (msgspec.DecodeError, RecursionError, ValueError) as e:
            return base, entries, f"undecodable record at byte {pos}: {oneline(e)}"
        if base is None:
            if not isinstance(rec, LogHead):
                return None, [], "the log does not start with its head record"
            if rec.id != table_id:
                return None, [], f"the log belongs to table {rec.id!r}"
            base = rec.base
        elif isinstance(rec, LogEntry):
            entries.append(rec)
        else:
            return base, entries, f"a second head record at byte {pos}"
        pos = end
    return base, entries, None
