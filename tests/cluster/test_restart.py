"""A nats-server killed and restarted under running nodes (file storage): their watches start
afresh at once, see what changed meanwhile, and a lease that lapsed during the outage is
reported free."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from server.cluster.config import cluster_config
from server.cluster.connection import ClusterConnection
from server.cluster.directory import TableDirectory
from server.cluster.natsd import NatsServer
from server.cluster.records import TableListing

from .helpers import lease_manager, retry, wait_until


@pytest.mark.slow  # a nats-server crashed and started again (test_table_log.py keeps one crash in the fast tier)
async def test_watches_resume_after_a_nats_server_crash(nats_server, tmp_path: Path) -> None:
    server = NatsServer(tmp_path / "nats").start()
    conns: list[ClusterConnection] = []
    try:
        for node in ("node-a", "node-b"):
            config = cluster_config(server.url, node_id=node, node_ttl_seconds=30.0)  # lives outlast the crash
            conns.append(await ClusterConnection.connect(config))
        a, b = conns
        dir_a, dir_b = TableDirectory(a), await TableDirectory(b).start()
        leases_a = await lease_manager(a)
        lease_t1, lease_t2 = await leases_a.acquire("t1"), await leases_a.acquire("t2")
        freed: list[str] = []
        lapse_watch = await (await lease_manager(b)).watch_lapses(freed.append)
        await dir_a.publish(TableListing(id="t1", name="one"), lease_t1)
        await dir_a.publish(TableListing(id="t2", name="two"), lease_t2)
        await wait_until(lambda: len(dir_b.tables) == 2, what="both listings on b")

        server.kill()
        server.start()
        # As soon as a is back (b's watches may not be yet): t2's listing and lease go away.
        await wait_until(lambda: a.nc.is_connected, timeout=10, what="a reconnected")
        await retry(lambda: dir_a.remove("t2"), what="removing t2")
        await retry(lambda: leases_a.release(lease_t2), what="releasing t2")
        started = time.monotonic()
        await dir_a.publish(TableListing(id="t1", name="one, again"), lease_t1)
        await wait_until(lambda: dir_b.get("t1") is not None and dir_b.get("t1").name == "one, again", timeout=5)
        assert time.monotonic() - started < 3  # not nats-py's 10 s of missed heartbeats
        assert dir_b.get("t2") is None
        await wait_until(lambda: "t2" in freed, timeout=5, what="the released lease reported")
        assert "t1" not in freed and lease_t1.valid()
        await lapse_watch.stop()
        for conn in conns:
            for registry in conn.test_registries:
                await registry.stop()
        await dir_b.stop()
    finally:
        for conn in conns:
            await conn.close()
        server.stop()
