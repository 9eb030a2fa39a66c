"""asyncssh's per-connection callbacks: identity, the session caps, the session channel.

A connection reaches this handler only once the acceptor has admitted it (server/transport/gate.py,
admission.py); until it authenticates it is a "startup" there. Then:

- ``begin_auth``: past the session caps (per address, in all), or from a banned address, it is
  refused with a one-line SSH disconnect reason (the client shows it);
- ``auth_completed``: a banned key is refused the same way; otherwise it is a session (counted),
  and must start one within
  ``session_start_timeout_seconds`` or be closed;
- ``session_requested``: one session channel per connection, with bounded environment requests.

Identity: any public key is accepted; its SHA256 fingerprint, with the SSH user name, reaches
the app factory. A client without a key gets in as a guest through keyboard-interactive (no
prompts) when ``allow_guests`` is on. (Plain "none" authentication cannot be offered as well:
clients try it first, and accepting it would mean never seeing their keys.)
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from typing import TYPE_CHECKING, Any

import asyncssh

from server.logging_setup import log_event
from server.transport.admission import Startup
from server.transport.client_env import sanitize_text
from server.transport.compat import bounded_session_channel, connection_transport, stop_reading
from server.transport.session import Identity, SSHSession
from server.transport.session_texts import STOPPING_MESSAGE

if TYPE_CHECKING:
    from server.transport.ssh import Server

log = logging.getLogger("citadels.server")

FORWARDING_REFUSED = "Port forwarding is disabled on this server."
ONE_SESSION_ONLY = "Only one session per connection."
NO_SESSION_MESSAGE = "No session was started on this connection; closing it."


class ConnectionHandler(asyncssh.SSHServer):
    """One connection's callbacks from asyncssh."""

    def __init__(self, server: Server) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self._addr = "?"
        self._port = 0
        self._startup: Startup | None = None
        self._counted = False  # holds one of the server's session slots
        self._pending: tuple[str | None, bool] = (None, True)
        self._identity: Identity | None = None
        self._session: SSHSession | None = None
        self._session_timer: asyncio.TimerHandle | None = None
        self._transport: Any = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        self._transport = connection_transport(conn)  # asyncssh drops it before connection_lost
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._addr, self._port = str(peer[0]), int(peer[1])
        self._startup = self._server.take_arriving(conn)
        if self._startup is not None:
            self._startup.closer = conn.abort
        self._server.connection_opened(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._session_timer is not None:
            self._session_timer.cancel()
            self._session_timer = None
        if self._startup is not None:
            self._startup.closer = None
            self._server.admission.gone(self._startup)
        if self._conn is not None:
            self._server.connection_closed(self._conn)
            # Break the cycles asyncssh and asyncio leave (compat.stop_reading), once asyncssh has
            # finished its own clean-up.
            asyncio.get_running_loop().call_soon(stop_reading, self._conn, self._transport)
            self._transport = None
        if self._counted:
            self._counted = False
            self._server.release_session(self._addr)

    def begin_auth(self, username: str) -> bool:
        refusal = self._server.session_refusal(self._addr)
        if refusal is not None and self._conn is not None:
            self._refuse(*refusal)
        return True

    def _refuse(self, cause: str, message: str) -> None:
        assert self._conn is not None
        if self._startup is not None:
            self._server.admission.refused(self._startup)
        self._server.admission.count(cause)
        if cause == "banned":  # the host wants to see these (a flood of them is a flood of logins)
            key = None if self._pending[1] else self._pending[0]
            log_event(log, logging.INFO, "session refused", cause=cause, key=key, peer=self._addr)
        else:
            log_event(log, logging.DEBUG, "connection refused", peer=self._addr, cause=cause)
        busy = cause not in ("stopping", "banned")
        code = asyncssh.DISC_TOO_MANY_CONNECTIONS if busy else asyncssh.DISC_BY_APPLICATION
        self._conn.disconnect(code, message)

    # Public keys: all accepted; the last key validated before success is the one used.
    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint("sha256")
        check = self._server.login_check
        banned = check(fingerprint, self._addr) if check is not None else None
        if banned is not None and self._conn is not None:
            # Refused as the key is offered: the client reads the line, not a login that worked.
            self._pending = (fingerprint, False)
            self._refuse("banned", banned)
            return False
        self._pending = (fingerprint, False)
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
        if self._startup is not None:
            self._server.admission.authenticated(self._startup)
        fingerprint, is_guest = self._pending
        # Sessions were counted at begin_auth's check; several logins may pass it at once. The key
        # is known now: a banned one is refused here, before any session or app.
        refusal = self._server.take_session(self._addr, None if is_guest else fingerprint)
        if refusal is not None:
            self._refuse(*refusal)
            return
        self._counted = True
        username = sanitize_text(str(self._conn.get_extra_info("username") or "")) or "guest"
        self._identity = Identity(
            username=username,
            key_fingerprint=fingerprint,
            is_guest=is_guest,
            peer_host=self._addr,
            peer_port=self._port,
        )
        self._session_timer = asyncio.get_running_loop().call_later(
            self._server.config.session_start_timeout_seconds, self._check_session, context=contextvars.Context()
        )

    def _check_session(self) -> None:
        """Authenticated a while ago: close the connection unless its session is live."""
        self._session_timer = None
        session = self._session
        if self._conn is None or (session is not None and session.live):
            return
        self._server.admission.count("no_session")
        log_event(log, logging.INFO, "connection closed", peer=self._addr, reason="no session started")
        self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, NO_SESSION_MESSAGE)

    # Channels
    def session_requested(self) -> Any:
        if self._identity is None or self._conn is None:
            return False
        if self._session is not None:
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, ONE_SESSION_ONLY)
        config = self._server.config
        chan = bounded_session_channel(
            self._conn,
            window=config.input_window_bytes,
            max_env_vars=config.max_env_vars,
            max_env_bytes=config.max_env_bytes,
        )
        self._session = SSHSession(self._server, self._identity)
        if self._startup is not None:
            self._session.accepted_at = self._startup.started
        return chan, self._session

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


__all__ = ["STOPPING_MESSAGE", "ConnectionHandler"]
