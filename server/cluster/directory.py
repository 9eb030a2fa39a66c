"""The cluster-wide table directory and join codes (the ``<ns>_tables`` bucket).

Each table's listing (``table.<id>``: what the lobby shows, and which node runs it) is
written by the table's owner only, while its lease is valid; every node watches the bucket
and keeps the whole list in memory, so listing tables costs no round trip. A join code
(``code.<CODE>`` -> table id) is claimed with create-if-absent, so two nodes can never hand
out the same code. Nothing here is hidden information: a private table's code is stored, but
only its players are shown it (the lobby's business), and listings hold no cards.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

import msgspec

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.leases import Lease
from server.cluster.records import TableListing, decoder, encode
from server.logging_setup import log_event

log = logging.getLogger("citadels.cluster.directory")

_listing = decoder(TableListing)
CODE_ATTEMPTS = 20


class NotOwner(Exception):
    """A listing written without a valid lease on the table."""


class TableDirectory:
    """The tables of the whole cluster, kept current by a watch."""

    def __init__(self, conn: ClusterConnection) -> None:
        self.conn = conn
        self.kv = conn.bucket("tables")
        self.tables: dict[str, TableListing] = {}
        self.on_change: list[Callable[[str, TableListing | None], None]] = []
        self._watch: kvutil.Watch | None = None

    async def start(self) -> TableDirectory:
        self._watch = await kvutil.Watch(self.kv, "table.>", self._heard, "directory", self.conn.reconnects).start()
        return self

    async def stop(self) -> None:
        if self._watch is not None:
            await self._watch.stop()
            self._watch = None

    def _heard(self, key: str, value: bytes | None, revision: int) -> None:
        table_id = key.split(".", 1)[1]
        listing: TableListing | None = None
        if value is not None:
            try:
                listing = _listing.decode(value)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                log_event(log, logging.WARNING, "unreadable listing", table=table_id, error=str(error))
        if listing is not None:
            known = self.tables.get(table_id)
            if known is not None and known.order() > listing.order():
                return  # an older write heard after a newer one (this node's own, heard at once)
        self._set(table_id, listing)

    def _set(self, table_id: str, listing: TableListing | None) -> None:
        if listing is None:
            if self.tables.pop(table_id, None) is None:
                return
        else:
            self.tables[table_id] = listing
        for callback in list(self.on_change):
            callback(table_id, listing)

    def heard_locally(self, listing: TableListing) -> None:
        """A listing this node made (its owner): known here at once, before its write is heard back."""
        known = self.tables.get(listing.id)
        if known is None or known.order() <= listing.order():
            self._set(listing.id, listing)

    def heard_locally_gone(self, table_id: str) -> None:
        self._set(table_id, None)

    # -- reading -----------------------------------------------------------------------------------
    def listings(self) -> list[TableListing]:
        """Every table, newest first (from memory)."""
        return sorted(self.tables.values(), key=lambda t: (-t.updated, t.id))

    def get(self, table_id: str) -> TableListing | None:
        return self.tables.get(table_id)

    async def fetch(self, table_id: str) -> TableListing | None:
        """The listing as the bucket has it now (not the watched copy)."""
        current = await kvutil.get(self.kv, self.conn.names.listing_key(table_id))
        return _listing.decode(current.value) if current.value else None

    # -- writing (the owner) -----------------------------------------------------------------------
    async def publish(self, listing: TableListing, lease: Lease) -> int:
        """Write the table's listing; only its owner may, while its lease holds."""
        if lease.table_id != listing.id or not lease.valid():
            raise NotOwner(f"table {listing.id}: no valid lease to list it")
        return await self.kv.put(self.conn.names.listing_key(listing.id), encode(listing))

    async def remove(self, table_id: str) -> None:
        await self.kv.delete(self.conn.names.listing_key(table_id))

    # -- join codes --------------------------------------------------------------------------------
    async def claim_code(self, code: str, table_id: str) -> bool:
        """Make ``code`` lead to ``table_id``; False if the code is taken."""
        try:
            await kvutil.create(self.kv, self.conn.names.code_key(code), table_id.encode())
        except kvutil.Exists:
            return False
        return True

    async def new_code(self, table_id: str, make: Callable[[], str]) -> str:
        """A fresh code for the table: ``make()`` until one is free."""
        for _ in range(CODE_ATTEMPTS):
            code = make()
            if await self.claim_code(code, table_id):
                return code
        raise RuntimeError(f"no free join code after {CODE_ATTEMPTS} attempts")

    async def resolve_code(self, code: str) -> str | None:
        current = await kvutil.get(self.kv, self.conn.names.code_key(code))
        return current.value.decode() if current.value else None

    async def release_code(self, code: str, table_id: str) -> None:
        """Forget the code, if it still leads to ``table_id``."""
        key = self.conn.names.code_key(code)
        current = await kvutil.get(self.kv, key)
        if current.value == table_id.encode():
            with contextlib.suppress(kvutil.Conflict):
                await kvutil.delete(self.kv, key, last=current.revision)
