"""Dead peers found by the kernel: TCP keepalive probes and a user timeout on each accepted socket.

A player who vanishes (laptop lid closed, Wi-Fi gone) leaves a connection that sends nothing. SSH
keepalives find it too, but each is a request the server encrypts, sends and whose answer it
reads, in Python: about 0.3 ms of CPU, so at 1,000 silent sessions every 30 s over 1 % of a core
(docs/performance.md). The kernel's probes cost the server nothing. So the kernel finds dead
peers: a silent one after idle + count x interval (60 s by default, sooner than the SSH
keepalive's 90-120 s), one that stopped acknowledging data after the user timeout; and the SSH
keepalive, rarer (server/config.py), stays for what TCP cannot see: a client whose machine
answers but whose program hangs, and a balancer in between, whose TCP is not the player's.
"""

from __future__ import annotations

import contextlib
import socket

from server.config import ServerConfig


def probe_dead_peers(sock: socket.socket, config: ServerConfig) -> None:
    """Set the kernel's keepalive probes and user timeout on an accepted connection. An option the
    platform lacks (TCP_USER_TIMEOUT is Linux's; macOS names the idle time TCP_KEEPALIVE) is skipped:
    the system's default holds there."""
    options = [
        (socket.SOL_SOCKET, "SO_KEEPALIVE", 1),
        (socket.IPPROTO_TCP, "TCP_KEEPIDLE", config.tcp_keepalive_idle_seconds),
        (socket.IPPROTO_TCP, "TCP_KEEPALIVE", config.tcp_keepalive_idle_seconds),  # macOS: the idle time
        (socket.IPPROTO_TCP, "TCP_KEEPINTVL", config.tcp_keepalive_interval_seconds),
        (socket.IPPROTO_TCP, "TCP_KEEPCNT", config.tcp_keepalive_count),
        (socket.IPPROTO_TCP, "TCP_USER_TIMEOUT", config.tcp_user_timeout_seconds * 1000),  # milliseconds
    ]
    for level, name, value in options:
        number = getattr(socket, name, None)
        if number is None or value <= 0 or (name == "TCP_KEEPALIVE" and hasattr(socket, "TCP_KEEPIDLE")):
            continue
        with contextlib.suppress(OSError):
            sock.setsockopt(level, number, value)
