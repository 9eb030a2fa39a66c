"""What the app factory and the server's apps know of an SSH session: who it is
(`SessionInfo`, `Identity`), the shutdown message, and what a session needs
from the server (`SessionHost`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.message import Message

from server.config import ServerConfig

if TYPE_CHECKING:
    from .session import SSHSession


class ServerStopping(Message):
    """Posted to every served app when the server begins a graceful shutdown.

    The app is asked to exit right after; handle it (``on_server_stopping``)
    to save something quickly. ``text`` is the line the player will see.
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


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
    _closer: Callable[[str | None], None] | None = field(default=None, repr=False)

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
