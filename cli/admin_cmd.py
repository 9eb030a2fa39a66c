"""`citadels admin`: the host's tools for a running server (sessions, tables, kick, ban, close, broadcast).

It talks to the server through the Unix socket `admin.sock` in the server's saves
folder (mode 0600: only the user who runs the server can use it; see
server/admin/socket_server.py for why a socket rather than SSH). One request per
call. Exit status: 0 done, 1 refused or no server, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

TIMEOUT = 15.0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "admin",
        help="the host's tools for a running server",
        description="Act on a running `citadels serve`: list sessions and tables, kick, ban a key or an "
        "address (bans persist in the saves folder's bans.json), close a table, broadcast a notice. "
        "Talks to the server over the Unix socket admin.sock in its saves folder, which only the "
        "server's own user may use. Exit status: 0 done, 1 refused or no server, 2 usage error.",
    )
    p.add_argument("--saves-dir", default="saves", help="the server's saves folder (default ./saves)")
    p.add_argument("--socket", default=None, help="the admin socket's path (default SAVES_DIR/admin.sock)")
    a = p.add_subparsers(dest="admin_command", metavar="ACTION")

    def listing(name: str, help_: str, description: str) -> argparse.ArgumentParser:
        q = a.add_parser(name, help=help_, description=description)
        q.add_argument("--json", action="store_true", help="one JSON object per line instead of a table")
        return q

    listing(
        "sessions",
        "the players connected: session id, name, key or guest, address, where they are",
        "List the sessions in the lobby or at tables: session id (for kick and ban), name, key "
        "fingerprint or 'guest', source address, where (lobby, room, playing, away, watching), table, seat.",
    ).set_defaults(func=_simple("sessions"))
    listing(
        "tables",
        "the tables: id, name, state, seats, players present, moves",
        "List the tables: id (for close), name, state (waiting, playing, over), private, a saved game "
        "waiting for its players, the seats, players present, spectators, moves, creator and its address.",
    ).set_defaults(func=_simple("tables"))
    listing(
        "bans", "the bans in force", "List the bans: kind (key or address), value, reason, since when."
    ).set_defaults(func=_simple("bans"))
    listing(
        "status",
        "counts: sessions, connections, tables, refusals by cause",
        "Counts of sessions, connections and tables, and of requests refused by cause since the start "
        "(the lobby's: table limits, wrong join codes, loads of others' games...; the transport's when it "
        "keeps them).",
    ).set_defaults(func=_simple("status"))

    kick = a.add_parser(
        "kick",
        help="disconnect sessions (by session id, key or address)",
        description="Close every session that matches TARGET: a session id as `sessions` lists it (s12), a "
        "key fingerprint (SHA256:...), or a source address. The player sees MESSAGE (default: 'The host "
        "disconnected you.'). They may reconnect: ban to keep them out.",
    )
    kick.add_argument("target")
    kick.add_argument("--message", default="", help="the line the player sees")
    kick.set_defaults(func=lambda args: _call(args, {"type": "kick", "target": args.target, "message": args.message}))

    ban = a.add_parser(
        "ban",
        help="ban a key, an address (or network), or a session's identity",
        description="Ban a key fingerprint (`ban key SHA256:...`), an address or a network (`ban address "
        "203.0.113.7`, `ban address 203.0.113.0/24`), or the identity of a listed session (`ban session "
        "s12`: its key, or a guest's address). Sessions that match are closed at once; the ban is kept in "
        "the saves folder's bans.json and holds across restarts.",
    )
    ban.add_argument("kind", choices=["key", "address", "session"])
    ban.add_argument("value")
    ban.add_argument("--reason", default="", help="a note kept with the ban")
    ban.set_defaults(
        func=lambda args: _call(args, {"type": "ban", "kind": args.kind, "value": args.value, "reason": args.reason})
    )

    unban = a.add_parser(
        "unban", help="lift a ban", description="Lift a ban on a key or an address (as `bans` lists it)."
    )
    unban.add_argument("kind", choices=["key", "address"])
    unban.add_argument("value")
    unban.set_defaults(func=lambda args: _call(args, {"type": "unban", "kind": args.kind, "value": args.value}))

    close = a.add_parser(
        "close",
        help="close a table",
        description="Close a table (its id as `tables` lists it): everyone there goes back to the lobby with "
        "MESSAGE. A running game is kept in the saves folder's closed/ (not resumed at the next start; "
        "`citadels serve --load` brings it back).",
    )
    close.add_argument("table")
    close.add_argument("--message", default="", help="the line the players see")
    close.set_defaults(func=lambda args: _call(args, {"type": "close", "table": args.table, "message": args.message}))

    broadcast = a.add_parser(
        "broadcast",
        help="a notice to every player",
        description="Show TEXT to every connected player (a notification, in the lobby and at tables), "
        "marked as a message from the host.",
    )
    broadcast.add_argument("text", nargs="+")
    broadcast.set_defaults(func=lambda args: _call(args, {"type": "broadcast", "text": " ".join(args.text)}))

    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _simple(kind: str):
    return lambda args: _call(args, {"type": kind})


def _call(args: argparse.Namespace, request: dict[str, Any]) -> int:
    from engine.text import strip_controls
    from server.admin.socket_server import ask, socket_path

    path = args.socket or str(socket_path(args.saves_dir))
    try:
        reply = json.loads(ask(path, json.dumps(request).encode() + b"\n", TIMEOUT))
    except (FileNotFoundError, ConnectionRefusedError):
        print(f"citadels admin: no server is running on {args.saves_dir} (no admin socket at {path})", file=sys.stderr)
        return 1
    except PermissionError:
        print(f"citadels admin: {path}: permission denied (run as the server's user)", file=sys.stderr)
        return 1
    except (OSError, ValueError) as e:
        print(f"citadels admin: {path}: {e}", file=sys.stderr)
        return 1
    safe = lambda v: strip_controls(str(v)).replace("\n", " ")
    if not reply.get("ok"):
        print(f"citadels admin: {safe(reply.get('message', 'refused'))}", file=sys.stderr)
        return 1
    rows, data = reply.get("rows") or [], reply.get("data") or {}
    if getattr(args, "json", False):
        for row in rows or ([data] if data else []):
            print(strip_controls(json.dumps(row, ensure_ascii=True)))
        return 0
    if data:
        for k, v in data.items():
            print(f"{k}: {safe(json.dumps(v) if isinstance(v, dict) else v)}")
    elif rows:
        _table(
            [
                {k: safe(", ".join(v) if isinstance(v, list) else "-" if v is None else v) for k, v in r.items()}
                for r in rows
            ]
        )
    else:
        print(safe(reply.get("message", "ok")))
    return 0


def _table(rows: list[dict[str, str]]) -> None:
    keys = list(rows[0])
    widths = {k: min(max(len(k), *(len(r[k]) for r in rows)), 60) for k in keys}
    print("  ".join(k.upper().ljust(widths[k]) for k in keys).rstrip())
    for r in rows:
        print("  ".join(r[k][: widths[k]].ljust(widths[k]) for k in keys).rstrip())
