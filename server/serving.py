"""What every way of serving shares once it listens: the lines that tell the host how players
connect, and Ctrl-C / SIGTERM turned into a call (the single server, server/serve.py; a cluster
node or a worker, server/cluster/serve_node.py)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator
from typing import Any

from server.transport.client_env import display_host

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def print_connect(server: Any, host: str) -> None:
    """The host key's fingerprint and the command players type."""
    print(f"Host key fingerprint: {server.host_key_fingerprint}", flush=True)
    port_part = "" if server.port == 22 else f"-p {server.port} "
    print(f"Connect with: ssh {port_part}{display_host(host)}", flush=True)


@contextlib.contextmanager
def on_stop_signals(handler: Callable[[], None]) -> Iterator[None]:
    """Call ``handler`` on SIGINT and SIGTERM while inside (nothing outside the main thread: tests)."""
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        with contextlib.suppress(RuntimeError, ValueError):
            loop.add_signal_handler(signum, handler)
    try:
        yield
    finally:
        for signum in STOP_SIGNALS:
            with contextlib.suppress(RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
