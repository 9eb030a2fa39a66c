"""What `citadels admin` and the server say to each other over the admin socket: one JSON request
line, one JSON reply line. Every request is a tagged msgspec Struct; unknown fields are refused."""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import Struct, field

MAX_LINE = 64 * 1024


class Sessions(Struct, tag="sessions", forbid_unknown_fields=True):
    """List the sessions in the lobby or at tables."""


class Tables(Struct, tag="tables", forbid_unknown_fields=True):
    """List the tables."""


class Status(Struct, tag="status", forbid_unknown_fields=True):
    """Counts: sessions, connections, tables, refusals by cause."""


class Kick(Struct, tag="kick", forbid_unknown_fields=True):
    target: str  # a session id ("s12"), a key fingerprint, or an address: every matching session
    message: str = ""


class Ban(Struct, tag="ban", forbid_unknown_fields=True):
    kind: Literal["key", "address", "session"]  # "session": that session's key (a guest's: its address)
    value: str
    reason: str = ""


class Unban(Struct, tag="unban", forbid_unknown_fields=True):
    kind: Literal["key", "address"]
    value: str


class Bans(Struct, tag="bans", forbid_unknown_fields=True):
    """List the bans."""


class Close(Struct, tag="close", forbid_unknown_fields=True):
    table: str
    message: str = ""


class Broadcast(Struct, tag="broadcast", forbid_unknown_fields=True):
    text: str


Request = Sessions | Tables | Status | Kick | Ban | Unban | Bans | Close | Broadcast


class Reply(Struct, omit_defaults=True):
    ok: bool
    message: str = ""  # one line: what was done, or why not
    rows: list[dict[str, Any]] = field(default_factory=list)  # listings
    data: dict[str, Any] = field(default_factory=dict)  # status
    count: int = 0  # the sessions an action reached (kick, ban, broadcast): `--workers N` adds the workers' up


class SessionRow(Struct):
    session: str
    name: str
    key: str  # the key's fingerprint, or "guest"
    peer: str
    where: str  # lobby / room / playing / watching
    table: str | None
    seat: int | None
    connected_s: int


class TableRow(Struct):
    table: str
    name: str
    phase: str
    private: bool
    saved_game: bool  # a loaded game waiting in its room
    seats: list[str]  # each seat's name, "(open)" for an open one
    present: int  # players at the table now
    spectators: int
    moves: int
    creator: str | None
    origin: str | None  # the creator's address


class BanRow(Struct):
    kind: str
    value: str
    reason: str
    since: str


_decoder = msgspec.json.Decoder(Request)
_encoder = msgspec.json.Encoder()


def decode_request(line: bytes) -> Request:
    return _decoder.decode(line)


def encode(obj: Any) -> bytes:
    return _encoder.encode(obj) + b"\n"


def rows(items: list[Any]) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(x) for x in items]
