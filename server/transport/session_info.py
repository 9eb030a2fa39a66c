"""What the app factory and the server's apps know of an SSH session: who it is
(`SessionInfo`, `Identity`), the messages the server posts to apps (`ServerStopping`,
`InputThrottled`), what a session needs from the server (`SessionHost`), and what
the driver needs from its session (`ChannelLink`, `DriverLimits`)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.message import Message

from server.config import ServerConfig

if TYPE_CHECKING:
    from .driver import SSHDriver
    from .screen_wire import Carried, MoveTo, ScreenAction
    from .session import SSHSession


class ServerStopping(Message):
    """Posted to every served app when the server begins a graceful shutdown.

    The app is asked to exit right after; handle it (``on_server_stopping``)
    to save something quickly. ``text`` is the line the player will see.
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class InputThrottled(Message):
    """Posted to a served app when its player's input went past the session's limits.

    ``keys_dropped`` keys (clicks, pastes) were ignored since the last notice, or, when it is 0,
    the server holds the player's input for a moment (their input cost too much loop time).
    Posted at most once every ``input_notice_interval_seconds`` (and once when input held long is
    dropped); ``text`` is a line for the player in English, ``key`` its ``notice.<key>`` in the
    catalogue for apps that speak the player's language (show it cheaply: one notification).
    """

    def __init__(self, text: str, keys_dropped: int, key: str = "") -> None:
        super().__init__()
        self.text = text
        self.keys_dropped = keys_dropped
        self.key = key


@dataclass(frozen=True, slots=True, eq=False)
class SessionInfo:
    """What the app factory knows about a session.

    ``username`` is what the client sent (control characters removed, at most
    64 characters). ``key_fingerprint`` is the SHA256 fingerprint of the key
    that authenticated the connection (``"SHA256:..."``), ``None`` for guests.
    ``color_system`` is Rich's name ("truecolor", "256", "standard") or None.
    ``lang`` is the client's LANG if it sent one (OpenSSH often does).
    """

    session_id: str
    username: str
    key_fingerprint: str | None
    is_guest: bool
    peer_host: str
    peer_port: int
    term: str
    color_system: str | None
    size: tuple[int, int]
    lang: str | None = None
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    action: ScreenAction | None = None  # a screen moved from another process: what the player asked there
    carried: Carried | None = None  # and what they had set there (name, language, alerts, card colours)
    _closer: Callable[[str | None], None] | None = field(default=None, repr=False)
    _mover: Callable[[MoveTo], bool] | None = field(default=None, repr=False)

    def move(self, target: MoveTo) -> bool:
        """Run this session's screen in another process of the host (server/transport/screen_moves.py):
        True if it will (this app exits, the connection stays); False if screens do not move here."""
        return self._mover is not None and self._mover(target)

    def close(self, message: str | None = None) -> None:
        """Close this session: the app is asked to exit, then ``message`` (one
        line) is printed on the player's terminal and the connection ends.
        Safe to call from any task on the server's loop, more than once."""
        if self._closer is not None:
            self._closer(message)


@dataclass(frozen=True, slots=True)
class Identity:
    """Who authenticated a connection (set by server/transport/ssh.py)."""

    username: str
    key_fingerprint: str | None
    is_guest: bool
    peer_host: str
    peer_port: int


def weak_closer(session: SSHSession) -> Callable[[str | None], None]:
    """A close callable for ``SessionInfo`` that does not keep the session alive."""
    ref = weakref.ref(session)

    def close(message: str | None = None) -> None:
        target = ref()
        if target is not None:
            target.request_close(message)

    return close


class StartSlot(Protocol):
    def release(self) -> None: ...


class SessionHost(Protocol):
    """What a session needs from the server (implemented in server/transport/ssh.py)."""

    config: ServerConfig
    app_factory: Callable[[SessionInfo], App[Any]]

    @property
    def closing(self) -> bool: ...

    def start_slot_free(self) -> bool: ...

    async def acquire_start_slot(self) -> StartSlot: ...

    def session_opened(self, session: SSHSession) -> None: ...

    def session_closed(self, session: SSHSession) -> None: ...

    def app_started(self, session: SSHSession) -> None: ...

    def note_input(self) -> None: ...

    def keys_dropped(self, count: int) -> None: ...


class ChannelLink(Protocol):
    """What the driver needs from its SSH session (see server/transport/session.py)."""

    def send_output(self, data: bytes) -> None: ...

    def output_backlog(self) -> int: ...

    def transport_backlog(self) -> int: ...

    def pause_input(self) -> None: ...

    def resume_input(self) -> None: ...

    def abort(self, reason: str) -> None: ...

    def driver_attached(self, driver: SSHDriver) -> bytes: ...

    def first_frame_sent(self) -> None: ...

    def keys_dropped(self, count: int) -> None: ...


class DriverLimits(Protocol):
    """The limits the driver reads (the server's frozen ServerConfig has them)."""

    @property
    def output_high_water_bytes(self) -> int: ...

    @property
    def max_output_backlog_bytes(self) -> int: ...

    @property
    def output_stall_timeout_seconds(self) -> float: ...

    @property
    def max_queued_input_events(self) -> int: ...

    @property
    def max_paste_chars(self) -> int: ...

    @property
    def input_notice_interval_seconds(self) -> float: ...
