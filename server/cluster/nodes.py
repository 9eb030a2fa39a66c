"""Live nodes: each node's heartbeat in the ``<ns>_nodes`` bucket (a key with a TTL).

A node writes its `NodeRecord` at start (refused while another live node has the same id)
and rewrites it every ``heartbeat_seconds`` with its counts and whether it drains. A node that
stops (cleanly: its key is deleted; killed: the key expires ``node_ttl_seconds`` later) drops
out of every node's ``live`` map, which the watch keeps current; ``on_change(node, record or
None)`` tells the rest of the node (counters ignore a dead node's counts).

The heartbeat is also what holds the node's tables (server/cluster/leases.py): each record
carries the node's ``life``, a token drawn when it joins, and a lease names the life that took
it. A life ends when the node's key goes (deleted, expired) or when the node comes back under
a new life; ``on_life_end(node)`` then tells every node (failover takes that node's tables). A
node judges its own life by its monotonic clock: past ``deadline`` (``node_ttl_seconds -
lease_margin_seconds`` after the last heartbeat that was stored was *asked*, before the server
can expire the key) it acts for none of its tables, ``on_own_life_lost(reason)`` is called once,
and it comes back under a new life.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable

import msgspec

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.records import NodeRecord, decoder, encode, now
from server.logging_setup import log_event
from server.task_stop import stop_task

log = logging.getLogger("citadels.cluster.nodes")

_record = decoder(NodeRecord)


class NodeIdInUse(RuntimeError):
    """Another live node has this node's id; one line."""


