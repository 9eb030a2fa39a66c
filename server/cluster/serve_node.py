"""`citadels serve --cluster nats://HOST:4222`: a cluster node, until SIGINT/SIGTERM.

    run_node(config, cluster, load=[...])    # blocking; returns an exit status

Like `citadels serve` (server/serve.py), with the tables in the cluster: the node joins it
(server/cluster/node.py), then serves SSH with the cluster's lobby. Its own saves folder keeps
what is the node's (bans, the players' exports, finished games), or the `shared_dir` of its
`[cluster]` table does (`--workers N`: the parent's saves folder, one for all its workers); the
games in progress are in the cluster's log. Bans are enforced at SSH authentication as on a single
server; `citadels admin` reaches the node through `admin.sock` in its saves folder
(server/cluster/node_admin.py). Its sessions' ids are `<node>.s<n>`: unique in the cluster.
SIGTERM or SIGINT drains the node (its running tables handed over at once, its sessions given
`drain_grace_seconds` to finish), then stops it; a second signal stops at once.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from server import event_loop
from server.admin.bans import BanError, Bans
from server.admin.socket_server import AdminSocket, socket_path
from server.app import make_app_factory
from server.cluster.config import ClusterConfig, ClusterConfigError
from server.cluster.connection import ClusterUnavailable
from server.cluster.node import ClusterNode
from server.cluster.nodes import NodeIdInUse
from server.config import ServerConfig
from server.event_loop import EventLoopUnavailable
from server.logging_setup import configure_logging, log_event
from server.players.migrate import SchemaError
from server.players.service import PlayersService
from server.players.url import DatabaseURLError
from server.serving import on_stop_signals, print_connect
from server.storage.persistence import PersistenceError, SaveStore
from server.transport import screen_moves
from server.transport.screen_host import ScreenServer, screens_socket
from server.transport.session import set_session_prefix
from server.transport.ssh import StartError, start_server

log = logging.getLogger("citadels.server")


def run_node(config: ServerConfig, cluster: ClusterConfig, load: list[str] | None = None) -> int:
    configure_logging(json_lines=config.json_logs, level=config.log_level, asyncssh_level=config.asyncssh_log_level)
    try:
        return event_loop.run(serve_node(config, cluster, load or []), config.event_loop)
    except (
        PersistenceError,
        BanError,
        StartError,
        ClusterUnavailable,
        NodeIdInUse,
        ClusterConfigError,
        DatabaseURLError,
        SchemaError,
        EventLoopUnavailable,
    ) as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 1


async def serve_node(
    config: ServerConfig,
    cluster: ClusterConfig,
    load: list[str],
    ready: Any = None,
    stop: asyncio.Event | None = None,
) -> int:
    store = SaveStore(config.saves_dir)
    store.lock()
    pool = None
    players = None
    try:
        bans = Bans(Path(cluster.shared_dir or config.saves_dir) / "bans.json")
        # The shared players database (PostgreSQL; one SQLite file for nodes on one machine): the sessions'
        # accounts (server/cluster/front_accounts.py) and each table's owner records its finished game there.
        players = PlayersService.open(config) if config.accounts else None
        if config.bot_kind in ("hard", "expert") and config.bot_workers > 0:
            from server.tables.bot_pool import BotPool

            pool = BotPool(workers=config.bot_workers)
        node = ClusterNode(
            config, cluster, store, pool=pool, bans=bans, address=f"{config.host}:{config.port}", players=players
        )
        await node.start()
        # The node's first life too: a node (a worker) started again under its id must not hand out its
        # previous run's session ids (a guest's seat key is "guest:<session id>": a new guest would get it).
        set_session_prefix(f"{node.node_id}.{node.nodes.life[:6]}.")
        if players is not None:
            await players.start()  # games recorded while the database was away, from an earlier run
    except BaseException:
        if players is not None:
            await players.close()
        if pool is not None:
            await pool.close()
        store.unlock()
        raise
    try:
        for path in load:
            try:
                node.load_file(path)
            except Exception as e:  # a bad file is reported, the node runs anyway
                print(f"warning: cannot load {path}: {e}", file=sys.stderr, flush=True)
        server = await start_server(config, make_app_factory(node.front), login_check=bans.banned)
        node.on_drain.append(lambda: _stop_accepting(server))
        screens = await _screens(config, cluster, node, server)
        admin = None
        if config.admin_socket:
            from server.cluster.node_admin import NodeAdminService

            admin = AdminSocket(NodeAdminService(node, server), socket_path(config.saves_dir))
            try:
                await admin.start()
            except OSError as e:
                admin = None
                print(f"warning: no admin socket (citadels admin will not work): {e}", file=sys.stderr, flush=True)
        print_connect(server, config.host)
        print(f"Cluster node {node.node_id} (namespace {cluster.namespace})", flush=True)
        if players is not None:  # shared by the nodes: accounts, names, key codes, finished games
            print(f"Players database: {players.where}", flush=True)
        log_event(log, logging.INFO, "serving", port=server.port, node=node.node_id, cluster=cluster.namespace)
        try:
            await _run_until_stopped(node, server, ready, stop)
        finally:
            if admin is not None:
                admin.close()
            if screens is not None:
                screens.close()
                screen_moves.configure(node.node_id, None)
    finally:
        await node.stop()
        if players is not None:
            await players.close()
        if pool is not None:
            await pool.close()
        store.unlock()
    return 0


def _screens_folder(config: ServerConfig, cluster: ClusterConfig, node_id: str) -> Path | None:
    """The shared folder if this worker's screens may move (its saves folder is `<shared_dir>/<node id>`)."""
    if not (cluster.shared_dir and cluster.move_screens):
        return None
    shared = Path(cluster.shared_dir)
    if Path(config.saves_dir).resolve() != (shared / node_id).resolve():
        log_event(log, logging.WARNING, "screens do not move: the saves folder is not <shared_dir>/<node id>")
        return None
    return shared


