"""Live nodes and cluster-wide counters, with a real nats-server: nodes see each other, a
node that dies drops out after its TTL, draining is seen, one id cannot run twice, and
counts add up over live nodes only."""

from __future__ import annotations

import asyncio

import pytest

from server.cluster.counters import ClusterCounters
from server.cluster.nodes import NodeIdInUse, NodeRegistry

from .conftest import FAST_NODES
from .helpers import wait_until


async def test_nodes_see_each_other_join_drain_and_leave(connect) -> None:
    a = await NodeRegistry(await connect("node-a", **FAST_NODES), address="10.0.0.1:2222").start()
    b = await NodeRegistry(await connect("node-b", **FAST_NODES), counts=lambda: (7, 2)).start()
    try:
        await wait_until(lambda: set(a.live) == {"node-a", "node-b"} == set(b.live), what="both nodes live")
        await wait_until(lambda: a.live["node-b"].sessions == 7, what="node b's counts")
        assert b.live["node-a"].address == "10.0.0.1:2222"
        await b.set_draining()
        await wait_until(lambda: a.live["node-b"].draining, what="node b draining")
        await b.stop()  # a clean leave is seen at once
        await wait_until(lambda: "node-b" not in a.live, timeout=0.5, what="node b gone")
    finally:
        await a.stop()


async def test_a_node_that_dies_drops_out_after_its_ttl(connect) -> None:
    a = await NodeRegistry(await connect("node-a", **FAST_NODES)).start()
    b = await NodeRegistry(await connect("node-b", **FAST_NODES)).start()
    gone: list[str] = []
    a.on_change.append(lambda node, record: record is None and gone.append(node))
    try:
        await wait_until(lambda: "node-b" in a.live, what="node b live")
        assert b._task is not None
        b._task.cancel()  # b stops beating without a word: killed
        took = await wait_until(lambda: gone == ["node-b"], timeout=3, what="node b's lapse")
        assert took < 1.0 + 1.0
    finally:
        await a.stop()


@pytest.mark.slow  # waits out a node TTL and the join's 1.5 s in real time
async def test_one_node_id_cannot_run_twice(connect) -> None:
    a = await NodeRegistry(await connect("node-a", **FAST_NODES)).start()
    try:
        with pytest.raises(NodeIdInUse, match="node-a"):
            await NodeRegistry(await connect("node-a", **FAST_NODES)).start()
    finally:
        await a.stop()
    # Once it has left, the id can be used again (a restart).
    again = await NodeRegistry(await connect("node-a", **FAST_NODES)).start()
    await again.stop()


async def test_counts_add_up_over_live_nodes(connect) -> None:
    nodes_a = await NodeRegistry(await connect("node-a", **FAST_NODES)).start()
    nodes_b = await NodeRegistry(await connect("node-b", **FAST_NODES)).start()
    count_a = await ClusterCounters(nodes_a.conn, nodes_a).start()
    count_b = await ClusterCounters(nodes_b.conn, nodes_b).start()
    try:
        await wait_until(lambda: "node-b" in nodes_a.live and "node-a" in nodes_b.live, what="both live")
        for _ in range(3):
            count_a.add("sessions")
        count_b.add("sessions", 2)
        count_b.add("tables")
        await wait_until(lambda: count_a.total("sessions") == 5 == count_b.total("sessions"), what="totals")
        assert count_a.total("tables") == 1
        assert count_a.allows("sessions", cap=6) and not count_a.allows("sessions", cap=5)
        count_a.add("sessions", -1)
        await wait_until(lambda: count_b.total("sessions") == 4, what="a session leaving")
        # b dies: its counts stop counting when its heartbeat lapses, and are swept.
        assert nodes_b._task is not None
        nodes_b._task.cancel()
        await count_b._watch.stop()  # type: ignore[union-attr]
        await wait_until(lambda: count_a.total("sessions") == 2, timeout=3, what="b's counts dropped")
        await wait_until(lambda: "node-b" not in count_a.others["sessions"], what="b's counts swept")
    finally:
        await count_a.stop()
        await nodes_a.stop()


async def test_a_dead_predecessors_record_is_replaced_at_once_when_ids_are_this_hosts(connect) -> None:
    """A worker started again after a crash (`--workers`): its id's record names a process that is
    gone, so it joins at once (its tables move now) instead of waiting out the TTL."""
    import subprocess
    import time

    from server.cluster import kvutil
    from server.cluster.records import NodeRecord, encode

    settings = {**FAST_NODES, "node_ttl_seconds": 30.0, "heartbeat_seconds": 1.0, "host_local_ids": True}
    conn = await connect("node-a", **settings)
    dead = subprocess.Popen(["true"])
    dead.wait()
    key = conn.names.node_key("node-a")
    await kvutil.create(conn.bucket("nodes"), key, encode(NodeRecord(node="node-a", pid=dead.pid, life="old")))
    started = time.monotonic()
    registry = await NodeRegistry(conn).start()
    try:
        assert time.monotonic() - started < 2.0  # not the 30 s TTL
        assert registry.life != "old"
    finally:
        await registry.stop()
    # A live process's record is left alone: waited out, as between machines.
    await kvutil.create(conn.bucket("nodes"), key, encode(NodeRecord(node="node-a", pid=1, life="live")))
    assert not await NodeRegistry(conn)._replace_dead_predecessor(key)
    assert (await kvutil.get(conn.bucket("nodes"), key)).value is not None


async def test_a_beat_asked_while_another_is_stored_keeps_the_nodes_life(connect) -> None:
    """Draining beats at once (`set_draining`), maybe while the periodic heartbeat waits for its
    answer: both wrote with the same last revision, the second was refused and read as the record
    lapsed, and the draining node lost its tables and stopped (a CI run, a drained node's player cut off)."""
    a = await NodeRegistry(await connect("node-a", **FAST_NODES)).start()
    lost: list[str] = []
    a.on_own_life_lost.append(lost.append)
    life = a.life
    try:
        for _ in range(5):
            await asyncio.gather(a.beat(), a.beat(), a.set_draining())
        assert lost == [] and a.life == life
        assert a.live["node-a"].draining
    finally:
        await a.stop()
