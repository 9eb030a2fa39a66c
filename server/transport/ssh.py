"""The asyncssh server: one process, one event loop, one Textual app per session.

Entry points::

    server = await start_server(config, app_factory)   # app_factory(SessionInfo) -> App
    server.port, server.host_key_fingerprint
    await server.close()        # graceful: every session is told, then closed
    await server.wait_closed()

    serve_forever(config, app_factory)   # blocking; until SIGINT / SIGTERM

Identity: any public key is accepted; its SHA256 fingerprint, with the SSH
user name, reaches the app factory. A client without a key gets in as a guest
through keyboard-interactive (no prompts) when ``allow_guests`` is on. (Plain
"none" authentication cannot be offered as well: clients try it first, and
accepting it would mean never seeing their keys.)

Refused with a one-line message: connections past the per-address or global
cap (SSH disconnect reason), exec/scp/sftp and shells without a PTY (stderr
line, exit status 1), port forwarding (channel-open failure reason). Remote
forwarding, agent and X11 forwarding are refused (the protocol carries no
message for those requests). One session channel per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import signal
import socket
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

import asyncssh
from textual.app import App

from server.config import ServerConfig
from server.logging_setup import configure_logging, log_event
from server.transport.gc_tuning import GcTuner
from server.transport.hostkey import load_or_create_host_key
from server.transport.session import (
    STOPPING_MESSAGE,
    BoundedEnvChannel,
    Identity,
    ServerStopping,
    SessionInfo,
    SSHSession,
    sanitize_text,
)

__all__ = ["Server", "ServerStopping", "SessionInfo", "serve_forever", "start_server"]

log = logging.getLogger("citadels.server")

AppFactory = Callable[[SessionInfo], App[Any]]

FORWARDING_REFUSED = "Port forwarding is disabled on this server."
ONE_SESSION_ONLY = "Only one session per connection."


# ------------------------------------------------------------------ join slots


class _StartSlot:
    """One of the few app starts allowed at once; released on first frame."""

    __slots__ = ("_held", "_semaphore")

    def __init__(self, semaphore: asyncio.Semaphore) -> None:
        self._semaphore = semaphore
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._semaphore.release()


# ----------------------------------------------------------------- gc tuning


def _stop_reading(conn: asyncssh.SSHServerConnection, transport: Any) -> None:
    conn._recv_handler = _read_nothing  # type: ignore[attr-defined]
    if transport is not None and transport.is_closing() and hasattr(transport, "_read_ready_cb"):
        transport._read_ready_cb = _read_nothing


def _read_nothing() -> bool:
    return False


class _ConnectionHandler(asyncssh.SSHServer):
    """asyncssh's per-connection callbacks: admission, identity, channels."""

    def __init__(self, server: Server) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self._addr = "?"
        self._port = 0
        self._admitted = False
        self._refusal: str | None = None
        self._pending: tuple[str | None, bool] = (None, True)
        self._identity: Identity | None = None
        self._session_opened = False
        self._transport: Any = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        self._transport = getattr(conn, "_transport", None)  # asyncssh drops it before connection_lost
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._addr, self._port = str(peer[0]), int(peer[1])
        self._refusal = self._server._admit(self._addr)
        self._admitted = self._refusal is None
        self._server._connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self._server._connections.discard(self._conn)
            # asyncssh's connection keeps its packet reader as a bound method of
            # itself, and asyncio's socket transport its read callback: cycles
            # holding the transport, socket, ciphers and logger that only a full
            # collection of the (frozen) heap would free. Broken once asyncssh
            # has finished its own clean-up (it does the same when it stops reading).
            asyncio.get_running_loop().call_soon(_stop_reading, self._conn, self._transport)
            self._transport = None
        if self._admitted:
            self._admitted = False
            self._server._release(self._addr)

    def begin_auth(self, username: str) -> bool:
        if self._refusal is None and self._server.closing:
            self._refusal = STOPPING_MESSAGE
        if self._refusal is not None and self._conn is not None:
            log_event(log, logging.INFO, "connection refused", peer=self._addr, reason=self._refusal)
            code = asyncssh.DISC_BY_APPLICATION if self._server.closing else asyncssh.DISC_TOO_MANY_CONNECTIONS
            self._conn.disconnect(code, self._refusal)
        return True

    # Public keys: all accepted; the last key validated before success is the one used.
    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._pending = (key.get_fingerprint("sha256"), False)
        return True

    def validate_ca_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return False

    # Guests: keyboard-interactive with no prompts.
    def kbdint_auth_supported(self) -> bool:
        return self._server.config.allow_guests

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        if not self._server.config.allow_guests:
            return False
        self._pending = (None, True)
        return True

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return False

    def password_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def auth_completed(self) -> None:
        assert self._conn is not None
        fingerprint, is_guest = self._pending
        username = sanitize_text(str(self._conn.get_extra_info("username") or "")) or "guest"
        self._identity = Identity(
            username=username,
            key_fingerprint=fingerprint,
            is_guest=is_guest,
            peer_host=self._addr,
            peer_port=self._port,
        )

    # Channels
    def session_requested(self) -> Any:
        if self._identity is None or self._conn is None:
            return False
        if self._session_opened:
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, ONE_SESSION_ONLY)
        self._session_opened = True
        config = self._server.config
        chan = self._conn.create_server_channel(encoding=None, window=config.input_window_bytes)
        chan.__class__ = BoundedEnvChannel
        chan._citadels_max_env_vars = config.max_env_vars  # type: ignore[attr-defined]
        chan._citadels_max_env_bytes = config.max_env_bytes  # type: ignore[attr-defined]
        return chan, SSHSession(self._server, self._identity)

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> Any:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, FORWARDING_REFUSED)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> Any:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, FORWARDING_REFUSED)

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> Any:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, FORWARDING_REFUSED)

    def tap_requested(self, unit: int | None) -> Any:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, FORWARDING_REFUSED)