async def _screens(config: ServerConfig, cluster: ClusterConfig, node: ClusterNode, server: Any) -> ScreenServer | None:
    """The workers of one host run a player's screen in their table's worker: this worker's socket for
    screens moved here (server/transport/screen_host.py), in its saves folder `<shared_dir>/<node id>`."""
    node_id = node.node_id
    shared = _screens_folder(config, cluster, node_id)
    if shared is None:
        return None
    screens = ScreenServer(server, screens_socket(config.saves_dir))
    try:
        await screens.start()
    except OSError as e:
        print(f"warning: screens stay where players connect: {e}", file=sys.stderr, flush=True)
        return None
    screen_moves.configure(node_id, shared)
    # Draining, this worker takes no more screens and sends back those it runs: their tables go elsewhere.
    node.on_drain.append(screens.close)
    node.on_drain.append(server.send_screens_home)
    return screens


async def _run_until_stopped(node: ClusterNode, server: Any, ready: Any, stop: asyncio.Event | None) -> None:
    stop = stop or asyncio.Event()
    now = asyncio.Event()

    def on_signal() -> None:  # a second signal: stop without waiting for the drain
        if stop.is_set():
            now.set()
        stop.set()

    with on_stop_signals(on_signal):
        if ready is not None:
            ready(server, node)
        await stop.wait()
        print("Draining...", file=sys.stderr, flush=True)
        drain = asyncio.ensure_future(node.drain(node.cluster.drain_grace_seconds))
        waiting = asyncio.ensure_future(now.wait())
        await asyncio.wait([drain, waiting], return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if not drain.done():
            drain.cancel()
        print("Stopping...", file=sys.stderr, flush=True)
        await server.close()


def _stop_accepting(server: Any) -> None:
    """A draining node takes no new connections (the balancer's check fails, players go elsewhere)."""
    stop = getattr(server, "stop_accepting", None)
    if stop is not None:
        stop()
