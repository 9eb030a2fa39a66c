"""An admin answer longer than a request's limit is read whole: `citadels admin sessions` through the
--workers parent lists every session of a worker (a thousand sessions are ~200 KB; the parent used to
refuse an answer over 64 KiB, the request's limit)."""

from __future__ import annotations

import json
import socket
import threading

from server.admin import protocol as p
from server.admin.socket_server import ask
from server.cluster.workers_admin import _exchange


def _serve_once(path, answer: bytes) -> threading.Thread:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def run() -> None:
        conn, _ = server.accept()
        with conn, server:
            conn.recv(65536)
            conn.sendall(answer)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_listing_of_a_thousand_sessions_is_read_whole(tmp_path):
    rows = [
        {"session": f"w1.s{i}", "name": f"player {i}", "key": "SHA256:" + "x" * 43, "where": "lobby"}
        for i in range(1000)
    ]
    answer = json.dumps({"ok": True, "rows": rows}).encode() + b"\n"
    assert len(answer) > p.MAX_LINE
    path = tmp_path / "w1.sock"
    thread = _serve_once(path, answer)
    reply = _exchange(path, b'{"type": "sessions"}\n')  # as the parent asks a worker
    thread.join(5)
    assert reply.ok and len(reply.rows or []) == 1000
    path.unlink()
    thread = _serve_once(path, answer)
    assert json.loads(ask(path, b'{"type": "sessions"}\n', 5.0))["rows"] == rows  # as the host's CLI asks
    thread.join(5)
