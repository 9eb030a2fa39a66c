"""A node's cluster settings: where NATS is, the namespace, the node's id, the timings.

``citadels serve --cluster nats://HOST:4222[,nats://HOST2:4222...]`` gives the URLs; the rest
comes from the config file's ``[cluster]`` table or the defaults below. Every refusal is a
`ClusterConfigError` with one line naming what is wrong.

The timings bound failover: a node's tables are held by its heartbeat (server/cluster/leases.py).
A node that dies stops writing it; its key lapses ``node_ttl_seconds`` after the last heartbeat
(plus up to ~0.25 s for the server to expire the key); the nodes that see the lapse then take its
tables and replay their logs. A live node writes its heartbeat every ``heartbeat_seconds`` and
stops acting for its tables when none was stored before its own, more cautious, deadline
(``node_ttl_seconds - lease_margin_seconds`` after it asked).
"""

from __future__ import annotations

import os
import socket
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import msgspec
from msgspec import Meta

from server.cluster.subjects import BadName, check_namespace, check_node_id

PositiveFloat = Annotated[float, Meta(gt=0)]
SCHEMES = ("nats", "tls")
RETIRED = frozenset({"lease_ttl_seconds", "lease_renew_seconds"})


class ClusterConfigError(ValueError):
    """Cluster settings that cannot be used; the message is one line."""


class ClusterConfig(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """How one node joins the cluster."""

    servers: list[str]  # nats:// or tls:// URLs of the NATS servers (any of them will do)
    namespace: str = "citadels"  # prefixes every stream, bucket and subject
    node_id: str = ""  # unique per node; "" = <hostname>-<pid>
    credentials_file: str | None = None  # a NATS .creds file (user JWT + NKey seed)

    heartbeat_seconds: PositiveFloat = 1.0
    node_ttl_seconds: PositiveFloat = 3.0
    lease_margin_seconds: PositiveFloat = 0.5  # a node gives its tables up this long before its key can lapse
    # Node ids name processes of this host (`citadels serve --workers N` sets it): a record under our id
    # whose pid is no live process here is a dead predecessor's (a worker that crashed and is started
    # again), replaced at once instead of waited out, so its tables move in a second, not node_ttl.
    host_local_ids: bool = False

    replicas: Annotated[int, Meta(ge=1, le=5)] = 1  # JetStream replicas (3 with a 3-server NATS cluster)
    storage: Literal["file", "memory"] = "file"
    snapshot_every: Annotated[int, Meta(ge=1)] = 100  # log records between snapshots
    connect_timeout_seconds: PositiveFloat = 5.0  # one attempt to reach a server
    start_timeout_seconds: PositiveFloat = 20.0  # all attempts at start (later, reconnection never gives up)
    request_timeout_seconds: PositiveFloat = 2.0
    # A draining node (SIGTERM, `citadels cluster drain`) hands its running tables over at once, then
    # waits this long for its waiting tables to start or close and for its sessions to leave.
    drain_grace_seconds: Annotated[float, Meta(ge=0)] = 60.0
    # A folder this node shares with the other nodes of its machine (`citadels serve --workers N` sets
    # it to its own saves folder): the players' exports, the bans, and the finished and closed games
    # are kept there rather than in the node's saves folder, so that every node sees the same. "" =
    # the node's own saves folder (exports/, bans.json; cluster/finished/, cluster/closed/).
    shared_dir: str = ""
    # With a shared_dir (the workers of one host), a player's screen runs in the worker that runs their
    # table, their SSH connection staying where it was accepted (server/transport/screen_wire.py).
    move_screens: bool = True

    def node(self) -> str:
        """This node's id."""
        return self.node_id or default_node_id()


def default_node_id() -> str:
    host = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in socket.gethostname())[:40].strip("-_")
    return f"{host or 'node'}-{os.getpid()}"


def parse_servers(text: str) -> list[str]:
    """``nats://h1:4222,nats://h2:4222`` as a list, each URL checked (scheme, host, port)."""
    urls = [part.strip() for part in text.split(",") if part.strip()]
    if not urls:
        raise ClusterConfigError("--cluster needs at least one nats://HOST:PORT URL")
    for url in urls:
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as error:
            raise ClusterConfigError(f"not a NATS URL: {url!r} ({error})") from None
        if parts.scheme not in SCHEMES:
            raise ClusterConfigError(f"not a NATS URL: {url!r} (use nats://HOST:PORT or tls://HOST:PORT)")
        if not parts.hostname:
            raise ClusterConfigError(f"not a NATS URL: {url!r} (no host)")
        if port == 0 or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ClusterConfigError(f"not a NATS URL: {url!r} (only scheme, credentials, host and port)")
    return urls


def check(config: ClusterConfig) -> ClusterConfig:
    """Refuse settings that cannot work together (one line each)."""
    try:
        check_namespace(config.namespace)
        if config.node_id:
            check_node_id(config.node_id)
    except BadName as error:
        raise ClusterConfigError(str(error)) from None
    parse_servers(",".join(config.servers))
    if config.heartbeat_seconds * 2 > config.node_ttl_seconds:
        raise ClusterConfigError("heartbeat_seconds must be at most half of node_ttl_seconds")
    if config.lease_margin_seconds + config.heartbeat_seconds >= config.node_ttl_seconds:
        raise ClusterConfigError("lease_margin_seconds + heartbeat_seconds must stay below node_ttl_seconds")
    if config.credentials_file and not Path(config.credentials_file).is_file():
        raise ClusterConfigError(f"credentials_file {config.credentials_file!r}: no such file")
    return config


def cluster_config(servers: str | list[str], **settings: Any) -> ClusterConfig:
    """A checked ClusterConfig from the ``--cluster`` URLs and any settings (a config file's table)."""
    urls = parse_servers(servers) if isinstance(servers, str) else parse_servers(",".join(servers))
    known = set(ClusterConfig.__struct_fields__) - {"servers"}
    # Settings of the per-table leases before 2026-11-26 (renewed each on its own): a node's tables
    # are held by its heartbeat now. Accepted and ignored, so that older config files still load.
    settings = {key: value for key, value in settings.items() if key not in RETIRED}
    for key in settings:
        if key not in known:
            raise ClusterConfigError(f"unknown cluster setting {key!r}")
    try:
        config = msgspec.convert({"servers": urls, **settings}, ClusterConfig)
    except msgspec.ValidationError as error:
        raise ClusterConfigError(f"cluster settings: {' '.join(str(error).split())}") from None
    return check(config)


def load_cluster_table(path: str | Path) -> dict[str, Any]:
    """The ``[cluster]`` table of a TOML config file ({} when there is none)."""
    try:
        with Path(path).open("rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise ClusterConfigError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as error:
        raise ClusterConfigError(f"{path}: invalid TOML: {' '.join(str(error).split())}") from None
    table = data.get("cluster", {})
    if not isinstance(table, dict):
        raise ClusterConfigError(f"{path}: [cluster] must be a table")
    return table
