"""Whether this process's screens may move to the other processes of the host, and a session's part
of a move (server/transport/screen_wire.py says why).

    screen_moves.configure("w1", Path(shared_dir))   # a worker of `citadels serve --workers N`
    info.move(MoveTo("w2", ScreenAction("join", table_id)))  # the app: True if the screen will move

Only the workers of one host move screens: they share a folder (`shared_dir`), where each keeps its
socket in its own saves folder, `<shared_dir>/<node id>/screens.sock`. Nodes on several machines do
not (the default: `configure` never called).
"""

from __future__ import annotations

import contextlib
import logging
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from server.logging_setup import log_event
from server.transport import screen_wire as w

if TYPE_CHECKING:
    from server.transport.session import SSHSession

log = logging.getLogger("citadels.server.transport.screens")

_node_id = ""
_shared: Path | None = None


def configure(node_id: str, shared_dir: Path | None) -> None:
    """This process is node `node_id` of the host's workers, sharing `shared_dir` (None: moves off)."""
    global _node_id, _shared
    _node_id, _shared = node_id, shared_dir


def enabled() -> bool:
    return _shared is not None


def socket_of(worker: str) -> Path:
    assert _shared is not None
    return _shared / worker / w.SOCKET_NAME


def weak_mover(session: SSHSession) -> Callable[[w.MoveTo], bool]:
    """A move callable for ``SessionInfo`` that does not keep the session alive."""
    ref = weakref.ref(session)

    def move(target: w.MoveTo) -> bool:
        s = ref()
        return s is not None and s.move_to(target)

    return move


class ScreenMoves:
    """SSHSession's part of a move (a mixin: the session's fields are its own)."""

    if TYPE_CHECKING:
        session_id: str
        no_moves_until: float
        _next: w.MoveTo | None
        _closing: bool
        _app: Any
        _chan: Any
        _term: str | None
        _size: tuple[int, int]
        _identity: Any
        _config: Any
        _early_input: bytearray

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def node_id(self) -> str:
        return _node_id

    def move_to(self, target: w.MoveTo) -> bool:
        """Run this screen in `target.worker` from now on (its app exits here; the session stays).
        False when it cannot move now: the caller goes on as if screens never moved."""
        app = self._app
        if (
            not enabled()
            or target.worker == _node_id
            or self._closing
            or self._next is not None
            or app is None
            or time.monotonic() < self.no_moves_until
            or not socket_of(target.worker).exists()
        ):
            return False
        carry = getattr(app, "carried", None)  # what the app keeps across a move (server/app.py)
        if target.carried is None and callable(carry):
            target = msgspec.structs.replace(target, carried=carry())
        self._next = target
        log_event(log, logging.DEBUG, "screen moving", session=self.session_id, worker=target.worker)
        # After the app's current message: a move asked while a screen mounts (a player arriving with a
        # seat elsewhere) would otherwise pull the screen's widgets from under its own mount handler.
        with contextlib.suppress(Exception):
            app.call_later(app.exit)
        return True

    def hello(self, move: w.MoveTo) -> w.Hello:
        ident = self._identity
        env = {str(k): str(v) for k, v in dict(self._chan.get_environment()).items()}
        early = bytes(self._early_input)
        self._early_input.clear()
        return w.Hello(
            session_id=self.session_id,
            username=ident.username,
            key_fingerprint=ident.key_fingerprint,
            is_guest=ident.is_guest,
            peer_host=ident.peer_host,
            peer_port=ident.peer_port,
            term=self._term or "xterm",
            size=self._size,
            env=env,
            action=move.action,
            carried=move.carried,
            early_input=early,
            front=_node_id,
        )

    def send_stderr(self, data: bytes) -> None:
        chan = self._chan
        if chan is not None:
            with contextlib.suppress(Exception):
                chan.write_stderr(data)
