"""Every name the cluster uses in NATS: streams, key-value buckets, subjects and keys.

One namespace (``citadels`` by default) prefixes them all, so that several clusters (or
tests) can share one NATS without seeing each other::

    stream   <ns>_log                      subjects <ns>.log.<table>       each table's command log
    bucket   <ns>_owners   key <table>                                     who owns a table (its node's life)
    bucket   <ns>_nodes    key <node>                                      live nodes (TTL, heartbeats)
    bucket   <ns>_tables   keys table.<table>, code.<CODE>                 the table directory, join codes
    bucket   <ns>_identity keys seat.<key-id>, live.<key-id>               seat bindings, live sessions
    bucket   <ns>_counters key <counter>.<node>                            per-node counts for caps
    bucket   <ns>_cluster  key subject-secret                              the secret behind seat tokens

    <ns>.table.<table>.seat.<token>.cmd    a seat's commands in (request/reply to the owner)
    <ns>.table.<table>.seat.<token>.out    that seat's own views and redacted events out
    <ns>.table.<table>.public              the spectators' view and public events
    <ns>.table.<table>.ctl                 joins, spectators, hand-over requests to the owner
    <ns>.node.<node>.ctl                   one node's control (drain)
    <ns>.node.<node>.inbox                 what owners tell that node's sessions (entered, moved...)
    <ns>.accounts                          account changes every node hears (a key removed)

Hidden information: a seat's view carries its hand, so its subject carries a token that
cannot be derived from public data (the table id, the seat number, the player's name or
key): an HMAC of those under a cluster secret that only nodes can read. A NATS user allowed
``<ns>.table.*.public`` but not ``<ns>.table.*.seat.>`` (docs/cluster.md) can watch games and
never a hand; a bug that subscribes a session to the wrong seat's subject needs the token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from server.storage.savelog import TABLE_ID

NAMESPACE = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")
NODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
COUNTER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
JOIN_CODE = re.compile(r"[A-Z0-9]{1,16}\Z")
TOKEN_BYTES = 16  # 128 bits: not guessable, 22 characters in a subject
SECRET_KEY = "subject-secret"


class BadName(ValueError):
    """A table id, node id, namespace or counter name that cannot be used in NATS names."""


def _check(pattern: re.Pattern[str], value: str, what: str) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        raise BadName(f"not a valid {what}: {value!r}")
    return value


def check_table_id(table_id: str) -> str:
    return _check(TABLE_ID, table_id, "table id (1-64 letters, digits, '-' or '_')")


def check_node_id(node_id: str) -> str:
    return _check(NODE_ID, node_id, "node id (1-64 letters, digits, '-' or '_')")


def check_namespace(namespace: str) -> str:
    return _check(NAMESPACE, namespace, "namespace (1-32 lowercase letters, digits, '-' or '_')")


def key_id(fingerprint: str) -> str:
    """The key-value key for an SSH key fingerprint ("SHA256:..." holds '+', which keys may not)."""
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:40]


def seat_token(secret: bytes, table_id: str, seat: int, occupant: str) -> str:
    """The token in a seat's subjects: HMAC-SHA256(secret, table, seat, occupant), 128 bits.

    ``occupant`` names who sits there (their key's fingerprint, or a guest's one-time id), so
    a seat that changes hands gets new subjects and the former occupant's node hears nothing
    more of it."""
    if len(secret) < 16:
        raise ValueError("the subject secret must be at least 16 bytes")
    msg = b"\0".join((b"seat", check_table_id(table_id).encode(), str(int(seat)).encode(), occupant.encode()))
    digest = hmac.new(secret, msg, hashlib.sha256).digest()[:TOKEN_BYTES]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


@dataclass(frozen=True)
class Names:
    """The names of one cluster (one namespace)."""

    namespace: str = "citadels"

    def __post_init__(self) -> None:
        check_namespace(self.namespace)

    # -- streams ------------------------------------------------------------------------------------
    @property
    def log_stream(self) -> str:
        return f"{self.namespace}_log"

    @property
    def log_subjects(self) -> str:
        return f"{self.namespace}.log.>"

    def log_subject(self, table_id: str) -> str:
        return f"{self.namespace}.log.{check_table_id(table_id)}"

    # -- buckets ------------------------------------------------------------------------------------
    @property
    def owners_bucket(self) -> str:
        # not <ns>_leases: that bucket (a TTL per table, renewed) belongs to versions before 2026-11-26
        return f"{self.namespace}_owners"

    @property
    def nodes_bucket(self) -> str:
        return f"{self.namespace}_nodes"

    @property
    def tables_bucket(self) -> str:
        return f"{self.namespace}_tables"

    @property
    def identity_bucket(self) -> str:
        return f"{self.namespace}_identity"

    @property
    def counters_bucket(self) -> str:
        return f"{self.namespace}_counters"

    @property
    def cluster_bucket(self) -> str:
        return f"{self.namespace}_cluster"

    # -- keys ---------------------------------------------------------------------------------------
    @staticmethod
    def lease_key(table_id: str) -> str:
        return check_table_id(table_id)

    @staticmethod
    def node_key(node_id: str) -> str:
        return check_node_id(node_id)

    @staticmethod
    def listing_key(table_id: str) -> str:
        return f"table.{check_table_id(table_id)}"

    @staticmethod
    def code_key(code: str) -> str:
        return f"code.{_check(JOIN_CODE, code, 'join code')}"

    @staticmethod
    def seat_binding_key(fingerprint: str) -> str:
        return f"seat.{key_id(fingerprint)}"

    @staticmethod
    def live_session_key(fingerprint: str) -> str:
        return f"live.{key_id(fingerprint)}"

    @staticmethod
    def counter_key(counter: str, node_id: str) -> str:
        return f"{_check(COUNTER, counter, 'counter name')}.{check_node_id(node_id)}"

    # -- subjects -----------------------------------------------------------------------------------
    def seat_commands(self, table_id: str, token: str) -> str:
        return f"{self.namespace}.table.{check_table_id(table_id)}.seat.{_token(token)}.cmd"

    def seat_updates(self, table_id: str, token: str) -> str:
        return f"{self.namespace}.table.{check_table_id(table_id)}.seat.{_token(token)}.out"

    def seat_commands_all(self, table_id: str) -> str:
        """Every seat's commands of one table (what its owner subscribes to)."""
        return f"{self.namespace}.table.{check_table_id(table_id)}.seat.*.cmd"

    def table_public(self, table_id: str) -> str:
        return f"{self.namespace}.table.{check_table_id(table_id)}.public"

    def table_control(self, table_id: str) -> str:
        return f"{self.namespace}.table.{check_table_id(table_id)}.ctl"

    def node_control(self, node_id: str) -> str:
        return f"{self.namespace}.node.{check_node_id(node_id)}.ctl"

    def accounts(self) -> str:
        """Account changes every node hears (server/cluster/wire.py `KeyRemoved`)."""
        return f"{self.namespace}.accounts"

    def node_inbox(self, node_id: str) -> str:
        """What owners tell the sessions of one node (server/cluster/wire.py `ToFront`)."""
        return f"{self.namespace}.node.{check_node_id(node_id)}.inbox"


_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}\Z")


def _token(token: str) -> str:
    return _check(_TOKEN, token, "seat token")
