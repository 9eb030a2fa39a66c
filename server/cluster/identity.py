"""One identity across the cluster: which seat a key holds, and which session holds a key.

Two kinds of keys in the ``<ns>_identity`` bucket, both named by a hash of the SSH key's
fingerprint (fingerprints hold characters keys may not):

- ``seat.<key-id>`` -> `SeatBinding(table, seat)`: written when the key takes a seat, removed
  when its game ends or it leaves. A reconnection on any node reads it and goes back there.
- ``live.<key-id>`` -> `SessionClaim(node, session)`: the session that holds the key now. A new
  connection with the same key claims it (compare-and-set, so two at once are ordered); every
  node watches these keys, and the node of the session that was displaced tells it "your seat
  was taken over by a new connection" and closes it, wherever the new one arrived.

Guests have no key and so no entry: their seats are per session, as on a single node.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import msgspec

from server.cluster import kvutil
from server.cluster.connection import ClusterConnection
from server.cluster.records import SeatBinding, SessionClaim, decoder, encode, now
from server.cluster.subjects import key_id
from server.logging_setup import log_event

log = logging.getLogger("citadels.cluster.identity")

_binding = decoder(SeatBinding)
_claim = decoder(SessionClaim)
CLAIM_ATTEMPTS = 8

TakeoverHandler = Callable[[str, SessionClaim], None]


class IdentityRegistry:
    """Seat bindings and live sessions, by key, for the whole cluster."""

    def __init__(self, conn: ClusterConnection) -> None:
        self.conn = conn
        self.kv = conn.bucket("identity")
        self.node = conn.node

    # -- seats ---------------------------------------------------------------------------------------
    async def bind(self, fingerprint: str, table_id: str, seat: int) -> None:
        binding = SeatBinding(table=table_id, seat=seat, since=now())
        await self.kv.put(self.conn.names.seat_binding_key(fingerprint), encode(binding))

    async def seat_of(self, fingerprint: str) -> SeatBinding | None:
        current = await kvutil.get(self.kv, self.conn.names.seat_binding_key(fingerprint))
        return _binding.decode(current.value) if current.value else None

    async def unbind(self, fingerprint: str, table_id: str) -> bool:
        """Forget the key's seat at ``table_id`` (not a seat it has since taken elsewhere)."""
        key = self.conn.names.seat_binding_key(fingerprint)
        current = await kvutil.get(self.kv, key)
        if current.value is None or _binding.decode(current.value).table != table_id:
            return False
        try:
            await kvutil.delete(self.kv, key, last=current.revision)
        except kvutil.Conflict:
            return False
        return True

    # -- live sessions -------------------------------------------------------------------------------
    async def claim(self, fingerprint: str, session: str) -> SessionClaim | None:
        """This node's ``session`` now holds the key; returns the claim it displaced (if any)."""
        key = self.conn.names.live_session_key(fingerprint)
        mine = encode(SessionClaim(node=self.node, session=session, since=now()))
        for _ in range(CLAIM_ATTEMPTS):
            current = await kvutil.get(self.kv, key)
            try:
                await kvutil.update(self.kv, key, mine, last=current.revision)
            except kvutil.Conflict:
                continue  # another connection with the key claimed it meanwhile: go after it
            previous = _claim.decode(current.value) if current.value else None
            if previous is not None and (previous.node, previous.session) == (self.node, session):
                return None
            return previous
        raise RuntimeError(f"could not claim the key after {CLAIM_ATTEMPTS} attempts")

    async def holder(self, fingerprint: str) -> SessionClaim | None:
        current = await kvutil.get(self.kv, self.conn.names.live_session_key(fingerprint))
        return _claim.decode(current.value) if current.value else None

    async def release(self, fingerprint: str, session: str) -> bool:
        """The session ended: forget its claim, unless a newer session holds the key."""
        key = self.conn.names.live_session_key(fingerprint)
        current = await kvutil.get(self.kv, key)
        if current.value is None:
            return False
        claim = _claim.decode(current.value)
        if (claim.node, claim.session) != (self.node, session):
            return False
        try:
            await kvutil.delete(self.kv, key, last=current.revision)
        except kvutil.Conflict:
            return False
        return True

    async def watch_takeovers(self, on_claim: TakeoverHandler) -> kvutil.Watch:
        """Call ``on_claim(key_id, claim)`` for every claim, current ones first. The node compares
        each with its own sessions (by `key_id(fingerprint)`): a claim naming another session
        than its own for that key means its session was taken over."""

        def handler(key: str, value: bytes | None, revision: int) -> None:
            if value is None:
                return
            try:
                claim = _claim.decode(value)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                log_event(log, logging.WARNING, "unreadable session claim", key=key, error=str(error))
                return
            on_claim(key.split(".", 1)[1], claim)

        return await kvutil.Watch(self.kv, "live.>", handler, "identity", self.conn.reconnects).start()


__all__ = ["IdentityRegistry", "key_id"]
