"""What two processes of one host say over a moved screen's socket (issue 23).

A player's SSH connection stays in the process that accepted it (the "front"); their screen (the
Textual app) may run in another process of the same host (the "host"), the one that runs their
table, so that a table's screens and its actor share one process: a seat's views no longer cross
NATS and every memo of a process's screens serves the whole table. The front carries the
terminal's bytes both ways (server/transport/screen_relay.py); the host runs an ordinary session
whose channel is that socket (server/transport/screen_host.py).

A frame is a kind byte, a 4-byte big-endian length and its payload:

    front -> host   H  Hello (msgspec JSON): who, the terminal, what to do first
                    I  the terminal's input bytes
                    R  a window change: Size (msgspec JSON)
    host -> front   O  output bytes for the terminal
                    E  bytes for the terminal's stderr (a refusal)
                    Z  the app ended: Exit (msgspec JSON): the status (the line, if any, came as O)
                    M  the screen moves again: MoveTo (msgspec JSON); the host closes after it

The socket is the host user's own (0600, in the worker's saves folder): both ends are the server.
"""

from __future__ import annotations

import struct
from typing import Literal

import msgspec

SOCKET_NAME = "screens.sock"

HELLO, INPUT, RESIZE = b"H", b"I", b"R"
OUTPUT, STDERR, EXIT, MOVE = b"O", b"E", b"Z", b"M"
KINDS = frozenset((HELLO, INPUT, RESIZE, OUTPUT, STDERR, EXIT, MOVE))

HEADER = struct.Struct(">cI")
MAX_FRAME = 1 << 20  # a frame is one write of the app or of the client: far below this


class ScreenAction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the moved screen does first, as the player asked it on the screen they left: join or
    watch a table (a private one with its code), or go back to their game."""

    kind: Literal["join", "watch", "back"]
    table_id: str = ""
    seat: int | None = None
    code: str | None = None


class Carried(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the player set on the screen they leave and the next one keeps: their name (a guest's,
    or one not claimed yet, lives in its screen's process), the language, the turn alert, the card
    colours ("" : the new screen's defaults)."""

    name: str = ""
    lang: str = ""
    alerts: bool = True
    palette: str = ""


class MoveTo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Run the session's screen in `worker` (a node id of this host), starting with `action`."""

    worker: str
    action: ScreenAction | None = None
    carried: Carried | None = None


class Hello(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The session the host is to serve: the front's session id (a guest's seat key is made from
    it), who authenticated, the terminal, and what to do first."""

    session_id: str
    username: str
    key_fingerprint: str | None
    is_guest: bool
    peer_host: str
    peer_port: int
    term: str
    size: tuple[int, int]
    env: dict[str, str]
    action: ScreenAction | None = None
    carried: Carried | None = None
    early_input: bytes = b""
    front: str = ""  # the node id of the worker that holds the connection (where a stopping host sends it back)


class Size(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    width: int
    height: int


class Exit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    status: int = 0


class FrameError(ValueError):
    """A frame that is not one of ours: the socket is closed."""


def frame(kind: bytes, payload: bytes) -> bytes:
    return HEADER.pack(kind, len(payload)) + payload


def message(kind: bytes, struct_: msgspec.Struct) -> bytes:
    return frame(kind, msgspec.json.encode(struct_))


class Frames:
    """Cuts a byte stream into (kind, payload) frames."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        if not self._buf:  # the usual case, whole frames: cut them from `data` itself (no copy into a buffer)
            return self._cut(data)
        buf = self._buf
        buf.extend(data)
        out: list[tuple[bytes, bytes]] = []
        start = 0
        size = HEADER.size
        while len(buf) - start >= size:
            kind, length = HEADER.unpack_from(buf, start)
            if kind not in KINDS or length > MAX_FRAME:
                raise FrameError(f"bad frame {kind!r} of {length} bytes")
            end = start + size + length
            if len(buf) < end:
                break
            out.append((kind, bytes(buf[start + size : end])))
            start = end
        if start:
            del buf[:start]
        return out

    def _cut(self, data: bytes) -> list[tuple[bytes, bytes]]:
        out: list[tuple[bytes, bytes]] = []
        start, n, size = 0, len(data), HEADER.size
        while n - start >= size:
            kind, length = HEADER.unpack_from(data, start)
            if kind not in KINDS or length > MAX_FRAME:
                raise FrameError(f"bad frame {kind!r} of {length} bytes")
            end = start + size + length
            if end > n:
                break
            out.append((kind, data[start + size : end]))
            start = end
        if start < n:
            self._buf.extend(data[start:])
        return out


hello_decoder = msgspec.json.Decoder(Hello)
size_decoder = msgspec.json.Decoder(Size)
exit_decoder = msgspec.json.Decoder(Exit)
move_decoder = msgspec.json.Decoder(MoveTo)
