"""Bans by SSH key or by source address (one address, or a network such as 203.0.113.0/24),
kept in `bans.json` in the saves folder so that they survive restarts.

The file is rewritten atomically (mode 0600) on every change; a file that cannot
be read is reported at start in one line and the server refuses to start (an
operator's bans must never silently vanish).
"""

from __future__ import annotations

import ipaddress
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import msgspec

from engine.text import clean_text

BANNED_MESSAGE = "You are banned from this server."
KEY_PATTERN = re.compile(r"SHA256:[A-Za-z0-9+/]{43}=?\Z")
MAX_BANS = 100_000


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

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._bans: list[Ban] = []
        self._keys: set[str] = set()
        self._nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        if path is not None and path.exists():
            try:
                data = path.read_bytes()
                self._bans = msgspec.json.decode(data, type=BanFile).bans[:MAX_BANS]
                for b in self._bans:
                    b.value = normal_value(b.kind, b.value)
            except (OSError, msgspec.DecodeError, msgspec.ValidationError, BanError) as e:
                raise BanError(f"cannot read the bans file {path}: {str(e).splitlines()[0]}") from None
        self._index()

    def _index(self) -> None:
        self._keys = {b.value for b in self._bans if b.kind == "key"}
        self._nets = [ipaddress.ip_network(b.value, strict=False) for b in self._bans if b.kind == "address"]

    def banned(self, key: str | None, address: str | None) -> str | None:
        """The line to show a banned client, or None."""
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
        return list(self._bans)

    def add(self, kind: str, value: str, reason: str = "") -> tuple[Ban, bool]:
        """(the ban, whether it is new). Saved at once (OSError propagates)."""
        value = normal_value(kind, value)
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
        before = len(self._bans)
        self._bans = [b for b in self._bans if not (b.kind == kind and b.value == value)]
        if len(self._bans) == before:
            return False
        self._index()
        self._save()
        return True

    def _save(self) -> None:
        if self.path is None:
            return
        from server.storage.savelog import atomic_write

        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(self.path, msgspec.json.format(msgspec.json.encode(BanFile(self._bans))), durable=True)
