"""A moved screen's channel: the asyncssh channel calls an `SSHSession` makes, answered over the socket
to the process that holds the player's SSH connection (server/transport/screen_wire.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from server.transport import screen_wire as w


class RelayConnection:
    """What a session asks of its SSH connection, over the socket: its transport (read by
    server/transport/compat.connection_transport under asyncssh's name for it) and abort."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport

    def abort(self) -> None:
        # A client too slow for its output (the driver's verdict): the front sees the socket end
        # with its own SSH output backed up, and drops the connection too (screen_relay.py).
        self._transport.abort()


class RelayChannel:
    """The asyncssh channel calls an `SSHSession` makes, over the front's socket."""

    def __init__(self, transport: asyncio.Transport, env: dict[str, str]) -> None:
        self._transport = transport
        self._conn = RelayConnection(transport)
        self._env = env
        self.moved = False

    def set_write_buffer_limits(self, high: int) -> None:
        self._transport.set_write_buffer_limits(high=high)

    def write(self, data: bytes) -> None:
        self._transport.write(w.frame(w.OUTPUT, data))

    def write_stderr(self, data: bytes) -> None:
        self._transport.write(w.frame(w.STDERR, data))

    def exit(self, status: int) -> None:
        self._transport.write(w.message(w.EXIT, w.Exit(status)))
        self._transport.close()

    def move(self, target: w.MoveTo) -> None:
        """The screen moves on: the front serves it from `target` next."""
        self.moved = True
        self._transport.write(w.message(w.MOVE, target))
        self._transport.close()

    def close(self) -> None:
        self._transport.close()

    def get_environment(self) -> dict[str, str]:
        return self._env

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def get_connection(self) -> RelayConnection:
        return self._conn

    def get_write_buffer_size(self) -> int:
        return 0  # the transport's buffer is counted once, as the connection's (transport_backlog)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()
