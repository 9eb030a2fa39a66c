"""The PROXY protocol (v1 text and v2 binary), as HAProxy and other TCP balancers send it.

A balancer in front of several nodes hides the player's address: every connection
comes from the balancer. With `send-proxy` (v1) or `send-proxy-v2` it writes one
header before the client's bytes, naming the real source and destination. asyncssh
does not parse it, so a listener that asks for it reads exactly the header from the
accepted socket (peeking first, so that not one byte of the SSH stream is consumed)
and then hands the socket to asyncssh.

Spec: https://www.haproxy.org/download/2.9/doc/proxy-protocol.txt

`parse(data)` is pure: it answers a header, "need more bytes", or raises
`ProxyError` for anything malformed. `read_header(sock, timeout)` does the socket
side. A listener that does not expect the protocol never calls either; a header sent
to it is then just garbage in the SSH banner exchange, refused by asyncssh.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
from dataclasses import dataclass

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V1_PREFIX = b"PROXY "
V1_MAX = 107  # the longest v1 line, CRLF included (spec, section 2.1)
V2_MAX_BODY = 4096  # addresses plus TLVs; HAProxy's own headers stay far below this
_V2_ADDR_LEN = {0x1: 12, 0x2: 36, 0x3: 216}  # AF_INET, AF_INET6, AF_UNIX


class ProxyError(ValueError):
    """A header that is missing, malformed or not allowed: the connection is closed."""


@dataclass(frozen=True)
class ProxyHeader:
    """What the balancer says about the connection it forwards."""

    version: int  # 1 or 2
    source: tuple[str, int] | None  # the player's (address, port); None: LOCAL / UNKNOWN (a health check)
    destination: tuple[str, int] | None
    length: int  # bytes of the header, consumed from the stream


def _addr(text: bytes, family: int) -> str:
    try:
        ip = ipaddress.ip_address(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise ProxyError("PROXY v1: bad address") from None
    if ip.version != family:
        raise ProxyError("PROXY v1: address of the wrong family")
    return str(ip)


def _port(text: bytes) -> int:
    if not text.isdigit() or len(text) > 5 or (len(text) > 1 and text[:1] == b"0"):
        raise ProxyError("PROXY v1: bad port")
    port = int(text)
    if port > 65535:
        raise ProxyError("PROXY v1: bad port")
    return port


def _parse_v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX or b"\n" in data[:V1_MAX]:
            raise ProxyError("PROXY v1: no CRLF within 107 bytes")
        return None
    parts = data[:end].split(b" ")
    if parts[1:2] == [b"UNKNOWN"]:
        return ProxyHeader(1, None, None, end + 2)
    if len(parts) != 6 or parts[1] not in (b"TCP4", b"TCP6"):
        raise ProxyError("PROXY v1: expected 'PROXY TCP4|TCP6 SRC DST SPORT DPORT'")
    family = 4 if parts[1] == b"TCP4" else 6
    src = (_addr(parts[2], family), _port(parts[4]))
    dst = (_addr(parts[3], family), _port(parts[5]))
    return ProxyHeader(1, src, dst, end + 2)


def _parse_v2(data: bytes) -> ProxyHeader | None:
    if len(data) < 16:
        return None
    ver_cmd, fam, body_len = data[12], data[13], struct.unpack("!H", data[14:16])[0]
    if ver_cmd >> 4 != 2:
        raise ProxyError("PROXY v2: unknown version")
    if body_len > V2_MAX_BODY:
        raise ProxyError("PROXY v2: header too long")
    total = 16 + body_len
    if len(data) < total:
        return None
    command = ver_cmd & 0xF
    if command == 0x0:  # LOCAL: the balancer's own connection (health check); keep the real peer
        return ProxyHeader(2, None, None, total)
    if command != 0x1:
        raise ProxyError("PROXY v2: unknown command")
    family, transport = fam >> 4, fam & 0xF
    if family == 0x0:  # UNSPEC
        return ProxyHeader(2, None, None, total)
    if transport != 0x1:  # only STREAM carries SSH
        raise ProxyError("PROXY v2: not a stream connection")
    need = _V2_ADDR_LEN.get(family)
    if need is None:
        raise ProxyError("PROXY v2: unknown address family")
    if body_len < need:
        raise ProxyError("PROXY v2: address block too short")
    body = data[16 : 16 + need]
    if family == 0x1:
        src_ip, dst_ip, sp, dp = struct.unpack("!4s4sHH", body)
        return ProxyHeader(2, (str(ipaddress.IPv4Address(src_ip)), sp), (str(ipaddress.IPv4Address(dst_ip)), dp), total)
    if family == 0x2:
        src_ip, dst_ip, sp, dp = struct.unpack("!16s16sHH", body)
        return ProxyHeader(2, (str(ipaddress.IPv6Address(src_ip)), sp), (str(ipaddress.IPv6Address(dst_ip)), dp), total)
    src = body[:108].split(b"\0", 1)[0].decode("utf-8", "replace")
    return ProxyHeader(2, (f"unix:{src}", 0), None, total)


def parse(data: bytes) -> ProxyHeader | None:
    """The header at the start of `data`; None when more bytes are needed; ProxyError when malformed."""
    if data[:1] == b"P":
        if not V1_PREFIX.startswith(data[:6]) and not data.startswith(V1_PREFIX):
            raise ProxyError("no PROXY header")
        if len(data) < len(V1_PREFIX):
            return None
        return _parse_v1(data)
    if data[:1] == b"\r":
        sig = data[: len(V2_SIGNATURE)]
        if not V2_SIGNATURE.startswith(sig):
            raise ProxyError("no PROXY header")
        if len(sig) < len(V2_SIGNATURE):
            return None
        return _parse_v2(data)
    if not data:
        return None
    raise ProxyError("no PROXY header")


async def read_header(sock: socket.socket, timeout: float) -> ProxyHeader:
    """Read exactly the PROXY header from a non-blocking accepted socket, within `timeout` seconds.

    Peeks until `parse` answers, then receives just the header's bytes, so that the
    SSH stream that follows stays in the socket for asyncssh."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    want = 16
    while True:
        try:
            data = sock.recv(max(want, V1_MAX), socket.MSG_PEEK)
        except BlockingIOError:
            data = None
        if data == b"":
            raise ProxyError("closed before the PROXY header")
        if data:
            header = parse(data)
            if header is not None:
                got = 0
                while got < header.length:  # the bytes are there (peeked): this does not wait
                    chunk = sock.recv(header.length - got)
                    if not chunk:
                        raise ProxyError("closed inside the PROXY header")
                    got += len(chunk)
                return header
            if data[:1] == b"\r" and len(data) >= 16:
                want = 16 + struct.unpack("!H", data[14:16])[0]
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise ProxyError("no PROXY header in time")
        if data:  # part of a header: the socket stays readable (peeked), so wait a little, not for readability
            await asyncio.sleep(min(0.01, remaining))
            continue
        fut: asyncio.Future[None] = loop.create_future()

        def readable(f: asyncio.Future[None] = fut) -> None:
            if not f.done():
                f.set_result(None)

        loop.add_reader(sock.fileno(), readable)
        try:
            await asyncio.wait_for(fut, remaining)
        except TimeoutError:
            raise ProxyError("no PROXY header in time") from None
        finally:
            loop.remove_reader(sock.fileno())
