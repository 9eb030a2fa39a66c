"""The server's event loop under Python 3.12 and 3.13: what a served app must not change there
(ui/compat/served_app.py) and the transports that must not stay in cycles
(server/transport/asyncio_compat.py). On Python 3.11 these hold without the fixes (no eager
tasks, no cached write callback); .ci/run runs them on 3.13 too.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import asyncssh
from textual.app import App, ComposeResult
from textual.widgets import Static

from server.transport import asyncio_compat
from ui.compat import served_app


class Hello(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("hello")


async def _run_an_app_as_the_server_does() -> None:
    app = Hello()

    async def leave(pilot: Any) -> None:
        await pilot.pause()
        pilot.app.exit()

    served_app.serve(app, no_color=False)
    await asyncio.wait_for(app.run_async(headless=True, size=(40, 10), auto_pilot=leave), 30)


async def test_a_served_app_leaves_the_loop_task_factory_alone():
    loop = asyncio.get_running_loop()
    before = loop.get_task_factory()
    await _run_an_app_as_the_server_does()
    assert loop.get_task_factory() is before
    started: list[bool] = []

    async def mark() -> None:
        started.append(True)

    task = loop.create_task(mark())
    assert started == []  # not started eagerly
    await task
    assert started == [True]


class _AcceptAll(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return True


async def test_asyncssh_authenticates_after_an_app_ran_on_the_loop():
    """asyncssh 2.24.1 drops its authentication replies when tasks start eagerly (Textual sets that)."""
    await _run_an_app_as_the_server_does()
    acceptor = await asyncssh.listen(
        "127.0.0.1",
        0,
        server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        server_factory=_AcceptAll,
    )
    try:
        port = acceptor.sockets[0].getsockname()[1]
        conn = await asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1",
                port,
                username="ana",
                known_hosts=None,
                agent_path=None,
                config=None,
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            ),
            10,
        )
        conn.close()
        await conn.wait_closed()
    finally:
        acceptor.close()
        await acceptor.wait_closed()


class _Quiet(asyncio.Protocol):
    pass


async def test_an_aborted_transport_is_freed_without_the_cycle_collector():
    asyncio_compat.break_transport_cycles()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(_Quiet, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport, _ = await loop.create_connection(_Quiet, "127.0.0.1", port)
    transport.write(b"x")
    ref = weakref.ref(transport)
    gc.collect()
    gc.disable()
    try:
        transport.abort()  # not close(): the way a dropped connection ends
        del transport
        await asyncio.sleep(0.05)  # connection_lost runs on the loop
        assert ref() is None, gc.get_referrers(ref())
    finally:
        gc.enable()
        server.close()
        await server.wait_closed()