# ---------------------------------------------------------------------- server


class Server:
    """A running SSH server. Made by :func:`start_server`."""

    def __init__(self, config: ServerConfig, app_factory: AppFactory, host_key_fingerprint: str) -> None:
        self.config = config
        self.app_factory = app_factory
        self.host_key_fingerprint = host_key_fingerprint
        self.host = config.host
        self.port = config.port
        self._acceptor: Any = None  # asyncssh's SSHAcceptor, or a ProxyListener (proxy_protocol)
        self._per_address: Counter[str] = Counter()
        self._admitted_total = 0
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._sessions: set[SSHSession] = set()
        self.ended_session_stats: deque[dict[str, Any]] = deque(maxlen=200)
        self._start_semaphore = asyncio.Semaphore(config.max_concurrent_app_starts)
        self._closing = False
        self._close_task: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()
        self.gc = GcTuner(config, lambda: len(self._sessions))

    # --- SessionHost
    @property
    def closing(self) -> bool:
        return self._closing

    def start_slot_free(self) -> bool:
        return not self._start_semaphore.locked()

    async def acquire_start_slot(self) -> _StartSlot:
        await self._start_semaphore.acquire()
        return _StartSlot(self._start_semaphore)

    def session_opened(self, session: SSHSession) -> None:
        self._sessions.add(session)

    def session_closed(self, session: SSHSession) -> None:
        self._sessions.discard(session)
        self.ended_session_stats.append(session.stats())
        self.gc.session_closed(len(self._sessions))
        _clear_textual_instance_caches()

    def app_started(self, session: SSHSession) -> None:
        self.gc.app_started()

    def note_input(self) -> None:
        self.gc.note_input()

    # --- admission
    def _admit(self, addr: str) -> str | None:
        if self._closing:
            return STOPPING_MESSAGE
        if self._admitted_total >= self.config.max_sessions:
            return f"The server is full ({self.config.max_sessions} sessions); please try again later."
        if self._per_address[addr] >= self.config.max_sessions_per_address:
            return f"Too many sessions from your address (limit {self.config.max_sessions_per_address})."
        self._admitted_total += 1
        self._per_address[addr] += 1
        return None

    def _release(self, addr: str) -> None:
        self._admitted_total -= 1
        self._per_address[addr] -= 1
        if self._per_address[addr] <= 0:
            del self._per_address[addr]

    # --- monitoring
    @property
    def session_count(self) -> int:
        """Sessions whose app is starting or running."""
        return len(self._sessions)

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    def session_stats(self) -> list[dict[str, Any]]:
        return [session.stats() for session in list(self._sessions)]

    def sessions(self) -> list[SessionInfo]:
        return [s.info for s in list(self._sessions) if s.info is not None]

    # --- lifecycle
    async def _start(self, host_key: asyncssh.SSHKey) -> None:
        config = self.config
        options: dict[str, Any] = dict(
            server_factory=lambda: _ConnectionHandler(self),
            server_host_keys=[host_key],
            line_editor=False,
            encoding=None,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            kbdint_auth=config.allow_guests,
            password_auth=False,
            public_key_auth=True,
            host_based_auth=False,
            gss_host=None,
            rdns_lookup=False,
            login_timeout=config.login_timeout_seconds,
            keepalive_interval=config.keepalive_interval_seconds,
            keepalive_count_max=config.keepalive_count_max,
            window=config.input_window_bytes,
            reuse_address=True,
        )
        if not config.ssh_compression:
            options["compression_algs"] = ["none"]
        # Accepting connections from a clean context: the callbacks asyncio and
        # asyncssh schedule for each connection copy the context they were
        # registered in, and must never carry a Textual app's context vars.
        loop = asyncio.get_running_loop()

        async def listen() -> Any:
            if config.proxy_protocol:  # a balancer's PROXY header first, then SSH (proxy_listener.py)
                from server.transport.proxy_listener import ProxyListener, ssh_hand_over

                connection_options = {k: v for k, v in options.items() if k != "reuse_address"}
                listener = ProxyListener(
                    ssh_hand_over(asyncssh.SSHServerConnectionOptions(**connection_options)),
                    header_timeout=config.proxy_header_timeout_seconds,
                    allowed=config.proxy_allowed or None,
                )
                return await listener.start(config.host, config.port, reuse_port=config.reuse_port)
            if config.reuse_port:  # several worker processes on one port (citadels serve --workers)
                return await asyncssh.listen(config.host, config.port, reuse_port=True, **options)
            return await asyncssh.listen(config.host, config.port, **options)

        self._acceptor = await loop.create_task(listen(), context=contextvars.Context())
        self.port = self._acceptor.get_port()
        self.gc.start()
        log_event(log, logging.INFO, "listening", host=config.host, port=self.port, host_key=self.host_key_fingerprint)

    def stop_accepting(self) -> None:
        """Take no new connections; the running sessions go on (a draining cluster node: the balancer's
        check fails and new players go to other nodes)."""
        if self._acceptor is not None:
            self._acceptor.close()

    def close(self, message: str = STOPPING_MESSAGE) -> asyncio.Task[None]:
        """Begin a graceful shutdown (idempotent); await the result, or wait_closed()."""
        if self._close_task is None:
            loop = asyncio.get_running_loop()
            self._close_task = loop.create_task(
                self._shutdown(message), name="citadels-shutdown", context=contextvars.Context()
            )
        return self._close_task

    async def wait_closed(self) -> None:
        await self._closed.wait()

    async def __aenter__(self) -> Server:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _shutdown(self, message: str) -> None:
        self._closing = True
        started = time.monotonic()
        try:
            if self._acceptor is not None:
                self._acceptor.close()
            sessions = list(self._sessions)
            log_event(log, logging.INFO, "shutting down", sessions=len(sessions), connections=len(self._connections))
            for session in sessions:
                session.notify_stopping(message)
            waits = [session.closed for session in sessions if not session.closed.done()]
            if waits:
                await asyncio.wait(waits, timeout=self.config.shutdown_grace_seconds + 0.5)
            # Let the goodbye lines and exit statuses leave, then cut whatever is left.
            await _wait_until(lambda: not self._connections, 0.5)
            for conn in list(self._connections):
                with contextlib.suppress(Exception):
                    conn.disconnect(asyncssh.DISC_BY_APPLICATION, message)
            await _wait_until(lambda: not self._connections, 0.5)
            for conn in list(self._connections):
                with contextlib.suppress(Exception):
                    conn.abort()
            await _wait_until(lambda: not self._connections, 0.5)
        finally:
            self.gc.stop()
            self._closed.set()
            log_event(log, logging.INFO, "stopped", seconds=round(time.monotonic() - started, 2))


