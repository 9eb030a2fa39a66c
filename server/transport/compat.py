"""Every use of asyncssh's private names, and of the Textual pieces the SSH driver relies on, in one place.

Each helper below names what it relies on; all were verified with asyncssh 2.24.1 (pinned in
pyproject.toml). With another version, :func:`check_asyncssh_version` stops the server at start
with one line naming the verified version, rather than letting a changed internal fail later or
quietly cost more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

import asyncssh
from asyncssh.crypto import cipher as _asyncssh_cipher
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from textual import events as _events
from textual._xterm_parser import XTermParser as _XTermParser

VERIFIED_ASYNCSSH = ("2.24.1",)


class AsyncsshVersionError(RuntimeError):
    """The installed asyncssh is not one this module was verified with."""


def check_asyncssh_version(version: str | None = None) -> None:
    """Refuse to run on an asyncssh this module was not verified with (one-line error)."""
    version = version or asyncssh.__version__
    if version not in VERIFIED_ASYNCSSH:
        raise AsyncsshVersionError(
            f"asyncssh {version} is installed; server/transport/compat.py is verified with "
            f"{', '.join(VERIFIED_ASYNCSSH)} only (pip install 'asyncssh=={VERIFIED_ASYNCSSH[-1]}')"
        )


async def connection_factory(**options: Any) -> Callable[[], asyncio.Protocol]:
    """A factory of asyncssh server connections, for a listener of our own.

    ``asyncssh.listen`` builds an ``SSHServerConnection`` for every TCP connection it accepts,
    before anyone could look at the peer; our gate (server/transport/gate.py) accepts first and
    hands only the admitted transports to a connection made here. This repeats what
    ``asyncssh.listen`` does (asyncssh 2.24.1, connection.py ``listen``/``_listen``):
    ``SSHServerConnectionOptions.construct`` (options built off the loop) and
    ``SSHServerConnection(loop, options, acceptor, error_handler)``, whose signature is not
    documented.
    """
    check_asyncssh_version()
    loop = asyncio.get_running_loop()
    built = await asyncssh.SSHServerConnectionOptions.construct(None, **options)
    built.proxy_command = None  # as asyncssh.listen does for a server

    reuse_gcm_keys()

    def make() -> asyncio.Protocol:
        return OneWriteConnection(loop, built, None, None)  # type: ignore[return-value]

    return make


class OneWriteConnection(asyncssh.SSHServerConnection):
    """A server connection that sends each packet in one socket write, without asyncssh's CBC padding packet.

    asyncssh 2.24.1 (connection.py ``SSHConnection.send_packet``) sends an empty ``MSG_IGNORE``
    packet ahead of every encrypted packet past the key exchange ("if we're encrypting and we have
    no data outstanding"): RFC 4251 section 9.3.1's countermeasure to the chosen-plaintext attack on
    CBC mode, whose next IV is the last ciphertext block. With a counter-mode or GCM cipher (RFC
    4344, RFC 5647; all the server offers by default, `server.config.SSH_CIPHERS`) there is no such IV
    and the packet protects nothing, so it is not sent (as OpenSSH does not); with a CBC cipher it
    still is. Each packet asyncssh sends costs a seal and a socket write (a system call): this was
    two of each for every frame a screen sends.

    And what one ``send_packet`` call sends (a key exchange it starts, the CBC padding packet, the
    packet itself) is joined and written once, in its order: the same bytes on the wire. ``_send`` is
    asyncssh's only write to the transport after the version line (``SSHConnection._send``, which
    drops a ``ConnectionError`` as ours does by calling it).
    """

    _citadels_held: list[bytes] | None = None

    def send_packet(self, pkttype: int, *args: bytes, handler: Any = None) -> None:
        if self._citadels_held is not None:  # within a send_packet: joined with the outer one's
            # (the cipher as `get_extra_info` finds it, without asking the socket transport for a name it lacks)
            if (
                pkttype == MSG_IGNORE
                and args == _NO_DATA
                and not _cbc(cast(str | None, self._extra.get("send_cipher")))
            ):
                return  # the CBC countermeasure (asyncssh sends no other empty ignore packet)
            super().send_packet(pkttype, *args, handler=handler)
            return
        held: list[bytes] = []
        self._citadels_held = held
        try:
            super().send_packet(pkttype, *args, handler=handler)
        finally:
            self._citadels_held = None
            if held:
                super()._send(held[0] if len(held) == 1 else b"".join(held))

    def _send(self, data: bytes) -> None:
        held = self._citadels_held
        if held is not None:
            held.append(data)
        else:
            super()._send(data)

    # asyncssh 2.24.1 (packet.py ``SSHPacketLogger._log_packet``) formats a line for every packet sent
    # and received (its handler's name, the size in words), which `SSHLogger.packet` drops unless the
    # debug level is 3 (`server.logging_setup` sets 1): formatted only when it would be written.
    def _log_packet(self, msg: str, pkttype: int, pktid: int | None, packet: Any, note: str) -> None:
        if self.logger._debug_level >= 3:
            super()._log_packet(msg, pkttype, pktid, packet, note)

    # The keepalive timer. asyncssh 2.24.1 (connection.py ``_recv_data``) cancels its loop timer and
    # makes another for every read from the socket, so that a request goes out only after
    # ``keepalive_interval`` without input. Here a read notes its time; the timer, when it fires
    # early, waits out the rest of the interval from the last read: the same moment, one timer.
    _citadels_input_at = 0.0

    def _reset_keepalive_timer(self) -> None:
        if self._auth_complete:
            self._citadels_input_at = self._loop.time()
            if self._keepalive_timer is None:
                self._set_keepalive_timer()

    def _keepalive_timer_callback(self) -> None:
        interval = self._keepalive_interval
        rest = self._citadels_input_at + interval - self._loop.time() if interval else 0.0
        if rest > 0:
            self._keepalive_timer = self._loop.call_later(rest, self._keepalive_timer_callback)
            return
        super()._keepalive_timer_callback()

    def set_keepalive(self, interval: Any = None, count_max: int | None = None) -> None:
        self._cancel_keepalive_timer()  # a new interval: timed from now, as asyncssh does
        super().set_keepalive(interval, count_max)


MSG_IGNORE = 2  # RFC 4253 section 11.2 (asyncssh.constants.MSG_IGNORE)
_NO_DATA = (b"\0\0\0\0",)  # an empty SSH string: asyncssh's `String(b"")`


def _cbc(cipher: str | None) -> bool:
    """A CBC cipher (``aes256-cbc``, ``3des-cbc``, ``rijndael-cbc@lysator.liu.se``...), or none known
    yet: the padding packet is kept."""
    return not cipher or "cbc" in cipher


_GCM_MAC_SIZE = 16  # asyncssh 2.24.1, crypto/cipher.py


def _encrypt_and_sign(self: Any, header: bytes, data: bytes) -> tuple[bytes, bytes]:
    """``GCMCipher.encrypt_and_sign`` with one ``AESGCM`` per key, not one per packet."""
    aead = self.__dict__.get("_citadels_aead")
    if aead is None or aead[0] is not self._key:
        aead = self._citadels_aead = (self._key, AESGCM(self._key))
    sealed = aead[1].encrypt(self._iv, data, header)
    self._update_iv()
    return header + sealed[:-_GCM_MAC_SIZE], sealed[-_GCM_MAC_SIZE:]


def _verify_and_decrypt(self: Any, header: bytes, data: bytes, mac: bytes) -> bytes | None:
    """``GCMCipher.verify_and_decrypt`` with the same ``AESGCM`` per key."""
    aead = self.__dict__.get("_citadels_aead")
    if aead is None or aead[0] is not self._key:
        aead = self._citadels_aead = (self._key, AESGCM(self._key))
    try:
        opened: bytes | None = aead[1].decrypt(self._iv, data + mac, header)
    except InvalidTag:
        opened = None
    self._update_iv()
    return opened


def reuse_gcm_keys() -> None:
    """asyncssh 2.24.1 makes an ``AESGCM`` from the key for every packet it seals or opens
    (crypto/cipher.py ``GCMCipher``); its key never changes (a rekey makes a new cipher object), so
    one per cipher object does (the same calls on it, the same bytes). Idempotent."""
    check_asyncssh_version()
    gcm = _asyncssh_cipher.GCMCipher
    gcm.encrypt_and_sign = _encrypt_and_sign  # type: ignore[method-assign]
    gcm.verify_and_decrypt = _verify_and_decrypt  # type: ignore[method-assign]


def connection_transport(conn: Any) -> Any:
    """The asyncio transport under a connection (``SSHConnection._transport``, asyncssh 2.24.1).

    asyncssh does not expose it; we need its write buffer size (asyncssh ignores the transport's
    pause_writing, so a client that stops reading is seen there first) and, at close, to break
    its read callback's cycle (:func:`stop_reading`). ``None`` once asyncssh has dropped it.
    """
    return getattr(conn, "_transport", None)


def hold_connection(conn: Any, hold: bool) -> bool:
    """Stop (or go back to) reading a connection's socket: its client's bytes wait in the network.

    For requests that come without flow control (window changes): the asyncio transport under the
    connection (``connection_transport``), paused and resumed; asyncssh 2.24.1 never pauses it
    itself. False when the connection is gone.
    """
    transport = connection_transport(conn)
    if transport is None or transport.is_closing():
        return False
    if hold:
        transport.pause_reading()
    else:
        transport.resume_reading()
    return True


def _read_nothing() -> bool:
    return False


def stop_reading(conn: asyncssh.SSHServerConnection, transport: Any) -> None:
    """Break the reference cycles a closed connection keeps (asyncssh 2.24.1, CPython 3.11 asyncio).

    asyncssh's connection keeps its packet reader as a bound method of itself
    (``SSHConnection._recv_handler``) and asyncio's socket transport its read callback
    (``_SelectorSocketTransport._read_ready_cb``): cycles holding the transport, socket, ciphers
    and logger that only a full collection of the (frozen) heap would free. asyncssh does the
    same to ``_recv_handler`` when it stops reading; call this once its own clean-up is done.
    """
    conn._recv_handler = _read_nothing  # type: ignore[attr-defined]
    if transport is not None and transport.is_closing() and hasattr(transport, "_read_ready_cb"):
        transport._read_ready_cb = _read_nothing


class BoundedEnvChannel(asyncssh.SSHServerChannel):  # type: ignore[type-arg]
    """An asyncssh server channel that bounds ``env`` requests.

    asyncssh stores every environment request; this refuses them past a count and a size. It
    overrides ``SSHServerChannel._process_env_request`` and fills ``self._env`` as that method
    does (asyncssh 2.24.1, channel.py). Made by :func:`bounded_session_channel`.
    """

    _citadels_max_env_vars = 32
    _citadels_max_env_bytes = 1024

    def _process_env_request(self, packet: Any) -> bool:
        key = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        if len(self._env) >= self._citadels_max_env_vars or len(key) + len(value) > self._citadels_max_env_bytes:
            return False
        self._env[key] = value
        return True


def bounded_session_channel(
    conn: asyncssh.SSHServerConnection, *, window: int, max_env_vars: int, max_env_bytes: int
) -> asyncssh.SSHServerChannel:  # type: ignore[type-arg]
    """A session channel (raw bytes) whose environment requests are bounded.

    asyncssh makes the channel object itself; we change its class to :class:`BoundedEnvChannel`
    (which adds no state besides the two limits set here).
    """
    chan = conn.create_server_channel(encoding=None, window=window)
    chan.__class__ = BoundedEnvChannel
    chan._citadels_max_env_vars = max_env_vars  # type: ignore[attr-defined]
    chan._citadels_max_env_bytes = max_env_bytes  # type: ignore[attr-defined]
    return chan


# --- Textual's private pieces the SSH driver relies on --------------------------------------------
# Verified with Textual 8.2.8: `ui.compat.VERIFIED_TEXTUAL`, checked at the server's start
# (ui.compat.check_textual_version); tests/server/test_transport_*.py exercise each.


class SessionParser(_XTermParser):
    """Textual's input parser without its class-level cache of kitty key sequences.

    ``XTermParser._parse_extended_key`` is an ``lru_cache`` on an instance method (Textual 8.2.8):
    its keys hold parser instances, which hold their suspended generator and the last Key event,
    whose sender is the app. Every session that typed a key would stay in memory, app and all,
    until 1024 later sequences pushed it out. Parsing a sequence again costs microseconds.
    """

    _parse_uncached = _XTermParser._parse_extended_key.__wrapped__  # type: ignore[attr-defined]

    def _parse_extended_key(self, sequence: str) -> list[_events.Key] | None:  # type: ignore[override]
        return self._parse_uncached(sequence)


def close_parser(parser: _XTermParser) -> None:
    """Close the parser's generator (``_gen``): its frame holds the parser and the last event it made
    (which leads to the app), a cycle freed now rather than by a full collection."""
    parser._gen.close()


def parser_timeout(parser: _XTermParser) -> float | None:
    """When a lone ESC the parser holds becomes a key (``_timeout_time``), None if it holds none."""
    return parser._timeout_time


def driver_mouse(driver: Any) -> bool:
    """Whether the app asked its driver for mouse reports (``Driver._mouse``)."""
    return bool(driver._mouse)


def app_error(app: Any) -> BaseException | None:
    """The unhandled error an app ended with (``App._exception``), if any."""
    error = getattr(app, "_exception", None)
    return error if isinstance(error, BaseException) else None


def clear_styles_cache() -> None:
    """Empty ``StylesCache.get_inner_outer``'s ``lru_cache`` on an instance method
    (Textualize/textual#6665): its entries hold widgets of apps that have ended."""
    try:
        from textual._styles_cache import StylesCache

        StylesCache.get_inner_outer.cache_clear()
    except Exception:  # a later Textual may drop it
        pass
