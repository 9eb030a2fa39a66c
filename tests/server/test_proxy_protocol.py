"""The PROXY protocol header (v1 and v2): parsed, refused when malformed, read off a real socket
without consuming a byte of what follows."""

from __future__ import annotations

import asyncio
import socket
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.transport.proxy_protocol import V2_SIGNATURE, ProxyError, ProxyHeader, parse, read_header


def v2(cmd: int = 0x1, fam: int = 0x11, body: bytes | None = None) -> bytes:
    if body is None:
        body = socket.inet_aton("203.0.113.7") + socket.inet_aton("10.0.0.2") + struct.pack("!HH", 51000, 2222)
    return V2_SIGNATURE + bytes([0x20 | cmd, fam]) + struct.pack("!H", len(body)) + body


def test_v1_tcp4() -> None:
    h = parse(b"PROXY TCP4 203.0.113.7 10.0.0.2 51000 2222\r\nSSH-2.0-OpenSSH")
    assert h == ProxyHeader(1, ("203.0.113.7", 51000), ("10.0.0.2", 2222), 44)


def test_v1_tcp6_and_unknown() -> None:
    h = parse(b"PROXY TCP6 2001:db8::1 2001:db8::2 4000 22\r\n")
    assert h is not None and h.source == ("2001:db8::1", 4000)
    assert parse(b"PROXY UNKNOWN\r\n") == ProxyHeader(1, None, None, 15)
    assert parse(b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n").source is None  # type: ignore[union-attr]


def test_v2_ipv4_ipv6_local_and_tlvs() -> None:
    h = parse(v2() + b"SSH-2.0-x")
    assert h == ProxyHeader(2, ("203.0.113.7", 51000), ("10.0.0.2", 2222), 28)
    six = socket.inet_pton(socket.AF_INET6, "2001:db8::7") + socket.inet_pton(socket.AF_INET6, "::1")
    h6 = parse(v2(fam=0x21, body=six + struct.pack("!HH", 7, 8)))
    assert h6 is not None and h6.source == ("2001:db8::7", 7) and h6.destination == ("::1", 8)
    local = parse(v2(cmd=0x0, fam=0x00, body=b""))
    assert local == ProxyHeader(2, None, None, 16)
    tlv = b"\x04\x00\x03abc"  # a TLV after the addresses: skipped, counted in the length
    h = parse(v2(body=v2()[16:] + tlv))
    assert h is not None and h.length == 28 + len(tlv) and h.source == ("203.0.113.7", 51000)


def test_need_more_bytes() -> None:
    full1 = b"PROXY TCP4 203.0.113.7 10.0.0.2 51000 2222\r\n"
    full2 = v2()
    for full in (full1, full2):
        for cut in range(len(full)):
            assert parse(full[:cut]) is None, cut
        assert parse(full) is not None
    assert parse(b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2") is None  # no CRLF yet: more may come (read_header times out)


@pytest.mark.parametrize(
    "data",
    [
        b"SSH-2.0-OpenSSH_9.2\r\n",  # a client that skipped the balancer
        b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n",  # LF only
        b"PROXY TCP4 1.2.3.4 5.6.7.8 99999 2\r\n",  # port out of range
        b"PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n",  # leading zero
        b"PROXY TCP4 ::1 ::2 1 2\r\n",  # family mismatch
        b"PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n",  # bad address
        b"PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n",  # not TCP
        b"PROXY TCP4 1.2.3.4  5.6.7.8 1 2\r\n",  # two spaces
        b"PROXY " + b"A" * 120,  # too long
        V2_SIGNATURE + b"\x31\x11\x00\x0c" + b"\0" * 12,  # version 3
        V2_SIGNATURE + b"\x2f\x11\x00\x0c" + b"\0" * 12,  # unknown command
        V2_SIGNATURE + b"\x21\x12\x00\x0c" + b"\0" * 12,  # UDP
        V2_SIGNATURE + b"\x21\x11\x00\x04" + b"\0" * 4,  # address block too short
        V2_SIGNATURE + b"\x21\x41\x00\x04" + b"\0" * 4,  # unknown family
        V2_SIGNATURE + b"\x21\x11\xff\xff",  # absurd length
        b"\r\n\r\n\x00\r\nQUIX\n" + b"\x21\x11\x00\x00",  # wrong signature
    ],
)
def test_malformed_refused(data: bytes) -> None:
    with pytest.raises(ProxyError):
        parse(data)


@given(st.binary(max_size=300))
def test_never_crashes_on_garbage(data: bytes) -> None:
    try:
        h = parse(data)
    except ProxyError:
        return
    if h is not None:
        assert 0 < h.length <= len(data)


async def _pair() -> tuple[socket.socket, socket.socket]:
    a, b = socket.socketpair()
    a.setblocking(False)
    return a, b


async def test_read_header_leaves_the_ssh_stream() -> None:
    for header in (b"PROXY TCP4 203.0.113.7 10.0.0.2 51000 2222\r\n", v2()):
        server, client = await _pair()
        try:
            # The header arrives in two pieces, the SSH banner right behind it.
            client.sendall(header[:5])
            task = asyncio.create_task(read_header(server, timeout=2))
            await asyncio.sleep(0.05)
            client.sendall(header[5:] + b"SSH-2.0-OpenSSH_9.2\r\n")
            h = await task
            assert h.source == ("203.0.113.7", 51000)
            assert server.recv(100) == b"SSH-2.0-OpenSSH_9.2\r\n"  # not one byte of the stream consumed
        finally:
            server.close()
            client.close()


async def test_read_header_refuses_silence_garbage_and_close() -> None:
    server, client = await _pair()
    with pytest.raises(ProxyError, match="in time"):
        await read_header(server, timeout=0.2)
    client.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")  # a listener that expects PROXY refuses a bare client
    with pytest.raises(ProxyError, match="no PROXY header"):
        await read_header(server, timeout=1)
    server.close()
    client.close()
    server, client = await _pair()
    client.sendall(b"PROXY TCP4 1.2")
    client.close()
    with pytest.raises(ProxyError):
        await read_header(server, timeout=1)
    server.close()