async def _wait_until(predicate: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:  # noqa: ASYNC110 (a predicate over several objects, polled at shutdown only)
        await asyncio.sleep(0.02)


def _clear_textual_instance_caches() -> None:
    """Work around Textual 8.2.8 keeping departed sessions' widgets reachable.

    ``StylesCache.get_inner_outer`` is an ``lru_cache`` on an instance method
    (Textualize/textual#6665): its entries hold StylesCache instances, and
    through them widgets of apps that have ended. Clearing it when a session
    ends costs a few cache misses in the others.
    """
    try:
        from textual._styles_cache import StylesCache

        StylesCache.get_inner_outer.cache_clear()
    except Exception:  # pragma: no cover - a later Textual may drop it
        pass


async def start_server(config: ServerConfig, app_factory: AppFactory) -> Server:
    """Start serving ``app_factory(info)`` apps over SSH; returns once listening."""
    key, fingerprint = load_or_create_host_key(config.keys_dir)
    server = Server(config, app_factory, fingerprint)
    await server._start(key)
    return server


def _display_host(host: str) -> str:
    if host in ("", "0.0.0.0", "::"):
        return socket.gethostname()
    return host


def serve_forever(config: ServerConfig, app_factory: AppFactory) -> int:
    """Run the server until SIGINT or SIGTERM, then shut down gracefully.

    Prints the host-key fingerprint and the ssh command to connect. Returns an
    exit status for the CLI.
    """
    configure_logging(json_lines=config.json_logs, level=config.log_level, asyncssh_level=config.asyncssh_log_level)
    return asyncio.run(_serve(config, app_factory))


async def _serve(config: ServerConfig, app_factory: AppFactory) -> int:
    server = await start_server(config, app_factory)
    print(f"Host key fingerprint: {server.host_key_fingerprint}", flush=True)
    print(f"Connect with: ssh -p {server.port} {_display_host(config.host)}", flush=True)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    for signum in signals:
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
        print("Stopping...", file=sys.stderr, flush=True)
        await server.close()
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)
    return 0
