"""Bans by SSH key or by source address (one address, or a network such as 203.0.113.0/24),
kept in `bans.json` in the saves folder so that they survive restarts.

The file is rewritten atomically (mode 0600) on every change; a file that cannot
be read is reported at start in one line and the server refuses to start (an
operator's bans must never silently vanish).

Several processes may share one file (`citadels serve --workers N`: every worker
reads the parent's `bans.json`): a change is made under an exclusive lock on
`.bans.lock` beside it, on the file as it is then (re-read first), so no process
undoes another's; and each process re-reads the file when its identity (inode,
size, time) changed, looked at most every `CHECK_SECONDS` when a ban is checked,
so a ban made through one worker refuses the key on every worker at its next
login. A file that became unreadable while running keeps the bans last read (and
says so in the log, once per version of the file).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import msgspec

from engine.text import clean_text

BANNED_MESSAGE = "You are banned from this server."
KEY_PATTERN = re.compile(r"SHA256:[A-Za-z0-9+/]{43}=?\Z")
MAX_BANS = 100_000
CHECK_SECONDS = 0.25  # how often a check of a ban may look whether another process changed the file

log = logging.getLogger("citadels.server.admin")


class BanError(ValueError):
    """A ban that cannot be made or a bans file that cannot be read; one line."""


class Ban(msgspec.Struct, omit_defaults=True):
    kind: Literal["key", "address"]
    value: str
    reason: str = ""
    since: str = ""


class BanFile(msgspec.Struct):
    bans: list[Ban] = msgspec.field(default_factory=list)


def normal_value(kind: str, value: str) -> str:
    """A key fingerprint or an address/network as stored; BanError if it is neither."""
    value = value.strip()
    if kind == "key":
        if not KEY_PATTERN.match(value):
            raise BanError(
                f"not a key fingerprint (SHA256:... as the lobby and `citadels admin sessions` show): {clean_text(value, 80)!r}"
            )
        return value
    if kind == "address":
        try:
            net = ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise BanError(f"not an address or network: {clean_text(value, 80)!r}") from None
        return str(net.network_address) if net.num_addresses == 1 else str(net)
    raise BanError(f"a ban is by key or by address, not {clean_text(kind, 20)!r}")


class Bans:
    """The server's bans; `path` None keeps them in memory only (tests, servers without a saves folder)."""

    def __init__(self, path: Path | None, clock: Any = time.monotonic) -> None:
        self.path = path
        self.clock = clock
        self._bans: list[Ban] = []
        self._keys: set[str] = set()
        self._nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self._stamp: tuple[int, int, int] | None = None  # the file's (inode, size, mtime_ns) when read
        self._looked = clock()
        self._bad_stamp: tuple[int, int, int] | None = None
        if path is not None and path.exists():
            self._bans, self._stamp = self._read(path)
        self._index()

    @staticmethod
    def _read(path: Path) -> tuple[list[Ban], tuple[int, int, int] | None]:
        try:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                data = f.read()
            bans = msgspec.json.decode(data, type=BanFile).bans[:MAX_BANS]
            for b in bans:
                b.value = normal_value(b.kind, b.value)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError, BanError) as e:
            raise BanError(f"cannot read the bans file {path}: {str(e).splitlines()[0]}") from None
        return bans, (st.st_ino, st.st_size, st.st_mtime_ns)

    def _file_stamp(self) -> tuple[int, int, int] | None:
        assert self.path is not None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def refresh(self, force: bool = False) -> bool:
        """Re-read the file if another process changed it (at most every CHECK_SECONDS unless `force`);
        whether the bans changed."""
        if self.path is None:
            return False
        now = self.clock()
        if not force and now - self._looked < CHECK_SECONDS:
            return False
        self._looked = now
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return False
        if stamp is None:  # removed: no bans (as at a start without the file)
            bans: list[Ban] = []
        else:
            try:
                bans, stamp = self._read(self.path)
            except BanError as e:
                if stamp != self._bad_stamp:
                    self._bad_stamp = stamp
                    log.warning("%s; the bans read before stay in force", e)
                return False
        before = [(b.kind, b.value) for b in self._bans]
        self._bans, self._stamp = bans, stamp
        self._index()
        return before != [(b.kind, b.value) for b in bans]

    def _index(self) -> None:
        self._keys = {b.value for b in self._bans if b.kind == "key"}
        self._nets = [ipaddress.ip_network(b.value, strict=False) for b in self._bans if b.kind == "address"]

    def banned(self, key: str | None, address: str | None) -> str | None:
        """The line to show a banned client, or None."""
        self.refresh()
        if key is not None and key in self._keys:
            return BANNED_MESSAGE
        if address is not None and self._nets:
            try:
                ip = ipaddress.ip_address(address.split("%")[0])
            except ValueError:
                return None
            if any(ip in net for net in self._nets):
                return BANNED_MESSAGE
        return None

    def list(self) -> list[Ban]:
        self.refresh(force=True)
        return list(self._bans)

    def add(self, kind: str, value: str, reason: str = "") -> tuple[Ban, bool]:
        """(the ban, whether it is new). Saved at once (OSError propagates)."""
        value = normal_value(kind, value)
        with self._changing():
            for b in self._bans:
                if b.kind == kind and b.value == value:
                    return b, False
            if len(self._bans) >= MAX_BANS:
                raise BanError(f"at most {MAX_BANS} bans")
            ban = Ban(kind, value, clean_text(reason, 200), datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))  # type: ignore[arg-type]
            self._bans.append(ban)
            self._index()
            self._save()
        return ban, True

    def remove(self, kind: str, value: str) -> bool:
        value = normal_value(kind, value)
        with self._changing():
            before = len(self._bans)
            self._bans = [b for b in self._bans if not (b.kind == kind and b.value == value)]
            if len(self._bans) == before:
                return False
            self._index()
            self._save()
        return True

    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """A change, made on the file as it is now, under the lock that the other processes sharing it take."""
        if self.path is None:
            yield
            return
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path.parent / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            _lock(fd)
            stamp = self._file_stamp()
            if stamp != self._stamp:
                if stamp is None:
                    self._bans = []
                else:
                    self._bans, stamp = self._read(self.path)  # unreadable now: refused (BanError), not overwritten
                self._stamp = stamp
                self._index()
            yield
        finally:
            os.close(fd)  # and the lock with it

    def _save(self) -> None:
        if self.path is None:
            return
        from server.storage.savelog import atomic_write

        atomic_write(self.path, msgspec.json.format(msgspec.json.encode(BanFile(self._bans))), durable=True)
        self._stamp = self._file_stamp()


LOCK_NAME = ".bans.lock"


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system: one process per file
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
