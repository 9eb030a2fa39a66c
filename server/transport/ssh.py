"""The SSH server: one process, one event loop, one Textual app per session.

Entry points::

    server = await start_server(config, app_factory)   # app_factory(SessionInfo) -> App
    server.port, server.host_key_fingerprint
    server.admission_stats()    # startups, sessions, penalties, refusals by cause
    await server.close()        # graceful: every session is told, then closed
    await server.wait_closed()

    serve_forever(config, app_factory)   # blocking; until SIGINT / SIGTERM

Connections are admitted at accept, before any SSH work (gate.py, admission.py: startups,
the login grace, per-source penalties); then asyncssh runs them (connection.py: identity, the
session caps, the session channel) and each session runs its app (session.py, driver.py).

Refused with a one-line message: connections past the per-address or global session cap
(SSH disconnect reason), exec/scp/sftp and shells without a PTY (stderr line, exit status 1),
port forwarding (channel-open failure reason). Remote forwarding, agent and X11 forwarding are
refused (the protocol carries no message for those requests). One session channel per
connection. Starting fails with :class:`StartError` (one line) when the host key cannot be
read or the address cannot be listened on.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import socket
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

import asyncssh
from textual.app import App

from server import event_loop
from server.config import ServerConfig
from server.event_loop import EventLoopUnavailable
from server.logging_setup import configure_logging, log_event
from server.transport import compat
from server.transport.admission import Admission, Startup, source_of
from server.transport.connection import ConnectionHandler
from server.transport.gate import Acceptor
from server.transport.gc_tuning import GcTuner
from server.transport.input_budget import BudgetMemory, start_metering, stop_metering
from server.transport.input_pipeline import PEOPLE
from server.transport.listening import Prepared, StartError, _listen, prepare_start
from server.transport.proxy_listener import addressed
from server.transport.screen_wire import MoveTo
from server.transport.session import ServerStopping, SessionInfo, SSHSession
from server.transport.session_texts import STOPPING_MESSAGE
from server.transport.tcp_probes import probe_dead_peers

__all__ = [
    "Prepared",
    "Server",
    "ServerStopping",
    "SessionInfo",
    "StartError",
    "prepare_start",
    "serve_forever",
    "start_server",
]

log = logging.getLogger("citadels.server")

AppFactory = Callable[[SessionInfo], App[Any]]
# (key fingerprint or None for a guest, address) -> the line a refused client reads, or None.
# Asked before authentication with no key (address bans) and again once the key is known, so a
# banned client never gets a session (nor an app).
LoginCheck = Callable[[str | None, str], str | None]


# Connections accepted per wake-up of the loop (a refused one costs a few system calls).
ACCEPTS_PER_WAKEUP = 32


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
            PEOPLE.apps_starting -= 1


# ---------------------------------------------------------------------- server


class Server:
    """A running SSH server. Made by :func:`start_server`."""

    def __init__(
        self,
        config: ServerConfig,
        app_factory: AppFactory,
        host_key_fingerprint: str,
        login_check: LoginCheck | None = None,
    ) -> None:
        self.config = config
        self.app_factory = app_factory
        self.login_check = login_check
        self.host_key_fingerprint = host_key_fingerprint
        self.host = config.host
        self.port = config.port
        self._listener: asyncio.Server | None = None
        # Our acceptor (gate.py), or with proxy_protocol a ProxyListener (proxy_listener.py).
        self._acceptor: Any = None
        self._conn_factory: Callable[[], asyncio.Protocol] | None = None
        self._arriving: dict[Any, Startup] = {}
        self.admission = Admission(config)
        self._budgets = BudgetMemory()
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
        PEOPLE.apps_starting += 1  # input that waited gives way until the app's first frame
        return _StartSlot(self._start_semaphore)

    def session_opened(self, session: SSHSession) -> None:
        self._sessions.add(session)
        self._budgets.restore(source_of(session.peer_host), session.budget)

    def session_closed(self, session: SSHSession) -> None:
        self._sessions.discard(session)
        self._budgets.remember(source_of(session.peer_host), session.budget)
        self.ended_session_stats.append(session.stats())
        self.gc.session_closed(len(self._sessions))
        _clear_textual_instance_caches()

    def app_started(self, session: SSHSession) -> None:
        self.gc.app_started()

    def note_input(self) -> None:
        self.gc.note_input()

    def keys_dropped(self, count: int) -> None:
        self.admission.count("rate", count)

    # --- admission at accept (gate.py) and at login (connection.py)
    def accepted(self, conn: socket.socket, address: Any) -> None:
        """A TCP connection was accepted (gate.py): refuse it with one line, or hand it to asyncssh."""
        verdict = self.admission.accept(str(address[0]) if address else "?")
        if isinstance(verdict, str) or self._conn_factory is None:
            cause = verdict if isinstance(verdict, str) else "stopping"
            line = self.admission.refusal_line(cause, str(address[0]) if address else "?")
            if line is not None:
                with contextlib.suppress(OSError):
                    conn.send(line, socket.MSG_DONTWAIT)  # never waits: a fresh connection's buffer is empty
            conn.close()
            return
        size = self.config.socket_receive_buffer_bytes
        with contextlib.suppress(OSError):
            conn.setblocking(False)
            if size:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, size)
        probe_dead_peers(conn, self.config)
        factory = self._conn_factory

        def make() -> asyncio.Protocol:
            connection = factory()
            self._arriving[connection] = verdict  # taken by its handler's connection_made
            return connection

        loop = asyncio.get_running_loop()
        # (addressed: behind a balancer, the transport reports the player the header named, on any loop)
        connect = loop.connect_accepted_socket(addressed(make, conn), sock=conn)
        task = loop.create_task(connect, context=contextvars.Context())
        task.add_done_callback(functools.partial(self._handed_over, conn, verdict))

    def _handed_over(self, conn: socket.socket, startup: Startup, task: asyncio.Task[Any]) -> None:
        if task.cancelled() or task.exception() is not None:
            self.admission.refused(startup)  # never reached asyncssh: nobody to penalise
            conn.close()

    def take_arriving(self, conn: asyncssh.SSHServerConnection) -> Startup | None:
        """The startup of a connection just handed to asyncssh (ConnectionHandler)."""
        return self._arriving.pop(conn, None)

    def connection_opened(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connections.add(conn)

    def connection_closed(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connections.discard(conn)

    def session_refusal(self, addr: str, key: str | None = None) -> tuple[str, str] | None:
        """Why a login from ``addr`` (with ``key``, once known) would be refused now (cause, one
        line), or None."""
        config = self.config
        if self._closing:
            return "stopping", STOPPING_MESSAGE
        if self.login_check is not None:
            banned = self.login_check(key, addr)
            if banned is not None:
                return "banned", banned
        if self._admitted_total >= config.max_sessions:
            return "full", f"The server is full ({config.max_sessions} sessions); please try again later."
        if self._per_address[addr] >= config.max_sessions_per_address:
            return "per_address", f"Too many sessions from your address (limit {config.max_sessions_per_address})."
        return None

    def take_session(self, addr: str, key: str | None) -> tuple[str, str] | None:
        """Count an authenticated connection as a session, unless the caps are reached or it is
        banned."""
        refusal = self.session_refusal(addr, key)
        if refusal is None:
            self._admitted_total += 1
            self._per_address[addr] += 1
        return refusal

    def release_session(self, addr: str) -> None:
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

    def send_screens_home(self) -> int:
        """Screens moved here from this host's other workers go back to them (this worker drains):
        their players stay connected. Returns how many go."""
        return sum(s.move_to(MoveTo(s.front)) for s in list(self._sessions) if s.front)

    @property
    def refusals(self) -> Counter[str]:
        """Connections (and, for "rate", keys) refused or closed, by cause (admission.CAUSES)."""
        return self.admission.refusals

    def admission_stats(self) -> dict[str, Any]:
        """Figures for the admin tools and benchmarks: startups, sessions, penalties, refusals."""
        stats = self.admission.stats()
        stats.update(
            sessions=self._admitted_total,
            apps=len(self._sessions),
            connections=len(self._connections),
        )
        return stats

    # --- lifecycle
    async def _start(self, host_key: asyncssh.SSHKey, listener: asyncio.Server | None = None) -> None:
        config = self.config
        options: dict[str, Any] = dict(
            server_factory=lambda: ConnectionHandler(self),
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
            # The admission's grace closes startups first (and counts them); asyncssh's own
            # timer is a backstop.
            login_timeout=config.login_timeout_seconds + 5,
            keepalive_interval=config.ssh_keepalive_seconds(),
            keepalive_count_max=config.keepalive_count_max,
            window=config.input_window_bytes,
            encryption_algs=config.ssh_ciphers,
            mac_algs=config.ssh_macs,
            host=config.host,
            port=config.port,
        )
        if not config.ssh_compression:
            options["compression_algs"] = ["none"]
        loop = asyncio.get_running_loop()
        self._conn_factory = await compat.connection_factory(**options)
        self.admission.start(loop)

        if config.proxy_protocol:
            # A balancer's PROXY header first, then SSH (proxy_listener.py): the player's address is
            # known once the header is read, and the connection goes through the same admission as
            # at accept (penalties, MaxStartups, per-source caps) with that address.
            if listener is not None:
                listener.close()

            async def admit(sock: socket.socket) -> None:
                self.accepted(sock, sock.getpeername())

            async def proxy_listen() -> Any:
                from server.transport.proxy_listener import ProxyListener

                proxy = ProxyListener(
                    admit,
                    header_timeout=config.proxy_header_timeout_seconds,
                    allowed=config.proxy_allowed or None,
                )
                return await proxy.start(config.host, config.port, reuse_port=config.reuse_port)

            try:
                self._acceptor = await loop.create_task(proxy_listen(), context=contextvars.Context())
            except OSError as error:
                self.admission.close()
                raise StartError(f"cannot listen on {config.host or '*'}:{config.port}: {error}") from None
            self.port = self._acceptor.get_port()
        else:
            try:
                self._listener = listener or await _listen(config)
            except StartError:
                self.admission.close()
                raise
            self.port = self._listener.sockets[0].getsockname()[1]
            self._acceptor = Acceptor(loop, self, backlog=config.listen_backlog, per_wakeup=ACCEPTS_PER_WAKEUP)
            self._acceptor.start(self._listener.sockets)
        start_metering(loop)
        self.gc.start()
        log_event(
            log,
            logging.INFO,
            "listening",
            host=config.host,
            port=self.port,
            host_key=self.host_key_fingerprint,
            event_loop=event_loop.loop_name(),
        )

    def stop_accepting(self) -> None:
        """Take no new connections; the running sessions go on (a draining cluster node: the balancer's
        check fails and new players go to other nodes)."""
        if self._acceptor is not None:
            self._acceptor.close()
        if self._listener is not None:
            self._listener.close()

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
        self.admission.stopping = True
        started = time.monotonic()
        try:
            if self._acceptor is not None:
                self._acceptor.close()
            if self._listener is not None:
                self._listener.close()
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
            self.admission.close()
            if self._acceptor is not None:
                stop_metering(asyncio.get_running_loop())
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
    compat.clear_styles_cache()


async def start_server(
    config: ServerConfig,
    app_factory: AppFactory,
    login_check: LoginCheck | None = None,
    prepared: Prepared | None = None,
) -> Server:
    """Start serving ``app_factory(info)`` apps over SSH; returns once listening.

    ``login_check`` (the host's bans) refuses a client at authentication, with its line.
    ``prepared``: from :func:`prepare_start` (else it is called here).

    Raises :class:`StartError` (one line) when the host key cannot be read or made, or the
    address cannot be listened on.
    """
    prepared = prepared or await prepare_start(config)
    server = Server(config, app_factory, prepared.fingerprint, login_check)
    try:
        await server._start(prepared.host_key, prepared.listener)
    except BaseException:
        prepared.close()
        raise
    return server


def serve_forever(config: ServerConfig, app_factory: AppFactory) -> int:
    """Run the server until SIGINT or SIGTERM, then shut down gracefully.

    Prints the host-key fingerprint and the ssh command to connect. Returns an
    exit status for the CLI.
    """
    configure_logging(json_lines=config.json_logs, level=config.log_level, asyncssh_level=config.asyncssh_log_level)
    try:
        return event_loop.run(_serve(config, app_factory), config.event_loop)
    except (StartError, EventLoopUnavailable) as error:
        print(f"citadels serve: {error}", file=sys.stderr, flush=True)
        return 1


async def _serve(config: ServerConfig, app_factory: AppFactory) -> int:
    from server.serving import on_stop_signals, print_connect

    server = await start_server(config, app_factory)
    print_connect(server, config.host)
    stop = asyncio.Event()
    with on_stop_signals(stop.set):
        await stop.wait()
        print("Stopping...", file=sys.stderr, flush=True)
        await server.close()
    return 0
