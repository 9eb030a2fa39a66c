"""One SSH session channel serving one Textual app.

Only ``pty-req`` + ``shell`` is served. ``exec`` (scp included) and subsystems
(sftp) are accepted only to print a one-line refusal on stderr and exit with
status 1; a shell without a PTY is refused the same way.

Each app is built by the app factory and run with ``run_async(size=(w, h))``
inside a fresh ``contextvars.Context()`` that carries the session's input budget
(server/transport/input_budget.py: its tasks' loop time after its input is
charged to it); it draws through
:class:`server.transport.driver.SSHDriver`. Colours follow the *client* (TERM /
COLORTERM / NO_COLOR): apps render in true colour and the driver converts each
frame to the client's colour system (one process cannot render with several
colour systems: Rich caches escape codes per Style). Textual's process-global
``redirect_stdout``/``redirect_stderr`` around the app's message loop is
neutralised for served apps.

Reaching an app from other code (an actor task, another session):
``app.post_message(message)`` or ``app.call_later(callback)``, from any task of
the same event loop; never touch its widgets directly. Closing a session from
app or actor code: ``info.close("one line for the player")``; from inside the
app, ``app.exit()`` closes it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import asyncssh
from textual.app import App

from server.logging_setup import log_event
from server.transport import screen_moves
from server.transport import session_texts as texts
from server.transport.app_cleanup import break_app_cycles, free_after_shutdown, record_nodes_at_shutdown  # noqa: F401
from server.transport.client_env import DEFAULT_SIZE, clamp_size, display_host, sanitize_text
from server.transport.compat import connection_transport
from server.transport.input_budget import InputBudget, WindowChangeLimit, session_context
from server.transport.screen_channel import RelayChannel
from server.transport.screen_moves import ScreenMoves
from server.transport.screen_relay import Relay, run_elsewhere
from server.transport.screen_wire import MoveTo
from server.transport.session_app import EXITING, AppRun
from server.transport.session_info import Identity, ServerStopping, SessionHost, SessionInfo, StartSlot

if TYPE_CHECKING:
    from server.transport.driver import SSHDriver
    from server.transport.screen_wire import Carried, ScreenAction

log = logging.getLogger("citadels.server.transport.session")


# Input received before the app is ready (typed while it starts) is kept up to this.
EARLY_INPUT_BYTES = 4096

_session_ids = itertools.count(1)
# A cluster node's sessions are "<node>.<life>.s<n>" (set_session_prefix): unique across the nodes and
# their restarts, so a guest's identity ("guest:<session id>") and `citadels admin kick <session>` name
# one session of the cluster.
_session_prefix = ""


def set_session_prefix(prefix: str) -> None:
    global _session_prefix
    _session_prefix = prefix


class SSHSession(AppRun, ScreenMoves, asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """The asyncssh session for one channel: PTY + shell only, one app."""

    def __init__(
        self,
        host: SessionHost,
        identity: Identity,
        session_id: str | None = None,
        action: ScreenAction | None = None,
        front: str = "",
        carried: Carried | None = None,
    ) -> None:
        self._host = host
        self._config = host.config
        self._identity = identity
        # A screen moved here from another process of the host keeps its session id (screen_host.py).
        self.session_id = session_id or f"{_session_prefix}s{next(_session_ids)}"
        self._action = action  # what a moved screen does first
        self._carried = carried  # and what it keeps of the screen it replaces
        self.front = front  # a moved screen: the worker that holds its connection
        self._next: MoveTo | None = None  # where the screen moves once its app has exited
        self.relay: Relay | None = None  # while the screen runs in another process (screen_relay.py)
        self.no_moves_until = 0.0
        self._relayed_end = False  # the moved screen ended the session (its goodbye already sent)
        self._chan: asyncssh.SSHServerChannel | None = None  # type: ignore[type-arg]
        self._term: str | None = None
        self._size = DEFAULT_SIZE
        self._refusal: str | None = None
        self._early_input = bytearray()
        self._driver: SSHDriver | None = None
        self._app: App[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self._slot: StartSlot | None = None
        self._chan_open = False
        self._closing = False
        self._close_message: str | None = None
        self._close_status = 0
        self._force_handle: asyncio.TimerHandle | None = None
        self._exiting = False
        self._started_at = time.monotonic()
        self._opened = False
        self._final_stats: dict[str, Any] | None = None
        self.budget = InputBudget(host.config)
        self.accepted_at = time.monotonic()  # the TCP accept (set by the connection handler)
        self.first_frame_ms: float | None = None  # from the accept to the app's first frame
        self.started = False  # shell, exec or subsystem asked for (refused or not)
        self.window_changes = WindowChangeLimit(host.config, self.budget)
        self.info: SessionInfo | None = None
        self.end_reason: str | None = None
        self.closed = asyncio.get_running_loop().create_future()

    # ----------------------------------------------------------- asyncssh API

    def connection_made(self, chan: Any) -> None:
        self._chan = chan
        self._chan_open = True
        chan.set_write_buffer_limits(high=min(65536, self._config.output_high_water_bytes))

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term = sanitize_text(term_type) or "xterm"
        self._size = clamp_size(term_size[0], term_size[1], self._config)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._refusal = texts.EXEC_MESSAGE.replace("PORT", str(self._host_port())).replace(
            "HOST", display_host(self._config.host)
        )
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self._refusal = texts.SUBSYSTEM_MESSAGE.format(name=sanitize_text(subsystem, 32))
        return True

    def session_started(self) -> None:
        assert self._chan is not None
        self.started = True
        if self._refusal is None and self._term is None:
            self._refusal = texts.NO_PTY_MESSAGE
        if self._refusal is None and self._host.closing:
            self._refusal = texts.STOPPING_MESSAGE
        if self._refusal is not None:
            log_event(
                log,
                logging.INFO,
                "session refused",
                session=self.session_id,
                peer=self._identity.peer_host,
                reason=self._refusal,
            )
            self._end_channel(self._refusal, 1, stderr=True)
            self._set_closed()
            return
        self._opened = True
        self._host.session_opened(self)
        loop = asyncio.get_running_loop()
        # A fresh context (never another app's) whose tasks charge this session's input budget.
        self._task = loop.create_task(
            self._run(), name=f"citadels-session-{self.session_id}", context=session_context(self.budget)
        )

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self._refusal is not None or self._closing:
            return
        self._host.note_input()
        if self.relay is not None:
            self.relay.send_input(data)
        elif self._driver is not None:
            self._driver.feed_input(data)
        else:
            room = EARLY_INPUT_BYTES - len(self._early_input)
            if room > 0:
                self._early_input.extend(data[:room])

    def eof_received(self) -> bool:
        return False  # close the channel

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = clamp_size(width, height, self._config)
        if self.relay is not None:
            self.relay.send_size(self._size)
        elif self._driver is not None:
            self._driver.resize(*self._size)
        if self._chan is not None:
            self.window_changes.note(self._chan.get_connection())

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass

    def pause_writing(self) -> None:
        if self.relay is not None:
            self.relay.hold_output(True)
        elif self._driver is not None:
            self._driver.pause_output()

    def resume_writing(self) -> None:
        if self.relay is not None:
            self.relay.hold_output(False)
        elif self._driver is not None:
            self._driver.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._chan_open = False
        if self.end_reason is None:
            self.end_reason = "client disconnected" if exc is None else f"connection lost: {exc}"
        self.request_close(None)

    # ------------------------------------------------------ ChannelLink (driver)

    def driver_attached(self, driver: SSHDriver) -> bytes:
        self._driver = driver
        early = bytes(self._early_input)
        self._early_input.clear()
        return early

    def send_output(self, data: bytes) -> None:
        if not self._chan_open or self._chan is None or self._next is not None:
            return  # (a screen about to move: its last frames are not drawn)
        try:
            self._chan.write(data)
        except (BrokenPipeError, OSError, asyncssh.Error):
            self._chan_open = False

    def output_backlog(self) -> int:
        if self._chan is None or not self._chan_open:
            return 0
        return self._chan.get_write_buffer_size() + self.transport_backlog()

    def transport_backlog(self) -> int:
        if self._chan is None or not self._chan_open:
            return 0  # (a closed channel has dropped its connection: asyncssh asserts on asking it)
        transport = connection_transport(self._chan.get_connection())  # asyncssh ignores transport pauses
        if transport is None:
            return 0
        try:
            return transport.get_write_buffer_size()
        except Exception:  # pragma: no cover
            return 0

    def pause_input(self) -> None:
        if self._chan is not None and self._chan_open:
            self._chan.pause_reading()

    def resume_input(self) -> None:
        if self._chan is not None and self._chan_open:
            self._chan.resume_reading()

    def first_frame_sent(self) -> None:
        self.first_frame_ms = round((time.monotonic() - self.accepted_at) * 1000, 1)
        self._release_slot()
        self._host.app_started(self)

    def keys_dropped(self, count: int) -> None:
        self._host.keys_dropped(count)

    @property
    def peer_host(self) -> str:
        return self._identity.peer_host

    @property
    def live(self) -> bool:
        """Its app is starting or running."""
        return self._opened and not self.closed.done()

    def abort(self, reason: str) -> None:
        """Drop a client that cannot keep up: close its connection at once."""
        if self.end_reason is None:
            self.end_reason = reason
        log_event(
            log,
            logging.WARNING,
            "dropping session",
            session=self.session_id,
            reason=reason,
            user=self._identity.username,
            peer=self._identity.peer_host,
        )
        chan = self._chan
        self._chan_open = False
        if chan is not None:
            with contextlib.suppress(Exception):
                chan.get_connection().abort()
        self.request_close(None)

    # -------------------------------------------------------------- lifecycle

    def request_close(self, message: str | None = None, status: int = 0) -> None:
        """Ask the app to exit; then print ``message`` and close the channel."""
        if self._closing:
            return
        self._closing = True
        self._close_message = message
        self._close_status = status
        if self.end_reason is None:
            self.end_reason = "closed by server" if message else "closed"
        if self.relay is not None:  # the screen runs in another process: it ends with the socket, then _run
            self.relay.close()
            return
        task = self._task
        if task is None or task.done():
            if self._refusal is None:
                self._end_channel(message, status)
                self._set_closed()
            return
        app = self._app
        if app is None:
            task.cancel()  # still waiting for a start slot
            return
        EXITING.apps += 1
        self._exiting = True
        with contextlib.suppress(Exception):
            app.exit()
        loop = asyncio.get_running_loop()
        grace = self._config.shutdown_grace_seconds
        if not self._host.closing:
            # Many apps exiting at once share the loop: give each time in proportion.
            grace += self._config.exit_grace_per_closing_seconds * (EXITING.apps - 1)
        self._force_handle = loop.call_later(grace, self._force_stop)

    def notify_stopping(self, text: str = texts.STOPPING_MESSAGE) -> None:
        """Graceful shutdown: tell the app, then close with ``text``. A screen moved here goes back to the
        worker that holds its connection instead (this worker stops; that one may not)."""
        if self.front and self.move_to(MoveTo(self.front)):
            return
        app = self._app
        if app is not None:
            with contextlib.suppress(Exception):
                app.post_message(ServerStopping(text))
        if self.end_reason is None:
            self.end_reason = "server stopping"
        self.request_close(text)

    def _force_stop(self) -> None:
        self._force_handle = None
        if self._task is not None and not self._task.done():
            # Nobody to tell when the client has gone already: keep the log quiet then.
            level = logging.WARNING if self._chan_open else logging.DEBUG
            log_event(
                log, level, "app did not exit in time; cancelling it", session=self.session_id, exiting=EXITING.apps
            )
            self._task.cancel()

    def _release_slot(self) -> None:
        slot, self._slot = self._slot, None
        if slot is not None:
            slot.release()

    def _host_port(self) -> int:
        try:
            return int(self._chan.get_extra_info("sockname")[1])  # type: ignore[union-attr,index]
        except Exception:
            return self._config.port

    async def _run(self) -> None:
        """The session task, in a fresh context: the app (here, or moved to another process of the host
        and back), then the goodbye."""
        status, message = 0, None
        action, carried = self._action, self._carried
        try:
            while True:
                status, message = await self._serve_app(action, carried)
                move, self._next = self._next, None
                if move is None or self._closing:
                    break
                if isinstance(self._chan, RelayChannel):  # a moved screen moves on: its front serves it next
                    self._chan.move(move)
                    break
                outcome = await run_elsewhere(self, move, screen_moves.socket_of)
                if outcome.dropped:
                    self.abort("client stopped reading")
                if outcome.exited or outcome.dropped or self._closing:
                    status, message, self._relayed_end = outcome.status, None, outcome.exited
                    break
                action, carried = outcome.action, outcome.carried
        except asyncio.CancelledError:
            status = 1
            if self.end_reason is None:
                self.end_reason = "cancelled"
        finally:
            if message is None and not self._relayed_end:
                message = self._close_message
                if self._closing and self._close_status:
                    status = self._close_status
            if self._relayed_end:
                self._chan_open = False  # the moved screen said goodbye; only the exit status is left
                with contextlib.suppress(Exception):
                    self._chan.exit(status)  # type: ignore[union-attr]
            self._end_channel(message, status)
            self._set_closed()

    def _end_channel(self, message: str | None, status: int, *, stderr: bool = False) -> None:
        chan = self._chan
        if chan is None or not self._chan_open:
            return
        self._chan_open = False
        try:
            if message:
                line = ("\r\n" + message + "\r\n").encode("utf-8", "replace")
                if stderr:
                    chan.write_stderr(line)
                else:
                    chan.write(line)
            chan.exit(status)
        except Exception:
            with contextlib.suppress(Exception):
                chan.close()

    def _set_closed(self) -> None:
        if self.closed.done():
            return
        self.closed.set_result(None)
        self._final_stats = self.stats()
        self._final_stats["reason"] = self.end_reason or "ended"
        self._driver = None
        if self._opened:
            log_event(
                log,
                logging.INFO,
                "session ended",
                session=self.session_id,
                user=self._identity.username,
                peer=self._identity.peer_host,
                reason=self.end_reason or "ended",
                seconds=round(time.monotonic() - self._started_at, 1),
                frames=self._final_stats.get("frames_sent", 0),
                dropped=self._final_stats.get("frames_dropped", 0),
            )
            self._host.session_closed(self)

    def stats(self) -> dict[str, Any]:
        """Figures for tests, benchmarks and monitoring."""
        driver = self._driver
        if driver is None:
            return self._final_stats or {
                "session": self.session_id,
                "user": self._identity.username,
                "open": self._chan_open,
            }
        return {
            "session": self.session_id,
            "user": self._identity.username,
            "open": self._chan_open,
            "backlog": self.output_backlog(),
            "first_frame_ms": self.first_frame_ms,
            "connection_holds": self.window_changes.holds,
            **driver.stats(),
            **self.budget.stats(),
        }
