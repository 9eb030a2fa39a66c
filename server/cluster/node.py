"""One node of the cluster, running: its NATS connection, the tables it owns, its sessions' lobby.

    node = ClusterNode(config, cluster_config, store, pool=pool, bans=bans)
    await node.start()               # joins: nodes, directory, leases, inbox; takes orphaned tables
    node.front                       # the lobby its sessions talk to (server/cluster/front_lobby.py)
    node.desk                        # the owner's side of its tables (server/cluster/owner_desk.py)
    await node.drain(grace)          # no new leases, tables handed over, sessions let finish
    await node.stop()

Ownership: a table is this node's from its creation (or loading) here, or from a takeover
(server/cluster/takeover.py) when its lease was released or the life of the node holding it
ended: every node watches the leases and the nodes, and each listed table not closed that is
freed so is a table to take. A lease lost (this node's life ended: no heartbeat stored in time)
or a log append refused drops the table here at once, silently: the node that takes it next
replays its log, and its sessions follow (they resume with the new owner).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

from server.cluster.bus import Sender
from server.cluster.config import ClusterConfig
from server.cluster.connection import ClusterConnection, barrier
from server.cluster.directory import TableDirectory
from server.cluster.front_link import FrontLink
from server.cluster.front_lobby import FrontLobby
from server.cluster.kvutil import TRANSIENT
from server.cluster.leases import Lease, LeaseManager
from server.cluster.nodes import NodeRecord, NodeRegistry
from server.cluster.owner_desk import OwnerDesk
from server.cluster.owner_lobby import ClusterLobby
from server.cluster.records import TableListing
from server.cluster.table_log import TableLog
from server.cluster.table_store import ClusterStore
from server.cluster.takeover import hand_over, take_over
from server.lobby.exports import ExportIndex
from server.logging_setup import log_event
from server.tables.table import Table

log = logging.getLogger("citadels.cluster.node")

ORPHAN_SWEEP_SECONDS = 2.0


class ClusterNode:
    """A running cluster node."""

    def __init__(
        self,
        config: Any,
        cluster: ClusterConfig,
        files: Any,
        *,
        pool: Any = None,
        bans: Any = None,
        address: str = "",
        players: Any = None,
    ) -> None:
        self.config = config
        self.players = players  # server.players.service.PlayersService: the owner records finished games
        self.cluster = cluster
        self.files = files  # the node's own saves folder (a SaveStore); see `shared` and `exports_folder`
        self.pool = pool
        self.bans = bans
        self.address = address
        self.draining = False
        self.stopping = False
        self.broken: set[str] = set()  # tables whose log this node cannot read: not retried
        self.on_drain: list[Any] = []  # callbacks when draining starts (the SSH listener stops accepting)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._control: Any = None
        self._lapses: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        self._acquiring: dict[str, asyncio.Future[Lease | None]] = {}

    @property
    def export_folder(self) -> Path:
        """Where the owner writes a game it exports for a session of another node (a temporary file)."""
        return Path(self.files.root) / "exports" / ".tmp"

    @property
    def shared(self) -> Path | None:
        """The folder shared with the machine's other nodes (`shared_dir`; `--workers N`), or None."""
        return Path(self.cluster.shared_dir) if getattr(self.cluster, "shared_dir", "") else None

    @property
    def exports_folder(self) -> Path:
        """The players' exports: listed by this node's sessions, loaded by the tables' owners."""
        return (self.shared or Path(self.files.root)) / "exports"

    # --- starting and stopping ---------------------------------------------------------------------------
    async def start(self) -> ClusterNode:
        self.conn = conn = await ClusterConnection.connect(self.cluster)
        self.names = conn.names
        self.node_id = conn.node
        self.sender = Sender(conn.nc)
        self.sender.start()
        self.nodes = NodeRegistry(conn, address=self.address, counts=self._counts)
        self.leases = LeaseManager(conn, self.nodes, on_lost=self._lease_lost)
        self.directory = await TableDirectory(conn).start()
        records = self.shared or Path(self.files.root) / "cluster"  # finished/ and closed/ games
        self.store = ClusterStore(conn, self.acquire, records, self._failed)
        lobby = ClusterLobby(self.config, self.store, self.pool, self, bans=self.bans, players=self.players)
        lobby.exports = ExportIndex(self.exports_folder, lobby.clock)  # the sessions' nodes list the same folder
        self.desk = OwnerDesk(self, lobby)
        self.link = FrontLink(self)
        self.front = FrontLobby(self.config, self.files, self, self.link, pool=self.pool, bans=self.bans)
        self.link.front = self.front
        await self.link.start()
        await self.front.start_accounts()
        await self.nodes.start()
        self.nodes.on_change.append(self._node_changed)
        self.nodes.on_life_end.append(self._life_ended)
        self._lapses = await self.leases.watch_lapses(self._lapsed)
        self._control = await conn.nc.subscribe(self.names.node_control(self.node_id), cb=self._on_control)
        await barrier(conn.nc)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_orphans(), name="citadels-orphans")
        log_event(log, logging.INFO, "node started", node=self.node_id, tables=len(self.directory.tables))
        return self

    def _counts(self) -> tuple[int, int]:
        return len(self.front.sessions), len(self.desk.lobby.tables)

    async def stop(self) -> None:
        """Leave the cluster: tables handed over, the rest let go."""
        self.stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table_id in list(self.desk.lobby.tables):
            t = self.desk.lobby.tables.get(table_id)
            if t is not None and t.phase == "playing":
                await hand_over(self, table_id)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            if self._lapses is not None:
                await self._lapses.stop()
            if self._control is not None:
                await self._control.unsubscribe()
        await self.front.close()
        await self.link.stop()
        await self.desk.stop()
        await self.desk.lobby.close()
        await self.leases.stop(release=True)
        with contextlib.suppress(*TRANSIENT):
            await self.nodes.stop()
        await self.directory.stop()
        await self.sender.stop()
        await self.conn.close()
        log_event(log, logging.INFO, "node stopped", node=self.node_id)

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- the owner lobby's hooks (server/cluster/owner_lobby.py) ----------------------------------------
    def listings_changed(self) -> None:
        self.desk.listings_changed()

    def remote_listings(self) -> list[TableListing]:
        mine = self.desk.lobby.tables
        return [x for x in self.directory.tables.values() if x.id not in mine]

    def table_closed(self, t: Table) -> None:
        self.desk.unlist(t.id)
        self.spawn(self._closed(t))

    async def _closed(self, t: Table) -> None:
        await self.desk.drop(t.id, "closed", release=True)
        if t.save is not None:  # its game is recorded (finished/, or closed/ by the host): the log goes
            with contextlib.suppress(*TRANSIENT):
                await TableLog.remove(self.conn, t.id)

    # --- new tables ---------------------------------------------------------------------------------------
    async def acquire(self, table_id: str) -> Lease | None:
        """The table's lease for this node (held already, or acquired now: one attempt at a time)."""
        lease = self.leases.held.get(table_id)
        if lease is not None and lease.valid():
            return lease
        pending = self._acquiring.get(table_id)
        if pending is None:
            pending = self._acquiring[table_id] = asyncio.ensure_future(self.leases.acquire(table_id))
            pending.add_done_callback(lambda _f: self._acquiring.pop(table_id, None))
        return await asyncio.shield(pending)

    def adopt(self, t: Table) -> None:
        """A table just opened here (created, loaded): its lease, then this node answers for it."""
        self.spawn(self._adopt(t))

    async def _adopt(self, t: Table) -> None:
        lease = None
        with contextlib.suppress(*TRANSIENT):
            lease = await self.acquire(t.id)
        if lease is None:  # an id taken elsewhere (never seen: 32 random bits) or NATS away
            log_event(log, logging.ERROR, "no lease for a new table", table=t.id)
            self.desk.lobby.close_table(t, "This table could not be opened; please create it again.", cause="lease")
            return
        if self.desk.lobby.tables.get(t.id) is t:
            await self.desk.own(t, lease)

    def load_file(self, path: str) -> Table:
        """`citadels serve --load FILE` on a node: the game as a table of this node."""
        t = self.desk.lobby.load_file(path)
        self.adopt(t)
        return t

    # --- owners lost and found ----------------------------------------------------------------------------
    def _lease_lost(self, table_id: str, reason: str) -> None:
        if table_id in self.desk.lobby.tables:
            self.spawn(self.desk.drop(table_id, f"lease {reason}", release=False))

    def _failed(self, table_id: str, reason: str) -> None:
        log_event(log, logging.ERROR, "table log write failed: dropped here", table=table_id, reason=reason)
        if table_id in self.desk.lobby.tables:
            self.spawn(self.desk.drop(table_id, "log write failed", release=True))

    def _lapsed(self, table_id: str) -> None:
        if self.draining or self.stopping or table_id in self.desk.lobby.tables:
            return
        if table_id in self.directory.tables:
            self.spawn(take_over(self, table_id))

    def _node_changed(self, node: str, record: NodeRecord | None) -> None:
        if record is None and node != self.node_id:
            self.desk.node_gone(node)

    def _life_ended(self, node: str) -> None:
        """A node's life ended (its key lapsed, or it came back anew): its tables are free to take
        (each taken only if its lease still names a life that ended: `LeaseManager.acquire`)."""
        for listing in list(self.directory.tables.values()):
            if listing.owner == node:
                self._lapsed(listing.id)

    async def _sweep_orphans(self) -> None:
        """Tables listed under no live owner and held by no live node (their lapse went unheard: this
        node was starting, NATS restarted; or ours, dropped when our life ended): taken over like
        any lapse."""
        while True:
            await asyncio.sleep(ORPHAN_SWEEP_SECONDS)
            if self.draining or self.stopping:
                continue
            for listing in list(self.directory.tables.values()):
                if listing.id in self.desk.lobby.tables:
                    continue
                if listing.owner != self.node_id and self.nodes.is_live(listing.owner):
                    continue  # a live node's (one of ours not run here: our old life's, dropped)
                try:
                    if not await self.leases.held_by_live(listing.id):
                        await take_over(self, listing.id)
                except TRANSIENT:
                    break
                except Exception:  # keep sweeping
                    log.exception("orphan sweep failed for %s", listing.id)

    # --- draining -----------------------------------------------------------------------------------------
    async def _on_control(self, msg: Any) -> None:
        if msg.data.strip() == b"drain" and not self.draining:
            self.spawn(self.drain(self.cluster_drain_grace))
            if msg.reply:
                with contextlib.suppress(Exception):
                    await msg.respond(b"draining")

    @property
    def cluster_drain_grace(self) -> float:
        return float(getattr(self.cluster, "drain_grace_seconds", 60.0))

    async def drain(self, grace: float) -> None:
        """Stop taking tables, hand this node's running tables over, then wait (up to `grace`) for the
        waiting tables to start (handed over then) or close and for the sessions to leave."""
        if self.draining:
            return
        self.draining = True
        self.leases.draining = True
        for callback in list(self.on_drain):
            callback()
        with contextlib.suppress(*TRANSIENT):
            await self.nodes.set_draining(True)
        log_event(log, logging.INFO, "draining", node=self.node_id, tables=len(self.desk.lobby.tables))
        deadline = time.monotonic() + grace
        while True:
            for table_id, t in list(self.desk.lobby.tables.items()):
                if t.phase == "playing":
                    await hand_over(self, table_id)
            if not self.desk.lobby.tables and not self.front.sessions:
                break
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(0.1)
        log_event(
            log,
            logging.INFO,
            "drained",
            node=self.node_id,
            tables=len(self.desk.lobby.tables),
            sessions=len(self.front.sessions),
        )
