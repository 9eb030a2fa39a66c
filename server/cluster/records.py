"""What the cluster's key-value buckets hold: one msgspec Struct per kind of value.

Only public or node-private facts go here, never a hand, a face-down card or the deck: the
directory is what the lobby shows, the identity registry says which key sits where. Times are
Unix seconds (wall clock), for people reading them; nothing depends on clocks agreeing across
nodes (leases expire by the NATS server's clock, and an owner judges its own lease with its
monotonic clock).
"""

from __future__ import annotations

import time
from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

Name = Annotated[str, Meta(max_length=200)]


class LeaseRecord(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table's owner, as its lease key says."""

    node: Name
    table: Name
    since: float  # when this node acquired it (renewals keep it)


class NodeRecord(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One live node, rewritten at every heartbeat."""

    node: Name
    address: Name = ""  # where it listens for SSH (host:port), for people
    pid: int = 0
    started: float = 0.0
    draining: bool = False  # takes no new tables, hands its own over
    sessions: int = 0
    tables: int = 0
    version: Name = ""


class TableListing(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table as the lobby lists it (the same fields as ui.lobby_link.TableRow, and its owner)."""

    id: Name
    name: Name
    rules: Name = ""
    lineup: Name = ""
    taken: int = 0
    seats: int = 0
    state: Literal["waiting", "playing", "over"] = "waiting"
    private: bool = False  # listed only to its players; joined by code
    timer: Name = "off"
    spectators: int = 0
    owner: Name = ""  # the node running it ("" while nobody does: failover)
    updated: float = 0.0


class SeatBinding(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The seat a key holds (until its game ends or it leaves): where a reconnection goes."""

    table: Name
    seat: int
    since: float


class SessionClaim(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The session that holds a key now; a newer claim takes the seat over from it."""

    node: Name
    session: Name  # unique within its node
    since: float


_encoder = msgspec.msgpack.Encoder()


def encode(record: Struct) -> bytes:
    return _encoder.encode(record)


def decoder(kind: type[Struct]) -> msgspec.msgpack.Decoder:
    return msgspec.msgpack.Decoder(kind)


def now() -> float:
    return time.time()
