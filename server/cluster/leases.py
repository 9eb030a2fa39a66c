"""Table ownership: one lease per table, a key in the ``<ns>_owners`` bucket, held by its
owner's heartbeat.

- ``acquire``: create the key if nobody holds it, or take it over, on condition of the revision
  read, when the life it names has ended (its node's key lapsed or came back under a new life:
  server/cluster/nodes.py). The key's revision is this ownership's fencing token (the table log
  records it).
- nothing is renewed per table: a lease lasts as long as the life of the node that took it. The
  node's heartbeat (one key per node, every ``heartbeat_seconds``) keeps every lease of the node;
  a thousand tables cost no more traffic than one.
- ``release``: delete the key if it is still ours (a drain hands tables over this way; a closed
  table's key goes).
- loss: the node's life ends (no heartbeat stored before its local deadline, ``node_ttl -
  lease_margin`` after it was asked; or its key found lapsed): every lease of that life is lost
  and ``on_lost(table, reason)`` is called once for each.

The log fences what the clock cannot: a node that lost a lease without knowing (paused,
partitioned) and appends anyway is refused by the stream (server/cluster/table_log.py).
Another node learns that a table is free when its lease key is deleted (``watch_lapses``) or
when the life holding it ends (``NodeRegistry.on_life_end``: the owner's tables are then taken).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.nodes import NodeRegistry
from server.cluster.records import LeaseRecord, decoder, encode, now
from server.logging_setup import log_event

log = logging.getLogger("citadels.cluster.leases")

_lease_decoder = decoder(LeaseRecord)


@dataclass
class Lease:
    """This node's ownership of one table, while it lasts."""

    table_id: str
    revision: int  # of our write: the fencing token, and the condition of the release
    since: float  # Unix time acquired
    deadline: float  # monotonic: past it, this node must not act for the table
    lost: str | None = None  # why it was lost; None while held

    def valid(self, now_monotonic: float | None = None) -> bool:
        return self.lost is None and (now_monotonic if now_monotonic is not None else time.monotonic()) < self.deadline


LostHandler = Callable[[str, str], None]


class LeaseManager:
    """The leases this node holds, kept by its heartbeat (``registry``)."""

    def __init__(self, conn: ClusterConnection, registry: NodeRegistry, on_lost: LostHandler | None = None) -> None:
        self.conn = conn
        self.kv = conn.bucket("owners")
        self.node = conn.node
        self.registry = registry
        self.on_lost = on_lost
        self.held: dict[str, Lease] = {}
        self.draining = False  # a draining node takes no new leases
        registry.on_beat.append(self._extend)
        registry.on_own_life_lost.append(self.lose_all)

    def _extend(self, deadline: float) -> None:
        for lease in self.held.values():
            if lease.lost is None:
                lease.deadline = deadline

    # -- acquiring and releasing -----------------------------------------------------------------
    async def acquire(self, table_id: str) -> Lease | None:
        """Take the table's lease if nobody holds it (or its holder's life ended); None if a live
        node holds it (or we drain)."""
        if self.draining:
            return None
        if table_id in self.held and self.held[table_id].valid():
            return self.held[table_id]
        await self.registry.joined.wait()
        key = self.conn.names.lease_key(table_id)
        life = self.registry.life
        since = now()
        record = encode(LeaseRecord(node=self.node, table=table_id, since=since, life=life))
        try:
            revision = await kvutil.create(self.kv, key, record)
        except kvutil.Exists:
            current = await kvutil.get(self.kv, key)
            holder = _holder(current.value)
            if current.value is not None and (
                holder is None or await self.registry.alive_now(holder.node, holder.life)
            ):
                return None  # held by a live node (or unreadable: left alone)
            try:
                revision = await kvutil.update(self.kv, key, record, last=current.revision)
            except kvutil.Conflict:
                return None  # another node took it first
            log_event(
                log,
                logging.INFO,
                "lease taken from an ended life",
                table=table_id,
                previous=holder.node if holder else None,
                previous_life=holder.life if holder else None,
            )
        if life != self.registry.life or not time.monotonic() < self.registry.deadline:
            # our own life ended while we asked: the key names a dead life, free for anyone
            return None
        lease = Lease(table_id, revision, since, self.registry.deadline)
        self.held[table_id] = lease
        log_event(log, logging.INFO, "lease acquired", table=table_id, node=self.node, revision=revision)
        return lease

    async def holder(self, table_id: str) -> LeaseRecord | None:
        """Who the table's lease key names now (None: nobody; the table is free to take). The life
        it names may have ended: `held_by_live` says."""
        current = await kvutil.get(self.kv, self.conn.names.lease_key(table_id))
        return _holder(current.value) if current.value else None

    async def held_by_live(self, table_id: str) -> bool:
        """Whether a live node holds the table (its key names a life that lasts)."""
        holder = await self.holder(table_id)
        return holder is not None and await self.registry.alive_now(holder.node, holder.life)

    async def release(self, lease: Lease) -> None:
        """Give the table up (hand-over, table closed): deleted only if still ours."""
        self.held.pop(lease.table_id, None)
        if lease.lost is not None:
            return
        lease.lost = "released"
        with contextlib.suppress(kvutil.Conflict):
            await kvutil.delete(self.kv, self.conn.names.lease_key(lease.table_id), last=lease.revision)
        log_event(log, logging.INFO, "lease released", table=lease.table_id, node=self.node)

    # -- losing ----------------------------------------------------------------------------------
    def lose_all(self, reason: str) -> None:
        """Our life ended: every lease of it is lost."""
        for lease in list(self.held.values()):
            self._lose(lease, reason)

    def _lose(self, lease: Lease, reason: str) -> None:
        if lease.lost is not None:
            return
        lease.lost = reason
        if self.held.get(lease.table_id) is lease:
            del self.held[lease.table_id]
        log_event(log, logging.WARNING, "lease lost", table=lease.table_id, node=self.node, reason=reason)
        if self.on_lost is not None:
            self.on_lost(lease.table_id, reason)

    async def stop(self, release: bool = True) -> None:
        """Release the leases (a clean stop) or leave them to the end of this life (``release=False``:
        the registry's key then lapses, or is deleted by its own stop, and the tables are taken)."""
        if release:
            for lease in list(self.held.values()):
                with contextlib.suppress(*kvutil.TRANSIENT):
                    await self.release(lease)
        self.held.clear()

    # -- hearing of free tables ------------------------------------------------------------------
    async def watch_lapses(self, on_free: Callable[[str], None]) -> kvutil.Watch:
        """Call ``on_free(table_id)`` whenever a table's lease key is deleted (released, closed)."""

        def handler(key: str, value: bytes | None, revision: int) -> None:
            if value is None:
                on_free(key)

        return await kvutil.Watch(self.kv, ">", handler, "owners", self.conn.reconnects).start()


def _holder(value: bytes | None) -> LeaseRecord | None:
    if not value:
        return None
    try:
        return _lease_decoder.decode(value)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None  # written by another version: not ours to judge
