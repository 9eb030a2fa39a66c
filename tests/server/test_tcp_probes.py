"""Dead peers are the kernel's to find: every accepted connection carries the configured TCP
keepalive probes and user timeout (a real server, a real asyncssh client), and the SSH keepalive
is rare unless a balancer stands between the server and the player."""

from __future__ import annotations

import socket
import sys

import pytest

from server.config import ServerConfig

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the option names checked are Linux's")


def _server_socket(server) -> socket.socket:
    (conn,) = server._connections
    sock = conn.get_extra_info("socket")
    assert sock is not None
    return sock


async def test_an_accepted_connection_is_probed_by_the_kernel(start, connect, wait_until) -> None:
    server = await start(tcp_keepalive_idle_seconds=41, tcp_keepalive_interval_seconds=7, tcp_keepalive_count=4)
    await connect(server)
    await wait_until(lambda: len(server._connections) == 1, what="the connection on the server")
    sock = _server_socket(server)
    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 41
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == 7
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 4
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 60_000


async def test_zero_leaves_the_systems_default(start, connect, wait_until) -> None:
    default = socket.socket()
    system_idle = default.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE)
    default.close()
    server = await start(tcp_keepalive_idle_seconds=0, tcp_user_timeout_seconds=0)
    await connect(server)
    await wait_until(lambda: len(server._connections) == 1, what="the connection on the server")
    sock = _server_socket(server)
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == system_idle
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 0
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 3


def test_the_ssh_keepalive_is_rare_unless_a_balancer_hides_the_player() -> None:
    assert ServerConfig().ssh_keepalive_seconds() == 300.0
    assert ServerConfig(proxy_protocol=True, proxy_allowed=["10.0.0.0/8"]).ssh_keepalive_seconds() == 30.0
    assert ServerConfig(keepalive_interval_seconds=45).ssh_keepalive_seconds() == 45.0
