"""Table ownership: one lease per table, a key with a TTL in the ``<ns>_leases`` bucket.

- ``acquire``: create the key if nobody holds it (after an expiry or a release too); the
  lease's revision is this ownership's fencing token (the table log records it).
- renewal: the owner rewrites the key every ``lease_renew_seconds``, on condition that it is
  still the revision it wrote last (nobody else took it in between).
- ``release``: delete the key if it is still ours (a drain hands tables over this way).
- loss: a renewal refused (someone else holds it), or no successful renewal before the
  lease's *local* deadline: ``lease_ttl - lease_margin`` after the last renewal was *asked*
  (the server counts the TTL from when it stored the write, later still, so the owner always
  gives up before another node can take over). ``on_lost(table, reason)`` is then called once.

The log fences what the clock cannot: a node that lost a lease without knowing (paused,
partitioned) and appends anyway is refused by the stream (server/cluster/table_log.py).
When a lease key expires or is deleted every node's ``watch_lapses`` hears it at once (the
bucket leaves an expiry marker): that is how another node knows to take the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.records import LeaseRecord, decoder, encode, now
from server.logging_setup import log_event

log = logging.getLogger("citadels.cluster.leases")

_lease_decoder = decoder(LeaseRecord)


@dataclass
class Lease:
    """This node's ownership of one table, while it lasts."""

    table_id: str
    revision: int  # of our last write: the fencing token, and the condition of the next renewal
    since: float  # Unix time acquired
    deadline: float  # monotonic: past it, this node must not act for the table
    lost: str | None = None  # why it was lost; None while held

    def valid(self, now_monotonic: float | None = None) -> bool:
        return self.lost is None and (now_monotonic if now_monotonic is not None else time.monotonic()) < self.deadline


LostHandler = Callable[[str, str], None]


class LeaseManager:
    """The leases this node holds, renewed in the background."""

    def __init__(self, conn: ClusterConnection, on_lost: LostHandler | None = None) -> None:
        self.conn = conn
        self.kv = conn.bucket("leases")
        self.node = conn.node
        cfg = conn.config
        self.ttl = cfg.lease_ttl_seconds
        self.renew_every = cfg.lease_renew_seconds
        self.margin = cfg.lease_margin_seconds
        self.on_lost = on_lost
        self.held: dict[str, Lease] = {}
        self.draining = False  # a draining node takes no new leases
        self._task: asyncio.Task[None] | None = None

    def _lifetime(self, asked: float) -> float:
        return asked + self.ttl - self.margin

    # -- acquiring and releasing -----------------------------------------------------------------
    async def acquire(self, table_id: str) -> Lease | None:
        """Take the table's lease if nobody holds it; None if another node does (or we drain)."""
        if self.draining:
            return None
        if table_id in self.held and self.held[table_id].valid():
            return self.held[table_id]
        key = self.conn.names.lease_key(table_id)
        since = now()
        record = encode(LeaseRecord(node=self.node, table=table_id, since=since))
        asked = time.monotonic()
        try:
            revision = await kvutil.create(self.kv, key, record)
        except kvutil.Exists:
            return None
        lease = Lease(table_id, revision, since, self._lifetime(asked))
        self.held[table_id] = lease
        log_event(log, logging.INFO, "lease acquired", table=table_id, node=self.node, revision=revision)
        return lease

    async def holder(self, table_id: str) -> LeaseRecord | None:
        """Who holds the table's lease now (None: nobody; the table is free to take)."""
        current = await kvutil.get(self.kv, self.conn.names.lease_key(table_id))
        return _lease_decoder.decode(current.value) if current.value else None

    async def release(self, lease: Lease) -> None:
        """Give the table up (hand-over, table closed): deleted only if still ours."""
        self.held.pop(lease.table_id, None)
        if lease.lost is not None:
            return
        lease.lost = "released"
        with contextlib.suppress(kvutil.Conflict):
            await kvutil.delete(self.kv, self.conn.names.lease_key(lease.table_id), last=lease.revision)
        log_event(log, logging.INFO, "lease released", table=lease.table_id, node=self.node)

    # -- renewing --------------------------------------------------------------------------------
    async def renew(self, lease: Lease) -> bool:
        """One renewal; False (and the lease lost) when it cannot be held any more."""
        if lease.lost is not None:
            return False
        asked = time.monotonic()
        if asked >= lease.deadline:
            self._lose(lease, "expired")
            return False
        record = encode(LeaseRecord(node=self.node, table=lease.table_id, since=lease.since))
        try:
            revision = await asyncio.wait_for(
                kvutil.update(self.kv, self.conn.names.lease_key(lease.table_id), record, last=lease.revision),
                timeout=max(0.05, lease.deadline - asked),
            )
        except kvutil.Conflict:
            self._lose(lease, "taken")  # expired on the server and taken, or released elsewhere
            return False
        except kvutil.TRANSIENT as error:
            if time.monotonic() >= lease.deadline:
                self._lose(lease, "expired")
                return False
            log_event(log, logging.WARNING, "lease renewal failed", table=lease.table_id, error=type(error).__name__)
            return True  # try again at the next round, while the deadline allows
        if lease.lost is None:
            lease.revision = revision
            lease.deadline = self._lifetime(asked)
        return lease.lost is None

    async def renew_all(self) -> None:
        leases = list(self.held.values())
        if leases:
            await asyncio.gather(*(self.renew(lease) for lease in leases))

    def _lose(self, lease: Lease, reason: str) -> None:
        if lease.lost is not None:
            return
        lease.lost = reason
        if self.held.get(lease.table_id) is lease:
            del self.held[lease.table_id]
        log_event(log, logging.WARNING, "lease lost", table=lease.table_id, node=self.node, reason=reason)
        if self.on_lost is not None:
            self.on_lost(lease.table_id, reason)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._renew_loop(), name="citadels-leases")

    async def _renew_loop(self) -> None:
        while True:
            started = time.monotonic()
            try:
                await self.renew_all()
            except Exception as error:  # never let the loop die: the leases would lapse silently
                log_event(log, logging.ERROR, "lease renewal round failed", error=repr(error))
            await asyncio.sleep(max(0.0, self.renew_every - (time.monotonic() - started)))

    async def stop(self, release: bool = True) -> None:
        """Stop renewing; release the leases (a clean stop) or let them lapse (``release=False``)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if release:
            for lease in list(self.held.values()):
                with contextlib.suppress(*kvutil.TRANSIENT):
                    await self.release(lease)
        self.held.clear()

    # -- hearing of free tables ------------------------------------------------------------------
    async def watch_lapses(self, on_free: Callable[[str], None]) -> kvutil.Watch:
        """Call ``on_free(table_id)`` whenever a table's lease expires or is released."""

        def handler(key: str, value: bytes | None, revision: int) -> None:
            if value is None:
                on_free(key)

        return await kvutil.Watch(self.kv, ">", handler, "leases", self.conn.reconnects).start()
