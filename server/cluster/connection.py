"""A node's connection to NATS, and the streams and buckets the cluster needs.

    conn = await ClusterConnection.connect(config)   # connects, then makes what is missing
    conn.js, conn.names, conn.node, conn.subject_secret
    kv = conn.bucket("owners")                       # a nats-py KeyValue
    await conn.close()

Making the streams and buckets is idempotent: every node does it at start, the first one
creates them, the others find them (and update them when the settings changed, e.g. more
replicas). A connection lost later is retried forever by nats-py; what that means for
the node's tables (its life may end) is the business of the nodes and leases modules.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any

import nats
import nats.js.errors as js_errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import KeyValueConfig, StorageType, StreamConfig
from nats.js.kv import KeyValue

from server.cluster.config import ClusterConfig
from server.cluster.subjects import SECRET_KEY, Names
from server.logging_setup import log_event

log = logging.getLogger("citadels.cluster")

STREAM_IN_USE = 10058  # JetStream: a stream of that name exists with another configuration
DUPLICATE_WINDOW = 120.0  # seconds a log append's message id is remembered (retries)
SECRET_BYTES = 32


class ClusterUnavailable(RuntimeError):
    """NATS cannot be reached or refuses the cluster's streams; one line."""


class ClusterConnection:
    """One node's NATS connection, JetStream context and buckets."""

    def __init__(
        self,
        config: ClusterConfig,
        nc: Client,
        closing: list[bool] | None = None,
        reconnects: list[Callable[[], None]] | None = None,
    ) -> None:
        self.config = config
        # Called after each reconnection (watches start afresh: nats-py's would stay silent a while).
        self.reconnects: list[Callable[[], None]] = reconnects if reconnects is not None else []
        self._closing = closing if closing is not None else [False]
        self.nc = nc
        self.js: JetStreamContext = nc.jetstream(timeout=config.request_timeout_seconds)
        self.names = Names(config.namespace)
        self.node = config.node()
        self.subject_secret = b""
        self._buckets: dict[str, KeyValue] = {}

    @classmethod
    async def connect(cls, config: ClusterConfig, *, ensure: bool = True) -> ClusterConnection:
        node = config.node()
        closing = [False]  # set by close(): the disconnection that follows is ours
        reconnects: list[Callable[[], None]] = []

        async def on_error(error: Exception) -> None:
            log_event(log, logging.WARNING, "nats error", node=node, error=_one_line(error))

        async def on_disconnect() -> None:
            log_event(log, logging.INFO if closing[0] else logging.WARNING, "nats disconnected", node=node)

        async def on_reconnect() -> None:
            log_event(log, logging.INFO, "nats reconnected", node=node)
            for listener in list(reconnects):
                listener()

        options: dict[str, Any] = dict(
            servers=list(config.servers),
            name=f"citadels-{node}",
            connect_timeout=config.connect_timeout_seconds,
            allow_reconnect=True,
            max_reconnect_attempts=-1,
            reconnect_time_wait=0.25,
            error_cb=on_error,
            disconnected_cb=on_disconnect,
            reconnected_cb=on_reconnect,
        )
        if config.credentials_file:
            options["user_credentials"] = config.credentials_file
        where = ", ".join(config.servers)
        try:
            # nats-py retries the first connection as it retries later ones (for ever): bound it.
            nc = await asyncio.wait_for(nats.connect(**options), config.start_timeout_seconds)
        except TimeoutError:
            raise ClusterUnavailable(
                f"cannot connect to NATS at {where}: no answer within {config.start_timeout_seconds:g} s"
            ) from None
        except Exception as error:
            raise ClusterUnavailable(f"cannot connect to NATS at {where}: {_one_line(error)}") from None
        conn = cls(config, nc, closing, reconnects)
        if ensure:
            try:
                await conn.ensure()
            except Exception:
                await conn.close()
                raise
        log_event(
            log, logging.INFO, "cluster connected", node=node, nats=nc.connected_url.netloc if nc.connected_url else ""
        )
        return conn

    # -- streams and buckets ---------------------------------------------------------------------
    def _storage(self) -> StorageType:
        return StorageType.FILE if self.config.storage == "file" else StorageType.MEMORY

    def bucket_configs(self) -> dict[str, KeyValueConfig]:
        """Each bucket's settings, by short name."""
        c, n = self.config, self.names
        common: dict[str, Any] = dict(history=1, storage=self._storage(), replicas=c.replicas)
        # A node's key expires; a marker then tells every watcher at once (fast failover). A table's
        # owner key lasts as long as the life it names (server/cluster/leases.py): no TTL.
        return {
            "owners": KeyValueConfig(bucket=n.owners_bucket, **common),
            "nodes": KeyValueConfig(
                bucket=n.nodes_bucket,
                ttl=c.node_ttl_seconds,
                limit_marker_ttl=max(1.0, c.node_ttl_seconds),
                **common,
            ),
            "tables": KeyValueConfig(bucket=n.tables_bucket, **common),
            "identity": KeyValueConfig(bucket=n.identity_bucket, **common),
            "counters": KeyValueConfig(bucket=n.counters_bucket, **common),
            "cluster": KeyValueConfig(bucket=n.cluster_bucket, **common),
        }

    def log_stream_config(self) -> StreamConfig:
        return StreamConfig(
            name=self.names.log_stream,
            subjects=[self.names.log_subjects],
            storage=self._storage(),
            num_replicas=self.config.replicas,
            duplicate_window=DUPLICATE_WINDOW,
            allow_direct=True,
            deny_delete=True,  # records are only ever purged below a snapshot, never cut out
        )

    async def ensure(self) -> None:
        """Make (or update) the log stream and the buckets; read or make the subject secret."""
        try:
            await self._ensure_stream(self.log_stream_config())
            for short, kv_config in self.bucket_configs().items():
                self._buckets[short] = await self._ensure_bucket(kv_config)
            self.subject_secret = await self._ensure_secret()
        except js_errors.Error as error:
            raise ClusterUnavailable(f"JetStream refused the cluster's streams: {_one_line(error)}") from None

    async def _ensure_stream(self, config: StreamConfig) -> None:
        try:
            await self.js.add_stream(config)
        except js_errors.BadRequestError as error:
            if error.err_code != STREAM_IN_USE:
                raise
            await self.js.update_stream(config)

    async def _ensure_bucket(self, config: KeyValueConfig) -> KeyValue:
        try:
            return await self.js.create_key_value(config)
        except js_errors.BadRequestError as error:
            if error.err_code != STREAM_IN_USE:
                raise
        # Exists with other settings (a node with a newer config): update its stream, then open it.
        assert config.bucket is not None
        info = await self.js.stream_info(f"KV_{config.bucket}")
        stream = info.config.evolve(
            max_age=config.ttl,
            num_replicas=config.replicas,
            subject_delete_marker_ttl=config.limit_marker_ttl,
        )
        await self.js.update_stream(stream)
        return await self.js.key_value(config.bucket)

    async def _ensure_secret(self) -> bytes:
        kv = self.bucket("cluster")
        try:
            await kv.create(SECRET_KEY, os.urandom(SECRET_BYTES))
        except js_errors.KeyWrongLastSequenceError:
            pass  # another node made it first
        entry = await kv.get(SECRET_KEY)
        if not entry.value or len(entry.value) < 16:
            raise ClusterUnavailable(f"the cluster's {SECRET_KEY} in {self.names.cluster_bucket} is too short")
        return entry.value

    def bucket(self, short: str) -> KeyValue:
        """A bucket by short name: owners, nodes, tables, identity, counters, cluster."""
        try:
            return self._buckets[short]
        except KeyError:
            raise ClusterUnavailable(f"bucket {short!r} is not open (connect with ensure=True)") from None

    async def close(self) -> None:
        self._closing[0] = True
        if not self.nc.is_closed:
            try:
                await self.nc.drain()
            except Exception:
                await self.nc.close()


async def barrier(nc: Client) -> None:
    """Return once the server has every subscription made so far on ``nc`` (subscribe, then
    barrier, then expect messages or ask for them).

    One ``flush()`` is not that in nats-py 2.16: it writes its PING straight to the socket,
    ahead of commands still queued for the client's flusher task (a SUB made just before), so
    the PONG can come back before the server saw the SUB; a request sent to that subject from
    another connection then gets "no responders" (seen about 1 time in 20). By the time the
    first PONG is back the flusher has written the queue, so a second PING follows the SUB."""
    await nc.flush()
    await nc.flush()


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__
