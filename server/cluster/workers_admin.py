"""`citadels admin` against `citadels serve --workers N`: one admin socket for the host, the parent's.

    admin = WorkersAdmin(saves / "admin.sock", workers)   # workers(): [(name, its admin socket), ...]
    admin.start()                                          # a thread answers; admin.close() at the end

The parent serves nobody, so it answers nothing itself: each request is passed to every worker's own
admin socket (`<saves>/w<K>/admin.sock`, server/cluster/node_admin.py: a worker answers for its own
sessions and the tables it runs), at once and in parallel, and their replies are put together into
the one reply a single server would give:

- `sessions`, `tables`: every worker's rows (session ids are `w<K>.s<n>`, unique on the host);
- `status`: the counts added up (`workers`: the workers that answered);
- `bans`: the list (one file for every worker);
- `kick`, `broadcast`: done by every worker for its own sessions, the counts added up;
- `ban`: given to every worker (the first writes the shared `bans.json` under its lock, the others
  find it there), each closing its own sessions of that key or address; `ban session w2.s7` is
  first turned into that session's key (a guest's: its address), found in the workers' listings;
- `unban`, `close`: done by whichever worker can (the bans file is one; a table has one owner).

A worker that does not answer in time (it is starting again after a crash) is named in the reply's
message; what the others did stands.

The socket is made as a single server's (server/admin/socket_server.py): mode 0600, the peer's uid
checked, one JSON request line, one JSON reply line.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from server.admin import protocol as p
from server.admin.socket_server import _same_user, ask, bind_private_socket, read_line
from server.logging_setup import log_event

log = logging.getLogger("citadels.server.admin")

WORKER_TIMEOUT = 8.0  # per worker; the command's own timeout is 15 s (cli/admin_cmd.py)
REQUEST_TIMEOUT = 10.0
_reply = msgspec.json.Decoder(p.Reply)


class WorkersAdmin:
    """The parent's admin socket, answered by asking the workers."""

    def __init__(self, path: Path, workers: Callable[[], list[tuple[str, Path]]]) -> None:
        self.path = path
        self.workers = workers
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._closing = False

    def start(self) -> None:
        path = self.path
        sock = bind_private_socket(path)
        sock.listen(16)
        self._sock = sock
        self._thread = threading.Thread(target=self._accept, name="citadels-admin", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closing = True
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
            self._sock = None
        with contextlib.suppress(OSError):
            self.path.unlink()

    def _accept(self) -> None:
        sock = self._sock
        while sock is not None and not self._closing:
            try:
                conn, _ = sock.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._client, args=(conn,), name="citadels-admin-client", daemon=True).start()

    def _client(self, conn: socket.socket) -> None:
        with conn:
            try:
                if not _same_user(conn):
                    conn.sendall(p.encode(p.Reply(False, "only the server's own user may use this socket")))
                    return
                conn.settimeout(REQUEST_TIMEOUT)
                try:
                    line = read_line(conn)
                    req = p.decode_request(line)
                except (OSError, ValueError, msgspec.DecodeError) as e:
                    conn.sendall(p.encode(p.Reply(False, f"bad request: {str(e).splitlines()[0] if str(e) else e}")))
                    return
                conn.sendall(p.encode(self.handle(req)))
            except Exception:  # one bad client never stops the socket
                log.exception("admin request failed")
                with contextlib.suppress(Exception):
                    conn.sendall(p.encode(p.Reply(False, "internal error (see the server's log)")))

    # --- asking the workers ----------------------------------------------------------------------------
    def ask(self, req: p.Request) -> tuple[list[tuple[str, p.Reply]], list[str]]:
        """Every worker's reply to `req` (in the workers' order), and the workers that did not answer."""
        workers = self.workers()
        line = p.encode(req)
        answered: list[tuple[str, p.Reply]] = []
        missing: list[str] = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(workers))) as pool:
            futures = [(name, pool.submit(_exchange, path, line)) for name, path in workers]
            for name, future in futures:
                try:
                    answered.append((name, future.result()))
                except (OSError, ValueError, msgspec.DecodeError, msgspec.ValidationError):
                    missing.append(name)
        return answered, missing

    def handle(self, req: p.Request) -> p.Reply:
        kind = str(type(req).__struct_config__.tag)
        if isinstance(req, p.Ban) and req.kind == "session":
            found = self._session(req.value.strip())
            if isinstance(found, p.Reply):
                return found
            kind_, value = found
            req = p.Ban(kind=kind_, value=value, reason=req.reason)  # type: ignore[arg-type]
        answered, missing = self.ask(req)
        reply = _merge(kind, [r for _, r in answered], [n for n, _ in answered])
        if missing:
            note = f"no answer from {', '.join(missing)}"
            reply.message = f"{reply.message}; {note}" if reply.message else note
            if not answered:
                reply.ok = False
        if kind not in ("sessions", "tables", "bans", "status"):
            level = logging.WARNING if reply.ok else logging.INFO  # as a single server's (admin/service.py)
            log_event(log, level, "admin command", command=kind, ok=reply.ok, result=reply.message)
        return reply

    def _session(self, session_id: str) -> tuple[str, str] | p.Reply:
        """A listed session's identity to ban: its key, or a guest's address."""
        answered, missing = self.ask(p.Sessions())
        for _, r in answered:
            for row in r.rows:
                if row.get("session") == session_id:
                    if row.get("key") == "guest":
                        return "address", str(row.get("peer", ""))
                    return "key", str(row.get("key", ""))
        gone = f" (no answer from {', '.join(missing)})" if missing else ""
        return p.Reply(False, f"no session {session_id[:40]!r}{gone}")


