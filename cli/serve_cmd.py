"""`citadels serve`: host Citadels games over SSH (see docs/server.md)."""

from __future__ import annotations

import argparse

KINDS = ("random", "easy", "normal", "hard")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="host games over SSH",
        description="Run the SSH server: players connect with `ssh -p PORT HOST`, meet in the lobby and play. "
        "Unfinished games in the saves folder are resumed at start. Stop with Ctrl+C (SIGINT) or "
        "SIGTERM. Every option can also be set in a TOML file (--config); the command line wins.",
    )
    p.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1; 0.0.0.0 for everyone)")
    p.add_argument("--port", type=int, default=None, help="port to listen on (default 2222; 0 picks a free one)")
    p.add_argument(
        "--keys-dir", default=None, help="folder of the server's host key, made on first start (default ./keys)"
    )
    p.add_argument(
        "--saves-dir",
        default=None,
        help="folder where games are saved after every move and resumed from (default ./saves)",
    )
    p.add_argument("--config", metavar="FILE", default=None, help="a TOML file of settings (docs/server.md)")
    p.add_argument(
        "--load",
        metavar="FILE",
        action="append",
        default=[],
        help="start a table from this save file (repeatable); players find their seats by key",
    )
    p.add_argument("--json-logs", action="store_true", default=None, help="log JSON lines on stderr")
    p.add_argument(
        "--bots",
        choices=KINDS,
        default=None,
        help="the bots' level (default normal; hard thinks in a pool of worker processes)",
    )
    p.add_argument(
        "--idle-wait",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a disconnected player's seat waits before a bot plays it (default 60)",
    )
    p.add_argument("--no-guests", action="store_true", default=None, help="refuse clients without an SSH key")
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="the players database (accounts, ratings, history): sqlite:///PATH or "
        "postgresql://USER@HOST:PORT/DB (default: players.sqlite3 in the saves folder; "
        "an older schema is refused: run `citadels db migrate`)",
    )
    p.add_argument(
        "--rate-bots",
        action="store_true",
        default=None,
        help="rate bot levels as players (else a bot at the table makes a game unrated)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    import msgspec

    from server.config import ConfigError, ServerConfig, load_config

    try:
        config = load_config(args.config) if args.config else ServerConfig()
    except ConfigError as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 2
    overrides = {
        "host": args.host,
        "port": args.port,
        "keys_dir": args.keys_dir,
        "saves_dir": args.saves_dir,
        "json_logs": args.json_logs,
        "bot_kind": args.bots,
        "idle_wait_seconds": args.idle_wait,
        "allow_guests": False if args.no_guests else None,
        "database": args.database,
        "rate_bots": args.rate_bots,
    }
    try:
        config = msgspec.structs.replace(config, **{k: v for k, v in overrides.items() if v is not None})
        config = msgspec.convert(msgspec.to_builtins(config), ServerConfig)  # re-validate the overrides
    except (msgspec.ValidationError, TypeError) as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 2
    from server.serve import run as serve

    return serve(config, args.load)
