"""Live nodes: each node's heartbeat in the ``<ns>_nodes`` bucket (a key with a TTL).

A node writes its `NodeRecord` at start (refused while another live node has the same id)
and rewrites it every ``heartbeat_seconds`` with its counts and whether it drains. A node that
stops (cleanly: its key is deleted; killed: the key expires ``node_ttl_seconds`` later) drops
out of every node's ``live`` map, which the watch keeps current; ``on_change(node, record or
None)`` tells the rest of the node (counters ignore a dead node's counts, failover looks for
its tables).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable

import msgspec

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.records import NodeRecord, decoder, encode, now
from server.logging_setup import log_event

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
        self._revision = 0
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
        )

    async def start(self) -> NodeRegistry:
        """Join: write our record (waiting out a previous run's record with our id), then watch."""
        key = self.conn.names.node_key(self.node)
        deadline = time.monotonic() + self.conn.config.node_ttl_seconds + 1.5
        while True:
            try:
                self._revision = await kvutil.create(self.kv, key, encode(self.record()))
                break
            except kvutil.Exists:
                if time.monotonic() > deadline:
                    raise NodeIdInUse(
                        f"node id {self.node!r} is in use by a live node (give each node its own)"
                    ) from None
                await asyncio.sleep(0.25)
        self._watch = await kvutil.Watch(self.kv, ">", self._heard, "nodes", self.conn.reconnects).start()
        self._task = asyncio.get_running_loop().create_task(self._beat(), name="citadels-heartbeat")
        log_event(log, logging.INFO, "node joined", node=self.node, address=self.address)
        return self

    def _heard(self, key: str, value: bytes | None, revision: int) -> None:
        record: NodeRecord | None = None
        if value is not None:
            try:
                record = _record.decode(value)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                log_event(log, logging.WARNING, "unreadable node record", node=key, error=str(error))
        if record is None:
            if self.live.pop(key, None) is None:
                return
        else:
            self.live[key] = record
        for callback in list(self.on_change):
            callback(key, record)

    async def beat(self) -> None:
        """One heartbeat now (also after a change worth telling at once: draining)."""
        key = self.conn.names.node_key(self.node)
        value = encode(self.record())
        try:
            self._revision = await kvutil.update(self.kv, key, value, last=self._revision)
        except kvutil.Conflict:
            # Our record lapsed (the node was paused past the TTL) and may have been replaced:
            # come back under a fresh revision; our leases have lapsed too and say so themselves.
            log_event(log, logging.WARNING, "node record lapsed; rejoining", node=self.node)
            self._revision = await kvutil.create(self.kv, key, value)

    async def _beat(self) -> None:
        every = self.conn.config.heartbeat_seconds
        while True:
            await asyncio.sleep(every)
            try:
                await self.beat()
            except (kvutil.Exists, *kvutil.TRANSIENT) as error:  # type: ignore[misc]
                log_event(log, logging.WARNING, "heartbeat failed", node=self.node, error=type(error).__name__)
            except Exception as error:  # the heartbeat must go on
                log_event(log, logging.ERROR, "heartbeat failed", node=self.node, error=repr(error))

    async def set_draining(self, draining: bool = True) -> None:
        self.draining = draining
        await self.beat()

    def is_live(self, node: str) -> bool:
        return node == self.node or node in self.live

    async def stop(self) -> None:
        """Leave: stop beating and delete our record (others see us gone at once)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._watch is not None:
            await self._watch.stop()
            self._watch = None
        with contextlib.suppress(kvutil.Conflict, *kvutil.TRANSIENT):
            await kvutil.delete(self.kv, self.conn.names.node_key(self.node), last=self._revision)
        log_event(log, logging.INFO, "node left", node=self.node)
