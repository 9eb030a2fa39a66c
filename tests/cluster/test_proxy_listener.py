"""The PROXY protocol listener end to end: real asyncssh clients behind a small in-test TCP
proxy that writes v1 and v2 headers (as HAProxy's send-proxy and send-proxy-v2 do); the SSH
server sees the player's address. Malformed, missing, slow and untrusted headers are refused,
and a header sent to the plain listener (the project's own server) is refused by it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from server.config import ServerConfig
from server.transport.compat import connection_factory
from server.transport.demo_app import DemoApp
from server.transport.proxy_listener import ProxyListener, protocol_hand_over
from server.transport.proxy_protocol import V2_SIGNATURE
from server.transport.ssh import start_server

from .helpers import wait_until

PLAYER = ("203.0.113.7", 51000)


def v1(source: tuple[str, int] = PLAYER, dest: tuple[str, int] = ("10.0.0.2", 2222)) -> bytes:
    family = "TCP6" if ":" in source[0] else "TCP4"
    return f"PROXY {family} {source[0]} {dest[0]} {source[1]} {dest[1]}\r\n".encode()


def v2(source: tuple[str, int] = PLAYER, dest: tuple[str, int] = ("10.0.0.2", 2222), local: bool = False) -> bytes:
    if local:
        return V2_SIGNATURE + bytes([0x20, 0x00]) + struct.pack("!H", 0)
    six = ":" in source[0]
    family = socket.AF_INET6 if six else socket.AF_INET
    body = socket.inet_pton(family, source[0]) + socket.inet_pton(family, dest[0])
    body += struct.pack("!HH", source[1], dest[1])
    return V2_SIGNATURE + bytes([0x21, 0x21 if six else 0x11]) + struct.pack("!H", len(body)) + body


class TcpProxy:
    """A balancer in miniature: for each client, connect upstream, write ``header``, then pipe.

    ``mode``: "alone" (the header in its own write), "coalesced" (the header and the client's
    first bytes in one write), "split" (the header in two writes 50 ms apart)."""

    def __init__(self, upstream_port: int, header: bytes, mode: str = "alone") -> None:
        self.upstream_port = upstream_port
        self.header = header
        self.mode = mode
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        if self.mode == "coalesced":
            up_writer.write(self.header + await reader.read(65536))
        elif self.mode == "split":
            up_writer.write(self.header[:7])
            await up_writer.drain()
            await asyncio.sleep(0.05)
            up_writer.write(self.header[7:])
        else:
            up_writer.write(self.header)
        await up_writer.drain()
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.get_running_loop().create_task(_pipe(src, dst))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    try:
        while data := await src.read(65536):
            dst.write(data)
            await dst.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        with contextlib.suppress(Exception):
            dst.close()


class Recorder(asyncssh.SSHServer):
    """Records the peer each connection reports; lets any key in."""

    peers: list[tuple[str, int]] = []

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.peers.append(conn.get_extra_info("peername"))

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return True


def tell_peer(process: asyncssh.SSHServerProcess) -> None:
    host, port = process.get_extra_info("peername")[:2]
    process.stdout.write(f"{host} {port}\n")
    process.exit(0)


@pytest.fixture
async def listener() -> AsyncIterator[ProxyListener]:
    Recorder.peers = []
    factory = await connection_factory(  # as the server hands its admitted sockets to asyncssh (ssh.py)
        server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        server_factory=Recorder,
        process_factory=tell_peer,
        allow_scp=False,
        login_timeout=5,
    )
    server = await ProxyListener(protocol_hand_over(factory), header_timeout=0.5, max_pending=4).start("127.0.0.1", 0)
    yield server
    server.close()
    await server.wait_closed()


CLIENT_KEY = asyncssh.generate_private_key("ssh-ed25519")


async def ssh_run(port: int) -> str:
    async with asyncssh.connect(
        "127.0.0.1", port, username="ana", known_hosts=None, client_keys=[CLIENT_KEY], agent_path=None, config=None
    ) as conn:
        result = await asyncio.wait_for(conn.run("whoami"), 10)
        return str(result.stdout).strip()


async def closed_by_server(reader: asyncio.StreamReader, timeout: float) -> bool:
    """The server closed the connection without sending a byte (a FIN, or a reset when our
    unread bytes were still in its socket)."""
    try:
        return await asyncio.wait_for(reader.read(100), timeout) == b""
    except ConnectionResetError:
        return True


async def through(listener_port: int, header: bytes, mode: str = "alone") -> str:
    proxy = TcpProxy(listener_port, header, mode)
    port = await proxy.start()
    try:
        return await asyncio.wait_for(ssh_run(port), 15)
    finally:
        await proxy.close()


@pytest.mark.parametrize(
    "header, mode, seen",
    [
        (v1(), "alone", "203.0.113.7 51000"),
        (v1(), "coalesced", "203.0.113.7 51000"),
        (v2(), "alone", "203.0.113.7 51000"),
        (v2(), "split", "203.0.113.7 51000"),
        (v1(("2001:db8::7", 4000), ("2001:db8::1", 22)), "alone", "2001:db8::7 4000"),
        (v2(("2001:db8::7", 4000), ("2001:db8::1", 22)), "coalesced", "2001:db8::7 4000"),
    ],
    ids=["v1", "v1-coalesced", "v2", "v2-split", "v1-ipv6", "v2-ipv6-coalesced"],
)
async def test_the_server_sees_the_players_address(
    listener: ProxyListener, header: bytes, mode: str, seen: str
) -> None:
    assert await through(listener.get_port(), header, mode) == seen
    assert Recorder.peers[-1][:2] == (seen.split()[0], int(seen.split()[1]))
    assert listener.stats.handed_over == 1 and listener.stats.malformed == 0


@pytest.mark.parametrize("header", [v2(local=True), b"PROXY UNKNOWN\r\n"], ids=["v2-local", "v1-unknown"])
async def test_a_balancer_health_check_is_answered_without_reaching_ssh(listener: ProxyListener, header: bytes) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", listener.get_port())
    writer.write(header)
    assert (await asyncio.wait_for(reader.readline(), 2)).startswith(b"SSH-2.0-")
    assert await closed_by_server(reader, 2)
    writer.close()
    assert listener.stats.health_checks == 1 and listener.stats.handed_over == 0
    assert Recorder.peers == []


@pytest.mark.parametrize(
    "header",
    [
        b"PROXY TCP4 999.0.0.1 10.0.0.2 1 2\r\n",  # not an address
        b"PROXY TCP4 203.0.113.7 10.0.0.2 51000\r\n",  # a field missing
        b"PROXY TCP9 a b 1 2\r\n",
        b"PROXY " + b"x" * 120,  # no CRLF within 107 bytes
        V2_SIGNATURE + bytes([0x31, 0x11]) + struct.pack("!H", 12) + bytes(12),  # version 3
        V2_SIGNATURE + bytes([0x21, 0x11]) + struct.pack("!H", 4) + bytes(4),  # address block too short
    ],
    ids=["v1-bad-address", "v1-short", "v1-bad-family", "v1-no-crlf", "v2-bad-version", "v2-short-body"],
)
async def test_malformed_headers_are_refused(listener: ProxyListener, header: bytes) -> None:
    with pytest.raises((asyncssh.Error, ConnectionError, OSError, asyncio.IncompleteReadError)):
        await through(listener.get_port(), header)
    assert listener.stats.malformed == 1 and listener.stats.handed_over == 0
    assert Recorder.peers == []  # asyncssh never saw the connection


async def test_a_connection_without_a_header_is_refused(listener: ProxyListener) -> None:
    with pytest.raises((asyncssh.Error, ConnectionError, OSError)):
        await asyncio.wait_for(ssh_run(listener.get_port()), 10)
    assert listener.stats.malformed == 1 and Recorder.peers == []


async def test_a_silent_or_stalled_connection_is_closed_after_the_header_timeout(listener: ProxyListener) -> None:
    for opening in (b"", v2()[:10]):
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.get_port())
        writer.write(opening)
        await writer.drain()
        started = asyncio.get_running_loop().time()
        assert await closed_by_server(reader, 5)  # not a byte of banner
        assert 0.4 < asyncio.get_running_loop().time() - started < 3
        writer.close()
    assert listener.stats.timeouts == 2


async def test_connections_past_the_pending_cap_are_closed_at_once(listener: ProxyListener) -> None:
    silent = [await asyncio.open_connection("127.0.0.1", listener.get_port()) for _ in range(4)]
    await wait_until(lambda: listener.stats.accepted == 4, what="four accepted")
    reader, writer = await asyncio.open_connection("127.0.0.1", listener.get_port())
    assert await closed_by_server(reader, 0.3)
    assert listener.stats.over_capacity == 1
    for _r, w in [*silent, (reader, writer)]:
        w.close()


async def test_only_the_allowed_balancers_may_send_headers() -> None:
    seen: list[Any] = []
    server = await ProxyListener(seen.append, allowed=["10.0.0.0/8"]).start("127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.get_port())
        writer.write(v1())
        assert await closed_by_server(reader, 2)
        assert server.stats.not_allowed == 1 and seen == []
        writer.close()
    finally:
        server.close()
        await server.wait_closed()


async def test_a_protocol_hand_over_gives_the_transport_the_players_address() -> None:
    """For a server that admits at accept (a gate protocol): what its transport reports."""
    peers: list[Any] = []

    class Gate(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peers.append(transport.get_extra_info("peername"))
            transport.close()

    server = await ProxyListener(protocol_hand_over(Gate)).start("127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.get_port())
        writer.write(v2())
        await asyncio.wait_for(reader.read(100), 2)
        assert peers == [PLAYER]
        writer.close()
    finally:
        server.close()
        await server.wait_closed()


async def test_a_header_sent_to_the_plain_listener_is_refused(tmp_path: Path) -> None:
    """The project's own server does not expect the protocol: a header is a bad SSH banner."""
    config = ServerConfig(port=0, keys_dir=str(tmp_path / "keys"), saves_dir=str(tmp_path / "saves"), gc_tuning=False)
    infos: list[Any] = []
    server = await start_server(config, lambda info: infos.append(info) or DemoApp(info))
    try:
        for header in (v1(), v2()):
            with pytest.raises((asyncssh.Error, ConnectionError, OSError)):
                await through(server.port, header)
        assert infos == []
        # The same client without the proxy is served (so the header is what was refused).
        async with asyncssh.connect(
            "127.0.0.1", server.port, username="ana", known_hosts=None, client_keys=[CLIENT_KEY], agent_path=None
        ) as conn:
            assert conn.get_extra_info("username") == "ana"
    finally:
        await asyncio.wait_for(server.close(), 15)