class NodeRegistry:
    """This node's heartbeat, and every live node's record."""

    def __init__(
        self,
        conn: ClusterConnection,
        *,
        address: str = "",
        version: str = "",
        counts: Callable[[], tuple[int, int]] | None = None,  # (sessions, tables) for the heartbeat
    ) -> None:
        self.conn = conn
        self.kv = conn.bucket("nodes")
        self.node = conn.node
        self.address = address
        self.version = version
        self.counts = counts or (lambda: (0, 0))
        self.started = now()
        self.draining = False
        self.live: dict[str, NodeRecord] = {}
        self.on_change: list[Callable[[str, NodeRecord | None], None]] = []
        self.on_life_end: list[Callable[[str], None]] = []  # another node's (or our old) life ended
        self.on_own_life_lost: list[Callable[[str], None]] = []  # this node's life ended (why)
        self.on_beat: list[Callable[[float], None]] = []  # our life is held until this monotonic time
        self.life = _new_life()
        self.deadline = 0.0  # monotonic: past it this node must not act for its tables
        self.joined = asyncio.Event()
        cfg = conn.config
        self._lifetime = cfg.node_ttl_seconds - cfg.lease_margin_seconds
        self._revision = 0
        # One heartbeat at a time: two writes with the same last revision (draining's beat while the
        # periodic one waits for its answer) make the second a conflict, read as our record lapsed.
        self._beating = asyncio.Lock()
        self._watch: kvutil.Watch | None = None
        self._task: asyncio.Task[None] | None = None

    def record(self) -> NodeRecord:
        sessions, tables = self.counts()
        return NodeRecord(
            node=self.node,
            address=self.address,
            pid=os.getpid(),
            started=self.started,
            draining=self.draining,
            sessions=sessions,
            tables=tables,
            version=self.version,
            life=self.life,
        )

    async def start(self) -> NodeRegistry:
        """Join: write our record (waiting out a previous run's record with our id), then watch."""
        key = self.conn.names.node_key(self.node)
        deadline = time.monotonic() + self.conn.config.node_ttl_seconds + 1.5
        while True:
            asked = time.monotonic()
            try:
                self._revision = await kvutil.create(self.kv, key, encode(self.record()))
                self._held(asked)
                break
            except kvutil.Exists:
                if self.conn.config.host_local_ids and await self._replace_dead_predecessor(key):
                    continue
                if time.monotonic() > deadline:
                    raise NodeIdInUse(
                        f"node id {self.node!r} is in use by a live node (give each node its own)"
                    ) from None
                await asyncio.sleep(0.25)
        self._watch = await kvutil.Watch(self.kv, ">", self._heard, "nodes", self.conn.reconnects).start()
        self._task = asyncio.get_running_loop().create_task(self._beat(), name="citadels-heartbeat")
        self.joined.set()
        log_event(log, logging.INFO, "node joined", node=self.node, address=self.address, life=self.life)
        return self

    async def _replace_dead_predecessor(self, key: str) -> bool:
        """Our id's record, if its process is dead on this host (host_local_ids): deleted; True then."""
        current = await kvutil.get(self.kv, key)
        if current.value is None:
            return True  # gone meanwhile: try again
        record = _readable(current.value)
        pid = record.pid if record is not None else 0
        if pid <= 0 or pid == os.getpid() or _process_alive(pid):
            return False
        with contextlib.suppress(kvutil.Conflict):
            await kvutil.delete(self.kv, key, last=current.revision)
        log_event(log, logging.WARNING, "record of a dead predecessor replaced", node=self.node, pid=pid)
        return True

    def _heard(self, key: str, value: bytes | None, revision: int) -> None:
        record: NodeRecord | None = None
        if value is not None:
            try:
                record = _record.decode(value)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                log_event(log, logging.WARNING, "unreadable node record", node=key, error=str(error))
        previous = self.live.get(key)
        if record is None:
            if self.live.pop(key, None) is None:
                return
        else:
            self.live[key] = record
        for callback in list(self.on_change):
            callback(key, record)
        if previous is not None and (record is None or record.life != previous.life):
            for ended in list(self.on_life_end):
                ended(key)

    def _held(self, asked: float) -> None:
        """A heartbeat was stored: our life (and every lease of it) holds until the new deadline."""
        self.deadline = asked + self._lifetime
        for callback in list(self.on_beat):
            callback(self.deadline)

    def _lose_life(self, reason: str) -> None:
        """Our life is over (the key lapsed, or no heartbeat was stored in time): the tables of this
        life are not ours any more; the next heartbeat starts a new life."""
        self.deadline = 0.0
        self.life = _new_life()
        log_event(log, logging.WARNING, "node life lost", node=self.node, reason=reason)
        for callback in list(self.on_own_life_lost):
            callback(reason)

    async def beat(self) -> None:
        """One heartbeat now (also after a change worth telling at once: draining)."""
        async with self._beating:
            await self._store_beat()

    async def _store_beat(self) -> None:
        key = self.conn.names.node_key(self.node)
        if self.deadline and time.monotonic() >= self.deadline:
            self._lose_life("expired")  # too late: the server may have let our key go already
        asked = time.monotonic()
        try:
            self._revision = await kvutil.update(self.kv, key, encode(self.record()), last=self._revision)
        except kvutil.Conflict:
            # Our record lapsed (the node was paused past the TTL) and may have been replaced:
            # our tables are being taken; come back under a new life.
            log_event(log, logging.WARNING, "node record lapsed; rejoining", node=self.node)
            if self.deadline:
                self._lose_life("lapsed")
            asked = time.monotonic()
            self._revision = await kvutil.create(self.kv, key, encode(self.record()))
        self._held(asked)

    async def _beat(self) -> None:
        every = self.conn.config.heartbeat_seconds
        while True:
            await asyncio.sleep(every)
            try:
                await self.beat()
            except (kvutil.Exists, *kvutil.TRANSIENT) as error:  # type: ignore[misc]
                log_event(log, logging.WARNING, "heartbeat failed", node=self.node, error=type(error).__name__)
                if self.deadline and time.monotonic() >= self.deadline:
                    self._lose_life("expired")
            except Exception as error:  # the heartbeat must go on
                log_event(log, logging.ERROR, "heartbeat failed", node=self.node, error=repr(error))

    async def alive_now(self, node: str, life: str) -> bool:
        """Whether that life of that node lasts, read from the bucket now (not the watch's view,
        which may lag): before taking a table from it."""
        if node == self.node:
            return life == self.life and time.monotonic() < self.deadline
        current = await kvutil.get(self.kv, self.conn.names.node_key(node))
        record = _readable(current.value)
        return record is not None and record.life == life

    async def set_draining(self, draining: bool = True) -> None:
        self.draining = draining
        await self.beat()

    def is_live(self, node: str) -> bool:
        return node == self.node or node in self.live

    async def stop(self) -> None:
        """Leave: stop beating and delete our record (others see us gone at once)."""
        if self._task is not None:
            await stop_task(self._task)
            self._task = None
        if self._watch is not None:
            await self._watch.stop()
            self._watch = None
        async with self._beating:  # after a beat in flight (draining's): its revision is the last
            with contextlib.suppress(kvutil.Conflict, *kvutil.TRANSIENT):
                await kvutil.delete(self.kv, self.conn.names.node_key(self.node), last=self._revision)
        log_event(log, logging.INFO, "node left", node=self.node)


def _readable(value: bytes | None) -> NodeRecord | None:
    """A stored node record, or None (absent, or written by another version)."""
    if value is None:
        return None
    try:
        return _record.decode(value)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _new_life() -> str:
    return secrets.token_hex(6)
