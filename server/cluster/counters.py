"""Cluster-wide counters for caps (sessions, tables, connections per source...).

Each node writes only its own count of each counter (``<counter>.<node>`` in the
``<ns>_counters`` bucket), so writes never contend; every node watches the bucket and sums
the counts of the *live* nodes (a dead node's counts stop counting when its heartbeat lapses,
and any node then deletes them). A write is coalesced (``flush_delay``) so a burst of
connections costs one write per counter.

The total is as fresh as the watch: two nodes admitting at the same instant can each see the
other's count from a few milliseconds before, so a cap may be passed by up to one admission
per node in flight. That is what a cap protecting the service needs (it bounds the load);
a count that must be exact (a seat) is a compare-and-set elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

import msgspec

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.nodes import NodeRecord, NodeRegistry
from server.logging_setup import log_event
from server.task_stop import stop_task

log = logging.getLogger("citadels.cluster.counters")

_int = msgspec.msgpack.Decoder(int)
_encode = msgspec.msgpack.Encoder().encode


class ClusterCounters:
    """This node's counts, and every live node's."""

    def __init__(self, conn: ClusterConnection, nodes: NodeRegistry, flush_delay: float = 0.02) -> None:
        self.conn = conn
        self.kv = conn.bucket("counters")
        self.node = conn.node
        self.nodes = nodes
        self.flush_delay = flush_delay
        self.mine: dict[str, int] = defaultdict(int)
        self.others: dict[str, dict[str, int]] = defaultdict(dict)  # counter -> node -> count
        self._written: dict[str, int] = {}
        self._flush: asyncio.Task[None] | None = None
        self._watch: kvutil.Watch | None = None

    async def start(self) -> ClusterCounters:
        self._watch = await kvutil.Watch(self.kv, ">", self._heard, "counters", self.conn.reconnects).start()
        self.nodes.on_change.append(self._node_changed)
        for node in {node for counts in self.others.values() for node in counts}:
            if not self.nodes.is_live(node):
                await self.sweep(node)  # left by nodes that died before we started
        return self

    def _heard(self, key: str, value: bytes | None, revision: int) -> None:
        counter, _, node = key.partition(".")
        if node == self.node:
            return  # our own count is self.mine, always current
        if value is None:
            self.others[counter].pop(node, None)
            return
        try:
            self.others[counter][node] = _int.decode(value)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log_event(log, logging.WARNING, "unreadable counter", key=key)

    def _node_changed(self, node: str, record: NodeRecord | None) -> None:
        if record is None and node != self.node:
            asyncio.get_running_loop().create_task(self.sweep(node), name="citadels-counters-sweep")

    # -- counting ------------------------------------------------------------------------------------
    def add(self, counter: str, delta: int = 1) -> int:
        self.mine[counter] += delta
        self._schedule()
        return self.mine[counter]

    def set(self, counter: str, value: int) -> None:
        self.mine[counter] = value
        self._schedule()

    def total(self, counter: str) -> int:
        """The live nodes' counts summed (ours as it is now)."""
        live = self.nodes.is_live
        return self.mine.get(counter, 0) + sum(n for node, n in self.others.get(counter, {}).items() if live(node))

    def allows(self, counter: str, cap: int, more: int = 1) -> bool:
        """Would ``more`` stay within ``cap`` cluster-wide?"""
        return self.total(counter) + more <= cap

    # -- writing -------------------------------------------------------------------------------------
    def _schedule(self) -> None:
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._flush_later(), name="citadels-counters")

    async def _flush_later(self) -> None:
        await asyncio.sleep(self.flush_delay)
        try:
            await self.flush()
        except kvutil.TRANSIENT as error:
            log_event(log, logging.WARNING, "counters not written", error=type(error).__name__)
            await asyncio.sleep(0.5)
            self._schedule()

    async def flush(self) -> None:
        """Write every count that changed since the last write (0: the key is deleted)."""
        for counter, value in list(self.mine.items()):
            if self._written.get(counter) == value:
                continue
            key = self.conn.names.counter_key(counter, self.node)
            if value:
                await self.kv.put(key, _encode(value))
            else:
                await self.kv.delete(key)
            self._written[counter] = value

    async def sweep(self, node: str) -> None:
        """Delete a departed node's counts (any node may; deleting twice is harmless)."""
        for counter, counts in list(self.others.items()):
            if counts.pop(node, None) is not None:
                with contextlib.suppress(*kvutil.TRANSIENT):
                    await self.kv.delete(self.conn.names.counter_key(counter, node))

    async def stop(self) -> None:
        if self._flush is not None:
            await stop_task(self._flush)
        with contextlib.suppress(*kvutil.TRANSIENT):
            for counter in list(self.mine):
                self.mine[counter] = 0
            await self.flush()
        if self._watch is not None:
            await self._watch.stop()
            self._watch = None
        with contextlib.suppress(ValueError):
            self.nodes.on_change.remove(self._node_changed)
