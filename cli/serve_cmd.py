"""`citadels serve`: host Citadels games over SSH (see docs/server.md)."""

from __future__ import annotations

import argparse

KINDS = ("random", "easy", "normal", "hard", "expert")  # engine.bots.registry.KINDS, without importing the engine


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
        help="the bots' level (default normal; hard and expert think in a pool of worker processes)",
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
        "--cluster",
        metavar="URLS",
        default=None,
        help="run as a node of a cluster on NATS JetStream: nats://HOST:4222[,nats://HOST2:4222...] "
        "(docs/cluster.md; settings in the config file's [cluster] table)",
    )
    p.add_argument("--node-id", default=None, help="this node's id in the cluster (default <hostname>-<pid>)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="N worker processes on one port with an embedded nats-server, one server for the players "
        "(default: the usable cores, when the cluster extra is installed; 1 is one process, no NATS)",
    )
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

    from ui import compat

    if not compat.verified():  # one line, before the server (its SSH driver needs Textual's insides) loads
        print(compat.unverified_message("citadels serve"), file=sys.stderr)
        return 2
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
    if args.cluster is not None or args.node_id is not None:
        if args.workers not in (None, 1):
            print("citadels serve: --workers runs its own cluster: no --cluster or --node-id", file=sys.stderr)
            return 2
        return _run_node(args, config)
    workers = args.workers if args.workers is not None else default_workers(config.saves_dir)
    if workers != 1:
        args.workers = workers
        return _run_workers(args, config)
    from server.serve import run as serve

    return serve(config, args.load)


def usable_cores() -> int:
    """The cores this process may run on: os.process_cpu_count() (3.13+), else its CPU affinity, else
    the machine's count; at least 1."""
    import os

    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return max(1, count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_workers(saves_dir: str | None = None) -> int:
    """`--workers` when not given: a worker per usable core, if this installation can run them (the
    cluster extra: nats-py and the nats-server binary); else 1, the single process (and a line on
    stderr saying why, when there is more than one core). Also 1 while the saves folder holds games
    in progress left by a single process (workers keep theirs in the cluster's store and would not
    resume them: a host upgrading loses no game)."""
    import sys

    cores = usable_cores()
    if cores == 1:
        return 1
    left = single_process_games(saves_dir) if saves_dir else 0
    if left:
        print(
            f"citadels serve: one process while {left} game(s) in progress in {saves_dir} are a single "
            f"process's (workers would not resume them); --workers {cores} runs a worker per core anyway",
            file=sys.stderr,
            flush=True,
        )
        return 1
    missing = _cluster_extra_missing()
    if missing:
        print(
            f"citadels serve: one process ({cores} cores, but a worker per core needs the cluster extra: "
            f"{missing}; --workers 1 says one process on purpose)",
            file=sys.stderr,
            flush=True,
        )
        return 1
    return cores


def single_process_games(saves_dir: str) -> int:
    """How many games in progress a single process left in ``saves_dir`` (its `<id>.save` files not
    in `finished/`), without reading them (the standard library and savelog's names only)."""
    from pathlib import Path

    from server.storage.savelog import FINISHED, TABLE_ID

    def names(folder: Path) -> set[str]:
        try:
            return {
                p.name[:-5]
                for p in folder.iterdir()
                if p.name.endswith(".save") and not p.name.startswith(".") and TABLE_ID.match(p.name[:-5])
            }
        except OSError:
            return set()

    root = Path(saves_dir)
    return len(names(root) - names(root / FINISHED))


def _cluster_extra_missing() -> str:
    """Why `--workers` cannot run here ("" if it can), without importing nats-py."""
    import importlib.util

    if importlib.util.find_spec("nats") is None:
        return "nats-py is not installed (pip install 'citadels-ssh[cluster]')"
    from server.cluster.natsd import NatsServerError, find_nats_server  # the standard library only

    try:
        find_nats_server()
    except NatsServerError as e:
        return str(e)
    return ""


def _run_node(args: argparse.Namespace, config) -> int:
    """A cluster node: nats-py is imported here only (plain `citadels serve` never imports it)."""
    import sys

    if args.cluster is None:
        print("citadels serve: --node-id needs --cluster", file=sys.stderr)
        return 2
    from server.cluster.config import ClusterConfigError, cluster_config, load_cluster_table

    try:
        table = load_cluster_table(args.config) if args.config else {}
        if args.node_id is not None:
            table["node_id"] = args.node_id
        cluster = cluster_config(args.cluster, **table)
    except ClusterConfigError as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 2
    try:
        from server.cluster.serve_node import run_node
    except ImportError as e:
        print(
            f"citadels serve: --cluster needs the cluster extra (pip install 'citadels-ssh[cluster]'): {e}",
            file=sys.stderr,
        )
        return 2
    return run_node(config, cluster, args.load)


def _run_workers(args: argparse.Namespace, config) -> int:
    """`--workers N`: N cluster nodes on one port behind an embedded nats-server (server/cluster/workers.py)."""
    import sys

    if args.workers < 1:
        print("citadels serve: --workers must be at least 1", file=sys.stderr)
        return 2
    from server.cluster.config import ClusterConfigError, load_cluster_table
    from server.cluster.workers import run_workers

    try:
        table = load_cluster_table(args.config) if args.config else {}
    except ClusterConfigError as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 2
    return run_workers(config, args.workers, args.load, {k: v for k, v in table.items() if k != "node_id"})
