"""Accepting connections ourselves: admission decides on the address alone, before any other work.

asyncio's own listener makes a transport and runs a task for every connection it accepts, and
accepts its whole backlog in one go; a flood of connections that are then refused would hold the
loop for all of them. The :class:`Acceptor` takes over the listening sockets that
``loop.create_server(..., start_serving=False)`` bound, accepts a few connections per wake-up
(``accepts_per_wakeup``), and hands each (socket, address) to its keeper: a refused one gets one
line and is closed (a few system calls, no asyncio or asyncssh object); an admitted one is given
to asyncssh through ``loop.connect_accepted_socket``.
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import logging
import os
import socket
from collections.abc import Iterable
from typing import Any, Protocol

log = logging.getLogger("citadels.server")

# After running out of file descriptors (or memory), accepting resumes this much later (as asyncio).
ACCEPT_RETRY_SECONDS = 1.0
_RESOURCE_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class GateKeeper(Protocol):
    def accepted(self, conn: socket.socket, address: Any) -> None: ...


class Acceptor:
    """Accepts on listening sockets and gives each new connection to ``keeper.accepted``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, keeper: GateKeeper, *, backlog: int, per_wakeup: int) -> None:
        self._loop = loop
        self._keeper = keeper
        self._backlog = backlog
        self._per_wakeup = per_wakeup
        self._sockets: list[socket.socket] = []
        self._closed = False

    def start(self, listening: Iterable[Any]) -> None:
        """Take over sockets bound (not yet listening) by ``create_server(start_serving=False)``."""
        for bound in listening:
            # Our own handle on the same socket (the server object keeps and closes the original).
            sock = socket.socket(fileno=os.dup(bound.fileno()))
            sock.setblocking(False)
            sock.listen(self._backlog)
            self._sockets.append(sock)
            self._watch(sock)

    def _watch(self, sock: socket.socket) -> None:
        # From a clean context: what the accept callbacks start must never carry an app's.
        contextvars.Context().run(self._loop.add_reader, sock.fileno(), self._ready, sock)

    def _ready(self, sock: socket.socket) -> None:
        for _ in range(self._per_wakeup):
            try:
                conn, address = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                if error.errno in _RESOURCE_ERRORS:
                    log.warning("cannot accept connections for now: %s", os.strerror(error.errno))
                    self._loop.remove_reader(sock.fileno())
                    self._loop.call_later(ACCEPT_RETRY_SECONDS, self._resume, sock, context=contextvars.Context())
                return
            try:
                self._keeper.accepted(conn, address)
            except Exception:  # pragma: no cover - a bug in admission must not stop accepting
                log.exception("admitting a connection failed")
                conn.close()

    def _resume(self, sock: socket.socket) -> None:
        if not self._closed:
            self._watch(sock)

    def close(self) -> None:
        self._closed = True
        for sock in self._sockets:
            self._loop.remove_reader(sock.fileno())
            sock.close()
        self._sockets.clear()
