"""What the cluster's key-value buckets hold: one msgspec Struct per kind of value.

Only public or node-private facts go here, never a hand, a face-down card or the deck: the
directory is what the lobby shows, the identity registry says which key sits where. Times are
Unix seconds (wall clock), for people reading them; nothing depends on clocks agreeing across
nodes (a node's key expires by the NATS server's clock, and an owner judges its own life, and so
its leases, with its monotonic clock).
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
    since: float  # when this node acquired it
    life: Name = ""  # the owner's life (NodeRecord.life) when it acquired: held while that life lasts


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
    # A token drawn each time the node (re)joins: its leases are held while this life lasts. A node
    # whose key lapsed and that comes back is a new life; its old tables are free to take.
    life: Name = ""


class SeatListing(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One seat of a listed table, as every node needs it: who sits there (for the room, for a
    reconnection finding its seat, for the table menu), never what they hold."""

    name: Name = ""
    key: Name | None = None  # the identity bound to the seat (an SSH key's fingerprint, "guest:<id>")
    guest: bool = False
    bot: Name | None = None  # a bot seat: its kind
    style: Name | None = None
    here: bool = False  # a session plays it now (attached to the actor)
    present: bool = False  # a session of its key is at the table (its room, or playing)


class TableListing(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table as the lobby lists it (the same fields as ui.lobby_link.TableRow, and its owner), with
    what any node needs to seat, route and list people there (stage 2): its meta, its seats, who
    opened it. Written by the owner only, on every change (`version` grows; `lease` is the
    owner's lease revision, so a listing by a later owner always wins)."""

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
    # -- stage 2: the table's meta (server.tables.seats.TableMeta) and seats ---------------------
    rules_name: Name = ""  # the rule set's key ("2016"); `rules` is its title
    creator: Name | None = None
    code: Name | None = None  # a private table's join code (nodes only: shown to its players)
    spectator_chat: bool = False
    bot_kind: Name = "normal"
    seat_list: list[SeatListing] = msgspec.field(default_factory=list)
    saved: bool = False  # a loaded saved game waiting in its room for its own players
    saving: bool = False  # its game is being recorded (the table menu's "save")
    game: Name = ""  # engine.savefile.game_key: a game is open at most once in the cluster
    origin_identity: Name | None = None  # who opened it and from where (caps per identity/address)
    origin_address: Name | None = None
    origin_guest: bool = False
    lease: int = 0
    version: int = 0

    def order(self) -> tuple[int, int]:
        """Which of two listings of one table is newer."""
        return (self.lease, self.version)


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
