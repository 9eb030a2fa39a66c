"""Fixtures for the SSH transport tests: a real server on 127.0.0.1 (free port,
fresh keys folder) and real asyncssh clients with their own keys."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import asyncssh
import pytest

from server.config import ServerConfig
from server.transport.demo_app import DemoApp
from server.transport.session import SessionInfo
from server.transport.ssh import Server, start_server
from tests import ssh_terminal
from tests.ssh_terminal import Terminal


class GuestClient(asyncssh.SSHClient):
    """Tries keyboard-interactive with no password, as OpenSSH does."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str, prompts: Any) -> list[str]:
        return [""] * len(prompts)


async def _wait_until(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout}s")
        await asyncio.sleep(0.005)


# Helpers are handed out as fixtures, so that test modules import nothing from
# this folder (its package name would be "server", like the real package).


@pytest.fixture
def wait_until() -> Callable[..., Any]:
    """await wait_until(predicate, timeout=10, what="...") polls every 5 ms."""
    return _wait_until


@pytest.fixture
def strip_ansi() -> Callable[[str], str]:
    return ssh_terminal.strip_ansi


@pytest.fixture
def client_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def infos() -> list[SessionInfo]:
    """SessionInfo of every app the test servers started, in order."""
    return []


@pytest.fixture
async def start(tmp_path, infos):
    """start(**config_overrides) -> running Server; closed after the test."""
    servers: list[Server] = []

    def factory(info: SessionInfo) -> DemoApp:
        infos.append(info)
        return DemoApp(info)

    async def _start(
        app_factory: Callable[[SessionInfo], Any] | None = None, login_check: Any = None, **overrides: Any
    ) -> Server:
        settings: dict[str, Any] = {
            "port": 0,
            "keys_dir": str(tmp_path / "keys"),
            "saves_dir": str(tmp_path / "saves"),
            "gc_tuning": False,
        }
        settings.update(overrides)
        server = await start_server(ServerConfig(**settings), app_factory or factory, login_check=login_check)
        servers.append(server)
        return server

    yield _start
    for server in servers:
        await asyncio.wait_for(server.close(), 15)


@pytest.fixture
async def connect(client_key):
    """connect(server, ...) -> SSHClientConnection (keys: the test's client key)."""
    conns: list[asyncssh.SSHClientConnection] = []

    async def _connect(
        server: Server,
        *,
        username: str = "alice",
        key: asyncssh.SSHKey | None = None,
        guest: bool = False,
        **kwargs: Any,
    ) -> asyncssh.SSHClientConnection:
        options: dict[str, Any] = dict(
            username=username,
            known_hosts=None,
            agent_path=None,
            config=None,
            password=None,
        )
        if guest:
            options.update(client_keys=None, client_factory=GuestClient)
        else:
            options.update(client_keys=[key or client_key])
        options.update(kwargs)
        conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", server.port, **options), 10)
        conns.append(conn)
        return conn

    yield _connect
    for conn in conns:
        conn.close()
    for conn in conns:
        try:
            await asyncio.wait_for(conn.wait_closed(), 5)
        except Exception:
            pass


async def _close_with_session(conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess) -> None:
    """Close the connection once its session has ended, as OpenSSH's client does (a server that
    stops then sees its connections leave after their goodbye, instead of waiting out its grace
    for clients that stay connected with no session)."""
    await process.wait_closed()
    conn.close()


@pytest.fixture
async def open_terminal(connect):
    """open_terminal(server, size=(80, 24), term="xterm-256color", ...) -> Terminal.

    The client closes its connection when the session ends, as OpenSSH's does; a test about the
    server closing connections itself passes close_with_session=False (the client then stays
    connected, as a client that ignores the end of its session)."""
    watchers: list[asyncio.Task[None]] = []

    async def _open(
        server: Server,
        *,
        size: tuple[int, int] = (80, 24),
        term: str = "xterm-256color",
        env: dict[str, str] | None = None,
        session_options: dict[str, Any] | None = None,
        close_with_session: bool = True,
        **connect_options: Any,
    ) -> Terminal:
        conn = await connect(server, **connect_options)
        process = await conn.create_process(
            term_type=term, term_size=size, encoding=None, env=env or {}, **(session_options or {})
        )
        if close_with_session:
            watchers.append(asyncio.ensure_future(_close_with_session(conn, process)))
        return Terminal(conn, process)

    yield _open
    for watcher in watchers:
        watcher.cancel()
