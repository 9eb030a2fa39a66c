"""What the server's SSH connection puts on the wire per packet (server/transport/compat.py,
`OneWriteConnection`): no CBC padding packet (an empty MSG_IGNORE ahead of every packet) with the
counter-mode and GCM ciphers, still one with a CBC cipher, and each packet in one socket write with
what its send brings along. Real asyncssh clients against the real server (the demo app's screen)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import asyncssh
import pytest
from asyncssh import connection as ssh_connection

from server.transport.compat import OneWriteConnection

MSG_IGNORE = 2


@pytest.fixture
def wire(monkeypatch) -> Counter:
    """Counts, per side: ignore packets received, packets sent, socket writes."""
    seen: Counter = Counter()
    handlers = ssh_connection.SSHConnection._packet_handlers
    received = handlers[MSG_IGNORE]

    def ignore(self: Any, pkttype: int, pktid: int, packet: Any) -> None:
        seen["client ignores received" if self.is_client() else "server ignores received"] += 1
        received(self, pkttype, pktid, packet)

    logged = ssh_connection.SSHConnection.log_sent_packet
    sent = ssh_connection.SSHConnection._send

    def log_sent(self: Any, pkttype: int, pktid: int, payload: bytes) -> None:
        if not self.is_client():  # (a channel's packets are logged by the channel: not counted)
            seen["server packets"] += 1
            seen[f"server packets from {type(self).__name__}"] += 1
        logged(self, pkttype, pktid, payload)

    def send(self: Any, data: bytes) -> None:
        if not self.is_client() and self._send_encryption:
            seen["server writes"] += 1
        sent(self, data)

    monkeypatch.setitem(handlers, MSG_IGNORE, ignore)
    monkeypatch.setattr(ssh_connection.SSHConnection, "log_sent_packet", log_sent)
    monkeypatch.setattr(ssh_connection.SSHConnection, "_send", send)
    return seen


async def _play(start, open_terminal, cipher: str, **server: Any) -> None:
    srv = await start(**server)
    term = await open_terminal(srv, encryption_algs=[cipher])
    assert term.conn.get_extra_info("recv_cipher") == cipher
    await term.wait_for("size: 80x24")  # the demo app's screen: frames sent
    term.process.stdin.write(b"x")
    await term.wait_for("last key: x")


@pytest.mark.parametrize("cipher", ["aes128-gcm@openssh.com", "aes256-ctr"])
async def test_no_padding_packet_with_counter_mode_or_gcm(start, open_terminal, wire, cipher) -> None:
    await _play(start, open_terminal, cipher)
    assert wire["server packets"] > 5
    assert wire["client ignores received"] == 0
    assert wire["server ignores received"] > 5  # asyncssh's own client still sends them: counted right


async def test_a_cbc_cipher_keeps_the_padding_packet(start, open_terminal, wire) -> None:
    await _play(start, open_terminal, "aes128-cbc", ssh_ciphers=["aes128-cbc"])
    assert wire["client ignores received"] > 5


async def test_each_send_is_one_socket_write(start, open_terminal, wire) -> None:
    # With CBC every packet brings its padding packet along: two packets, one write.
    await _play(start, open_terminal, "aes128-cbc", ssh_ciphers=["aes128-cbc"])
    ignores = wire["client ignores received"]
    assert ignores > 5
    # each padding packet went out in the write of the packet it precedes (asyncssh alone: a write
    # each, 2 * ignores and more); the writes without one carry packets of the key exchange's end
    assert ignores <= wire["server writes"] <= ignores + 3


async def test_the_server_uses_the_connection_class(start, open_terminal, wire) -> None:
    await _play(start, open_terminal, "aes128-gcm@openssh.com")
    assert wire[f"server packets from {OneWriteConnection.__name__}"] == wire["server packets"] > 5


def test_asyncssh_constants_are_the_ones_relied_on() -> None:
    assert asyncssh.constants.MSG_IGNORE == MSG_IGNORE
    assert ssh_connection.String(b"") == b"\0\0\0\0"


def test_gcm_sealing_with_one_aead_per_key_is_asyncssh_s() -> None:
    """`reuse_gcm_keys`: the same sealed bytes as a fresh `AESGCM` per packet (asyncssh's way), the
    invocation counter moving on, what one side seals opened by the other, a changed byte refused."""
    import os

    from asyncssh.crypto.cipher import GCMCipher
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from server.transport.compat import reuse_gcm_keys

    reuse_gcm_keys()
    key, iv = os.urandom(16), os.urandom(12)
    sealer, opener = GCMCipher("aes128-gcm", key, iv), GCMCipher("aes128-gcm", key, iv)
    counter = int.from_bytes(iv[4:], "big")
    for n in range(3):
        header, data = b"\0\0\0\x20", os.urandom(32 + n)
        nonce = iv[:4] + ((counter + n) & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "big")
        expected = AESGCM(key).encrypt(nonce, data, header)
        body, mac = sealer.encrypt_and_sign(header, data)
        assert body == header + expected[:-16] and mac == expected[-16:]
        assert opener.verify_and_decrypt(header, body[len(header) :], mac) == data
    body, mac = sealer.encrypt_and_sign(b"\0\0\0\x20", b"x" * 32)
    assert opener.verify_and_decrypt(b"\0\0\0\x20", bytes([body[4] ^ 1]) + body[5:], mac) is None


async def test_keepalive_one_timer_and_a_request_only_after_silence(start, open_terminal, monkeypatch) -> None:
    """Input keeps the server's keepalive request away (asyncssh's rule: a request only after
    `keepalive_interval` without a read) with one loop timer, not one made per read; after the
    interval of silence the request goes out, answered. Timed by the server's own reads and
    requests, so a slow machine (a pause between two keys) cannot make it fail."""
    import asyncio

    interval = 0.4
    loop = asyncio.get_running_loop()
    reads: list[float] = []
    requests: list[tuple[float, int]] = []  # (when, how many reads before it)
    timers: list[float] = []
    made = ssh_connection.SSHConnection._set_keepalive_timer
    request = ssh_connection.SSHConnection._make_keepalive_request
    noted = OneWriteConnection._reset_keepalive_timer

    def set_timer(self: Any) -> None:
        if not self.is_client():
            timers.append(loop.time())
        made(self)

    async def make_request(self: Any) -> None:
        if not self.is_client():
            requests.append((loop.time(), len(reads)))
        await request(self)

    def read(self: Any) -> None:
        if self._auth_complete:
            reads.append(loop.time())
        noted(self)

    monkeypatch.setattr(ssh_connection.SSHConnection, "_set_keepalive_timer", set_timer)
    monkeypatch.setattr(ssh_connection.SSHConnection, "_make_keepalive_request", make_request)
    monkeypatch.setattr(OneWriteConnection, "_reset_keepalive_timer", read)
    srv = await start(keepalive_interval_seconds=interval, keepalive_count_max=2)
    term = await open_terminal(srv)
    await term.wait_for("size: 80x24")
    began, first_read = loop.time(), len(reads)
    for _ in range(24):  # 1.2 s of typing: three intervals
        term.process.stdin.write(b"x")
        await asyncio.sleep(0.05)
    await term.wait_for("last key: x")
    typed = loop.time() - began
    assert len(reads) - first_read >= 24
    # re-armed as intervals ran out (at most one per interval), not per read
    assert len([t for t in timers if t >= began]) <= typed / interval + 2
    await asyncio.sleep(2.5 * interval)  # silence
    assert requests, "no keepalive request after the interval without input"
    for at, before in requests:  # each only after a whole interval without a read (the reads before it)
        assert at - reads[before - 1] >= interval - 0.02, f"a request {at - reads[before - 1]:.3f} s after a read"
    assert not term.conn.is_closed()  # answered requests: the client stays


@pytest.mark.parametrize("level", [1, 3])
async def test_packet_log_lines_made_only_at_the_level_that_writes_them(start, open_terminal, monkeypatch, level):
    """asyncssh formats a line per packet that its logger writes only at debug level 3: the server's
    connection makes them at that level (every packet, as asyncssh does) and not below."""
    from asyncssh import packet as ssh_packet

    made: Counter = Counter()
    log_packet = ssh_packet.SSHPacketLogger._log_packet

    def counting(self: Any, *args: Any) -> None:
        made["server" if isinstance(self, OneWriteConnection) else "other"] += 1
        log_packet(self, *args)

    monkeypatch.setattr(ssh_packet.SSHPacketLogger, "_log_packet", counting)
    asyncssh.set_debug_level(level)
    try:
        await _play(start, open_terminal, "aes128-gcm@openssh.com")
    finally:
        asyncssh.set_debug_level(1)
    assert made["other"] > 5  # the client's own, and the channels'
    assert (made["server"] > 5) if level == 3 else made["server"] == 0
