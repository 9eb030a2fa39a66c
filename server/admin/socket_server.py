"""The admin socket: `<saves folder>/admin.sock`, a Unix socket only the server's own user can use.

Why a local socket rather than SSH exec from a listed host key: only someone who
can already act as the server's user on its machine reaches it (file mode 0600,
and the peer's uid checked with SO_PEERCRED); there is no key to list, leak or
rotate, nothing new exposed to the network, and it works while the SSH port is
saturated by the very attack the host wants to stop (admission caps do not apply).
The SSH transport keeps refusing exec for everyone.

One request per connection: a JSON line in, a JSON line out (server/admin/protocol.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from server.admin import protocol as p
from server.logging_setup import log_event

if TYPE_CHECKING:  # the lobby's side, imported where a server starts its socket (the --workers parent never does)
    from server.admin.service import AdminService

log = logging.getLogger("citadels.server.admin")

SOCKET_NAME = "admin.sock"
MAX_PATH = 107  # sun_path


def bind_private_socket(path: Path) -> socket.socket:
    """A Unix socket bound at ``path`` (one left there by a server that crashed is replaced: the saves
    folder's lock says none runs), born 0600: no moment when another user could connect."""
    if len(os.fsencode(path)) > MAX_PATH:
        raise OSError(f"the path {path} is too long for a Unix socket ({MAX_PATH} bytes at most)")
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(str(path))
    except OSError:
        sock.close()
        raise
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    return sock


def read_line(conn: socket.socket, limit: int = p.MAX_LINE) -> bytes:
    """One JSON line from a blocking socket (what came before the peer closed, if it closed first)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            raise ValueError(f"a line of the admin protocol is at most {limit} bytes")
    return data


def ask(path: str | Path, line: bytes, timeout: float) -> bytes:
    """Send one request line to the admin socket at ``path`` and read its answer line (the host's
    `citadels admin` and the --workers parent asking each worker). OSError, or ValueError when the
    server closed without answering."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
        s.sendall(line)
        data = read_line(s, limit=64 * p.MAX_LINE)  # answers (a listing of every session) are longer
    if not data:
        raise ValueError("the server closed the connection without answering")
    return data


def socket_path(saves_dir: str | Path) -> Path:
    return Path(saves_dir) / SOCKET_NAME


class AdminSocket:
    def __init__(self, service: AdminService, path: Path) -> None:
        self.service = service
        self.path = path
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        path = self.path
        sock = bind_private_socket(path)
        self._server = await asyncio.start_unix_server(self._client, sock=sock, limit=p.MAX_LINE)
        log_event(log, logging.INFO, "admin socket", path=str(path))

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        with contextlib.suppress(OSError):
            self.path.unlink()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if not _same_user(writer.get_extra_info("socket")):
                writer.write(p.encode(p.Reply(False, "only the server's own user may use this socket")))
                return
            try:
                line = await asyncio.wait_for(reader.readline(), 10)
                req = p.decode_request(line)
            except (TimeoutError, ValueError, msgspec.DecodeError, asyncio.LimitOverrunError) as e:
                writer.write(p.encode(p.Reply(False, f"bad request: {str(e).splitlines()[0] if str(e) else e}")))
                return
            reply = await self.service.handle(req)
            writer.write(p.encode(reply))
            await writer.drain()
        except Exception:  # one bad client never stops the socket
            log.exception("admin request failed")
            with contextlib.suppress(Exception):
                writer.write(p.encode(p.Reply(False, "internal error (see the server's log)")))
        finally:
            with contextlib.suppress(Exception):
                writer.close()


def _same_user(sock: Any) -> bool:
    """The peer runs as our user (or root), where the OS can say; file permissions are the first guard."""
    opt = getattr(socket, "SO_PEERCRED", None)
    if sock is None or opt is None:
        return True
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, opt, struct.calcsize("3i"))
    except OSError:
        return True
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid in (0, os.getuid())


async def start_admin(saves_dir: str | Path, lobby: Any, server: Any) -> AdminSocket:
    from server.admin.service import AdminService

    admin = AdminSocket(AdminService(lobby, server), socket_path(saves_dir))
    await admin.start()
    return admin