def _exchange(path: Path, line: bytes) -> p.Reply:
    return _reply.decode(ask(path, line, WORKER_TIMEOUT))


# --- putting the replies together --------------------------------------------------------------------
def _merge(kind: str, replies: list[p.Reply], names: list[str]) -> p.Reply:
    if not replies:
        return p.Reply(False, "")
    oks = [r for r in replies if r.ok]
    first_error = next((r for r in replies if not r.ok), None)
    if kind in ("sessions", "tables"):
        if first_error is not None and not oks:
            return first_error
        rows = [row for r in oks for row in r.rows]
        if kind == "sessions":
            rows.sort(key=lambda row: -int(row.get("connected_s", 0)))  # the oldest first, as one server
        return p.Reply(True, f"{len(rows)} {'session' if kind == 'sessions' else 'table'}(s)", rows=rows)
    if kind == "bans":
        return oks[0] if oks else replies[0]
    if kind == "status":
        if not oks:
            return replies[0]
        data: dict[str, Any] = {}
        for r in oks:
            data = _add(data, r.data)
        for same in ("max_tables", "bans"):  # one setting, one file: not added up
            if same in oks[0].data:
                data[same] = oks[0].data[same]
        data.pop("node", None)
        data["workers"] = [name for name, r in zip(names, replies) if r.ok]
        return p.Reply(True, "status", data=data)
    if not oks:  # nobody could: the first reason (the same from every worker, or "no such ...")
        return replies[0]
    count = sum(r.count for r in oks)
    if kind == "kick":
        ids = ", ".join(r.message.split(": ", 1)[1] for r in oks if ": " in r.message)
        return p.Reply(True, f"kicked {count} session(s): {ids}", count=count)
    if kind == "broadcast":
        return p.Reply(True, f"sent to {count} session(s)", count=count)
    if kind == "ban":
        new = any(r.message.startswith("banned:") for r in oks)
        what = oks[0].message.split(";", 1)[0].split(": ", 1)[-1]  # "key SHA256:..." as stored
        return p.Reply(True, f"{'banned' if new else 'already banned'}: {what}; {count} session(s) closed", count=count)
    return oks[0]  # unban, close: the worker that did it


def _add(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two workers' status figures added up (numbers summed, dicts merged key by key)."""
    out = dict(a)
    for k, v in b.items():
        mine = out.get(k)
        if isinstance(v, dict):
            out[k] = _add(mine if isinstance(mine, dict) else {}, v)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            out[k] = (mine if isinstance(mine, int | float) and not isinstance(mine, bool) else 0) + v
        elif k not in out or mine is None:
            out[k] = v
    return out
