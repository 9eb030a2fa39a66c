"""A listener for connections that arrive through a TCP balancer speaking the PROXY protocol.

Behind HAProxy (``send-proxy`` or ``send-proxy-v2``) every connection comes from the
balancer; the player's address is in a header the balancer writes first. This listener
accepts raw sockets, reads exactly that header (server/transport/proxy_protocol.py: peeked,
so the SSH stream stays in the socket), and hands each socket on wrapped so that its
``getpeername()`` is the player's: the admission's per-source counts see the real address.
asyncio's transport takes its peer from that socket; uvloop's asks the kernel (the
balancer), so a protocol factory given such a socket is wrapped by :func:`addressed`, whose
protocols get a transport that names the player on either loop: asyncssh's connection and
the session's logs see the real address without knowing about the protocol.

A header that names no client (v2 LOCAL, v1 UNKNOWN) is the balancer's own health check: it
gets an SSH identification line and is closed, never reaching the SSH server, its admission
or its logs (HAProxy: ``check check-send-proxy`` with ``tcp-check expect string SSH-2.0``).

Refused (the socket closed, no SSH banner, counted in ``stats``): a connection without a
header or with a malformed one, one that sends nothing in ``header_timeout`` seconds, one
beyond ``max_pending`` connections still sending their header, and one from outside
``allowed`` (the balancers' addresses, when given: anyone else could write a header naming
any address). A header on a listener that does not expect the protocol never gets here: the
plain SSH listener hands it to asyncssh, which refuses it as a bad version line.

    listener = ProxyListener(protocol_hand_over(factory), header_timeout=5)
    await listener.start("0.0.0.0", 2223)
    listener.get_port(); listener.stats; listener.close(); await listener.wait_closed()

Hand-over: :func:`protocol_hand_over` (``loop.connect_accepted_socket`` with any protocol
factory, :func:`addressed`: a server whose admission runs at accept gives its gate's factory;
an asyncssh server gives ``compat.connection_factory(...)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ipaddress
import logging
import socket
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from server.logging_setup import log_event
from server.transport.proxy_protocol import ProxyError, read_header

log = logging.getLogger("citadels.server.proxy")

P = TypeVar("P", bound=asyncio.BaseProtocol)
HandOver = Callable[[socket.socket], Awaitable[object]]
HEALTH_REPLY = b"SSH-2.0-citadels-health\r\n"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class AddressedSocket(socket.socket):
    """An accepted socket whose peer is the client the balancer named (``balancer`` is the real one)."""

    def __init__(self, sock: socket.socket, peer: tuple[str, int], balancer: tuple[str, int]) -> None:
        self.balancer = balancer
        super().__init__(sock.family, sock.type, sock.proto, fileno=sock.detach())
        self.setblocking(False)
        self.client = peer

    def getpeername(self) -> tuple[str, int]:  # type: ignore[override]
        return self.client


@dataclass
class ProxyStats:
    """What the listener did with the connections it accepted."""

    accepted: int = 0
    handed_over: int = 0  # the hand-over returned (protocol_hand_over: the connection made)
    health_checks: int = 0  # LOCAL / UNKNOWN headers: answered here, not handed over
    malformed: int = 0  # no header, a bad one, or closed inside it
    timeouts: int = 0
    over_capacity: int = 0
    not_allowed: int = 0
    hand_over_failed: int = 0


class ProxyListener:
    """Accepts TCP connections, reads each one's PROXY header, hands the socket on."""

    def __init__(
        self,
        hand_over: HandOver,
        *,
        header_timeout: float = 5.0,
        max_pending: int = 128,
        allowed: Iterable[str] | None = None,
    ) -> None:
        self.hand_over = hand_over
        self.header_timeout = header_timeout
        self.max_pending = max_pending
        self.allowed: list[Network] | None = (
            [ipaddress.ip_network(net, strict=False) for net in allowed] if allowed is not None else None
        )
        self.stats = ProxyStats()
        self._sockets: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._closed = asyncio.Event()

    # -- lifecycle -----------------------------------------------------------------------------------
    async def start(self, host: str, port: int, *, backlog: int = 128, reuse_port: bool = False) -> ProxyListener:
        """Listen on ``host:port`` (port 0: a free one; ``reuse_port``: several processes on one port)."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, _, _, _, address = infos[0]
        sock = socket.create_server(address[:2], family=family, backlog=backlog, reuse_port=reuse_port)
        sock.setblocking(False)
        self._sockets.append(sock)
        # Accept from a clean context: what is scheduled per connection must not carry an app's context.
        task = loop.create_task(self._accept(sock), name="citadels-proxy-accept", context=contextvars.Context())
        self._accepting.append(task)
        log_event(log, logging.INFO, "listening (PROXY protocol)", host=host, port=self.get_port())
        return self

    def get_port(self) -> int:
        return self._sockets[0].getsockname()[1] if self._sockets else 0

    @property
    def sockets(self) -> list[socket.socket]:
        return list(self._sockets)

    def close(self) -> None:
        """Stop accepting; connections still sending their header are closed."""
        for task in self._accepting + list(self._pending):
            task.cancel()
        for sock in self._sockets:
            sock.close()
        self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        tasks = self._accepting + list(self._pending)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- connections ---------------------------------------------------------------------------------
    async def _accept(self, listening: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, address = await loop.sock_accept(listening)
            except OSError as error:  # out of descriptors, a reset before accept: go on
                if listening.fileno() < 0:
                    return
                log_event(log, logging.WARNING, "accept failed", error=str(error))
                await asyncio.sleep(0.05)
                continue
            self.stats.accepted += 1
            conn.setblocking(False)
            if not self._is_allowed(address[0]):
                self.stats.not_allowed += 1
                log_event(log, logging.WARNING, "connection refused: not a known balancer", peer=address[0])
                conn.close()
                continue
            if len(self._pending) >= self.max_pending:
                self.stats.over_capacity += 1
                conn.close()
                continue
            task = loop.create_task(self._receive(conn, (str(address[0]), int(address[1]))))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    def _is_allowed(self, address: str) -> bool:
        if self.allowed is None:
            return True
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in net for net in self.allowed)

    async def _receive(self, conn: socket.socket, balancer: tuple[str, int]) -> None:
        try:
            header = await read_header(conn, self.header_timeout)
        except ProxyError as error:
            if "in time" in str(error):
                self.stats.timeouts += 1
            else:
                self.stats.malformed += 1
            log_event(log, logging.INFO, "connection refused: PROXY header", peer=balancer[0], reason=str(error))
            conn.close()
            return
        except (OSError, asyncio.CancelledError):
            conn.close()
            raise
        if header.source is None:
            self.stats.health_checks += 1
            with contextlib.suppress(OSError):
                conn.send(HEALTH_REPLY)  # a few bytes into an empty socket buffer: does not block
            conn.close()
            return
        sock = AddressedSocket(conn, header.source, balancer)
        try:
            await self.hand_over(sock)
        except Exception as error:  # the SSH side refused it (bad banner, failed login): its business
            self.stats.hand_over_failed += 1
            log_event(log, logging.DEBUG, "connection ended before login", peer=sock.client[0], error=repr(error))
            with contextlib.suppress(OSError):
                sock.close()
            return
        self.stats.handed_over += 1


class AddressedTransport:
    """A transport whose peer is the client the balancer named; everything else is the wrapped
    transport's own (its write path bound once: no cost per call)."""

    def __init__(self, transport: asyncio.BaseTransport, peer: tuple[str, int]) -> None:
        self.transport = transport
        self.peer = peer
        for name in ("write", "writelines", "get_write_buffer_size", "is_closing"):
            if hasattr(transport, name):
                setattr(self, name, getattr(transport, name))

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self.peer
        return self.transport.get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def addressed(factory: Callable[[], P], sock: socket.socket) -> Callable[[], P]:
    """``factory``, its protocol's transport naming ``sock``'s peer (an AddressedSocket's client)
    whatever the loop: asyncio's transport asks the socket object (already right), uvloop's asks
    the kernel (the balancer), and is then wrapped in an :class:`AddressedTransport`."""
    if not isinstance(sock, AddressedSocket):
        return factory
    peer = sock.client

    def make() -> P:
        protocol = factory()
        made = protocol.connection_made

        def connection_made(transport: asyncio.BaseTransport) -> None:
            del protocol.connection_made  # the class's method again: no cycle kept
            if transport.get_extra_info("peername") != peer:
                transport = AddressedTransport(transport, peer)  # type: ignore[assignment]
            made(transport)

        protocol.connection_made = connection_made  # type: ignore[method-assign]
        return protocol

    return make


def protocol_hand_over(protocol_factory: Callable[[], asyncio.BaseProtocol]) -> HandOver:
    """Give each socket to ``protocol_factory()`` as an accepted connection (:func:`addressed`)."""

    async def hand_over(sock: socket.socket) -> object:
        return await asyncio.get_running_loop().connect_accepted_socket(addressed(protocol_factory, sock), sock)

    return hand_over
