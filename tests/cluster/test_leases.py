"""Table leases held by their node's heartbeat, with a real nats-server: one winner among
contenders, a lease that lasts with no write of its own, a node's end (killed, or back under a
new life) that frees its tables for another while the old owner gives up (locally) first,
release, and a draining node that takes none."""

from __future__ import annotations

import asyncio
import time

from server.cluster import kvutil
from server.cluster.leases import LeaseManager

from .conftest import FAST_LEASES
from .helpers import lease_manager, pause_node, take_when_lapsed, wait_until


async def _managers(connect, *nodes: str, **settings) -> list[LeaseManager]:
    out = []
    for node in nodes:
        conn = await connect(node, **{**FAST_LEASES, **settings})
        lost: list[tuple[str, str]] = []
        manager = await lease_manager(conn, on_lost=lambda table, why, lost=lost: lost.append((table, why)))
        manager.lost_calls = lost  # type: ignore[attr-defined]
        out.append(manager)
    return out


async def test_of_several_contenders_exactly_one_wins(connect) -> None:
    managers = await _managers(connect, "node-a", "node-b", "node-c", "node-d")
    for table in ("t1", "t2", "t3"):
        leases = await asyncio.gather(*(m.acquire(table) for m in managers))
        winners = [m.node for m, lease in zip(managers, leases) if lease is not None]
        assert len(winners) == 1
        holder = await managers[0].holder(table)
        assert holder is not None and holder.node == winners[0] and holder.table == table


async def test_a_lease_lasts_while_its_node_beats_with_no_write_of_its_own(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease = await a.acquire("t1")
    key = a.conn.names.lease_key("t1")
    revision = (await kvutil.get(a.kv, key)).revision
    await asyncio.sleep(3 * a.conn.config.node_ttl_seconds)
    assert lease.valid() and await b.acquire("t1") is None and await b.held_by_live("t1")
    assert (await kvutil.get(a.kv, key)).revision == revision == lease.revision  # never rewritten


async def test_a_dead_nodes_tables_are_taken_and_it_had_given_them_up_first(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease_a = await a.acquire("t1")
    ended: list[str] = []
    b.registry.on_life_end.append(ended.append)
    pause_node(a)
    ttl = a.conn.config.node_ttl_seconds
    took = await wait_until(lambda: "node-a" in ended, timeout=ttl + 2, what="node-a's end")
    assert took < ttl + 1.0
    # The old owner had stopped acting by its own clock before the server let its key go.
    assert not lease_a.valid()
    lease_b = await b.acquire("t1")
    assert lease_b is not None and lease_b.revision > lease_a.revision  # a new fencing token
    assert (await a.holder("t1")).node == "node-b"


async def test_a_node_back_under_a_new_life_has_lost_its_old_tables(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease_a = await a.acquire("t1")
    old_life = a.registry.life
    # a paused past its TTL: its key lapsed on the server (here: deleted under it)
    await kvutil.delete(a.registry.kv, a.conn.names.node_key("node-a"))
    await a.registry.beat()  # a wakes up: its heartbeat finds its record gone
    assert a.registry.life != old_life and lease_a.lost == "lapsed"
    assert a.lost_calls == [("t1", "lapsed")] and "t1" not in a.held
    assert not await b.held_by_live("t1")  # the key still names a, but an ended life
    lease_b = await b.acquire("t1")
    assert lease_b is not None
    # a, alive again under its new life, takes nothing back from b
    assert await a.acquire("t1") is None


async def test_a_node_whose_heartbeat_fails_past_its_deadline_gives_its_tables_up(connect) -> None:
    (a,) = await _managers(connect, "node-a")
    lease = await a.acquire("t1")
    a.registry.deadline = time.monotonic() - 0.01  # no heartbeat stored in time
    await a.registry.beat()
    assert lease.lost == "expired" and a.lost_calls == [("t1", "expired")]
    again = await a.acquire("t1")  # the key names our ended life: free, for us too
    assert again is not None and again.revision > lease.revision


async def test_a_released_table_is_free_at_once(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    freed: list[str] = []
    watch = await b.watch_lapses(freed.append)
    try:
        lease = await a.acquire("t1")
        await a.release(lease)
        await wait_until(lambda: "t1" in freed, timeout=2, what="the release")
        assert await b.acquire("t1") is not None
        assert a.lost_calls == []  # a release is not a loss
    finally:
        await watch.stop()


async def test_releasing_a_lease_someone_else_holds_now_deletes_nothing(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease_a = await a.acquire("t1")
    pause_node(a)
    await take_when_lapsed(b, "t1")
    lease_a.deadline = time.monotonic() + 60  # a's clock stood still: it still believes
    await a.release(lease_a)
    assert (await a.holder("t1")).node == "node-b"


async def test_a_draining_node_takes_no_new_lease(connect) -> None:
    (a,) = await _managers(connect, "node-a")
    a.draining = True
    assert await a.acquire("t1") is None
    assert await a.holder("t1") is None


async def test_a_node_that_leaves_without_releasing_frees_its_tables_at_once(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    await a.acquire("t1")
    await a.stop(release=False)
    assert await b.acquire("t1") is None  # held while a's life lasts
    started = time.monotonic()
    await a.registry.stop()  # its key deleted: no TTL to wait for
    await take_when_lapsed(b, "t1", timeout=2)
    assert time.monotonic() - started < a.conn.config.node_ttl_seconds
