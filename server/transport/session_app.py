"""One app of a session run in this process (SSHSession's part: a mixin), from its start slot to its
exit; the session runs one after another when its screen moves away and back (screen_moves.py)."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any, cast

from server.logging_setup import log_event
from server.transport import screen_moves
from server.transport import session_texts as texts
from server.transport.app_cleanup import free_after_shutdown
from server.transport.app_setup import prepare_app
from server.transport.client_env import color_system_for, sanitize_text
from server.transport.compat import app_error
from server.transport.driver import SSHDriver
from server.transport.screen_moves import weak_mover
from server.transport.session_info import SessionInfo, weak_closer

if TYPE_CHECKING:
    from server.transport.screen_wire import Carried, MoveTo, ScreenAction
    from server.transport.session import SSHSession
    from server.transport.session_info import ChannelLink, DriverLimits

log = logging.getLogger("citadels.server.transport.session")


class Exiting:
    """Apps asked to exit whose task has not ended yet (all servers of the process)."""

    apps = 0


EXITING = Exiting()


class AppRun:
    """SSHSession's app in this process (a mixin: the session's fields are its own)."""

    if TYPE_CHECKING:
        session_id: str
        end_reason: str | None
        info: SessionInfo | None
        budget: Any
        _host: Any
        _config: Any
        _chan: Any
        _term: str | None
        _size: tuple[int, int]
        _identity: Any
        _slot: Any
        _app: Any
        _driver: SSHDriver | None
        _closing: bool
        _exiting: bool
        _force_handle: asyncio.TimerHandle | None
        _next: MoveTo | None
        _final_stats: dict[str, Any] | None

        def send_output(self, data: bytes) -> None: ...

        def _release_slot(self) -> None: ...

        def stats(self) -> dict[str, Any]: ...

    async def _serve_app(self, action: ScreenAction | None, carried: Carried | None) -> tuple[int, str | None]:
        """One app in this process, until it exits: its start slot, the app, its errors."""
        status = 0
        message: str | None = None
        loop = asyncio.get_running_loop()
        slot_timer: asyncio.TimerHandle | None = None
        try:
            if not self._host.start_slot_free():
                self.send_output(texts.WAITING_SCREEN.encode())
            self._slot = await self._host.acquire_start_slot()
            if self._closing:
                return 0, None
            slot_timer = loop.call_later(self._config.app_start_timeout_seconds, self._release_slot)
            info = self.info = self._session_info(action, carried)
            app = self._host.app_factory(info)
            limits: DriverLimits = self._config
            driver_class = functools.partial(
                SSHDriver,
                link=cast("ChannelLink", self),
                limits=limits,
                budget=self.budget,
                color_system=info.color_system,
            )
            prepare_app(app, info, driver_class)
            self._app = app
            log_event(
                log,
                logging.INFO,
                "session started",
                session=self.session_id,
                user=info.username,
                key=info.key_fingerprint or "-",
                guest=info.is_guest,
                peer=info.peer_host,
                term=info.term,
                colors=info.color_system or "none",
                size=f"{info.size[0]}x{info.size[1]}",
            )
            await app.run_async(size=self._size, mouse=self._config.mouse)
            status = app.return_code or 0
            if status and self.end_reason is None:
                self.end_reason = f"app exited with status {status}"
            # Textual keeps an app's unhandled error (a private attribute, Textual 8.2.8) and would
            # print it richly; its error console is silenced (app_setup.py): one plain log record.
            error = app_error(app)
            if error is not None:
                self._next = None  # a crashed screen does not move
                if self._closing:  # closed by the server meanwhile: the player reads why, not "error"
                    log.warning("session %s: app failed while closing", self.session_id, exc_info=error)
                else:
                    self.end_reason = "app crashed"
                    message = texts.CRASH_MESSAGE
                    log.error("session %s: app failed", self.session_id, exc_info=error)
        except Exception:
            self._next = None
            status = 1
            message = texts.CRASH_MESSAGE
            self.end_reason = "app crashed"
            log.exception("session %s: app failed", self.session_id)
        finally:
            if self._exiting:
                self._exiting = False
                EXITING.apps -= 1
            if slot_timer is not None:
                slot_timer.cancel()
            self._release_slot()
            if self._force_handle is not None:
                self._force_handle.cancel()
                self._force_handle = None
            if self._driver is not None:
                self._driver.close()
                self._final_stats = self.stats()  # its figures, for the session's end
                self._driver = None  # input typed while the screen moves waits as early input
            app_done, self._app = self._app, None
            if app_done is not None and self._config.break_app_cycles:
                free_after_shutdown(app_done)
        return status, message

    def _session_info(self, action: ScreenAction | None, carried: Carried | None) -> SessionInfo:
        chan = self._chan
        assert chan is not None and self._term is not None
        env = dict(chan.get_environment())
        return SessionInfo(
            session_id=self.session_id,
            username=self._identity.username,
            key_fingerprint=self._identity.key_fingerprint,
            is_guest=self._identity.is_guest,
            peer_host=self._identity.peer_host,
            peer_port=self._identity.peer_port,
            term=self._term,
            color_system=color_system_for(self._term, env.get("COLORTERM")),
            size=self._size,
            lang=sanitize_text(env["LANG"]) if "LANG" in env else None,
            env=env,
            action=action,
            carried=carried,
            _closer=weak_closer(cast("SSHSession", self)),
            _mover=weak_mover(cast("SSHSession", self)) if screen_moves.enabled() else None,
        )
