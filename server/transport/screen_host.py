"""The host's side of a moved screen: a Unix socket where the process that accepted a player's SSH
connection (the front) hands their screen over (server/transport/screen_wire.py says why and how).

    screens = ScreenServer(host, path)     # host: the server's SessionHost (server/transport/ssh.py)
    await screens.start()                  # bound 0600 in the worker's saves folder
    screens.close()

Each connection is one session: the front's Hello names it, and an ordinary `SSHSession` serves it,
its channel being the socket (`RelayChannel`): the app, its driver, its input budget and its
limits are the same as for a session accepted here; only the SSH connection is elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import cast

import msgspec

from server.admin.socket_server import bind_private_socket
from server.logging_setup import log_event
from server.transport import screen_wire as w
from server.transport.screen_channel import RelayChannel
from server.transport.session import SSHSession
from server.transport.session_info import Identity, SessionHost

log = logging.getLogger("citadels.server.transport.screens")


class HostProtocol(asyncio.Protocol):
    """One moved screen: the Hello, then the terminal's input and window changes."""

    def __init__(self, host: SessionHost) -> None:
        self._host = host
        self._frames = w.Frames()
        self._transport: asyncio.Transport | None = None
        self.session: SSHSession | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio.Transport subclasses
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            frames = self._frames.feed(data)
            for kind, payload in frames:
                self._take(kind, payload)
        except (w.FrameError, msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "unreadable screen frame", error=str(error))
            if self._transport is not None:
                self._transport.abort()

    def _take(self, kind: bytes, payload: bytes) -> None:
        session = self.session
        if session is None:
            if kind != w.HELLO:
                raise w.FrameError(f"{kind!r} before the hello")
            self._start(w.hello_decoder.decode(payload))
        elif kind == w.INPUT:
            session.data_received(payload, None)
        elif kind == w.RESIZE:
            size = w.size_decoder.decode(payload)
            session.terminal_size_changed(size.width, size.height, 0, 0)
        else:
            raise w.FrameError(f"{kind!r} from a front")

    def _start(self, hello: w.Hello) -> None:
        assert self._transport is not None
        identity = Identity(hello.username, hello.key_fingerprint, hello.is_guest, hello.peer_host, hello.peer_port)
        session = SSHSession(
            self._host,
            identity,
            session_id=hello.session_id,
            action=hello.action,
            front=hello.front,
            carried=hello.carried,
        )
        self.session = session
        session.connection_made(RelayChannel(self._transport, dict(hello.env)))
        session.pty_requested(hello.term, (hello.size[0], hello.size[1], 0, 0), {})
        if hello.early_input:
            session.data_received(hello.early_input, None)
        session.session_started()
        log_event(log, logging.INFO, "screen moved here", session=hello.session_id, user=hello.username)

    def pause_writing(self) -> None:
        if self.session is not None:
            self.session.pause_writing()

    def resume_writing(self) -> None:
        if self.session is not None:
            self.session.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.session is not None:
            self.session.connection_lost(exc)


class ScreenServer:
    """This process's socket for screens moved here from the other processes of the host."""

    def __init__(self, host: SessionHost, path: Path) -> None:
        self.host = host
        self.path = path
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        sock = bind_private_socket(self.path)
        loop = asyncio.get_running_loop()
        self._server = await loop.create_unix_server(lambda: HostProtocol(self.host), sock=sock)

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        with contextlib.suppress(OSError):
            self.path.unlink()


def screens_socket(saves_dir: str | Path) -> Path:
    return Path(saves_dir) / w.SOCKET_NAME
