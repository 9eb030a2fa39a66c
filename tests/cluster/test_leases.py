"""Table leases in a JetStream key-value bucket with a TTL, with a real nats-server: one
winner among contenders, renewal keeps a lease, expiry and release hand it over, an owner
gives up (locally) before anyone else can take it, and a draining node takes none."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.cluster.leases import LeaseManager

from .conftest import FAST_LEASES
from .helpers import take_when_lapsed, wait_until


async def _managers(connect, *nodes: str, **settings):
    out = []
    for node in nodes:
        conn = await connect(node, **{**FAST_LEASES, **settings})
        lost: list[tuple[str, str]] = []
        manager = LeaseManager(conn, on_lost=lambda table, why, lost=lost: lost.append((table, why)))
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


@pytest.mark.slow  # three TTLs of renewals in real time (the other lease tests keep the TTL in the fast tier)
async def test_renewal_keeps_the_lease_past_its_ttl(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease = await a.acquire("t1")
    a.start()
    try:
        await asyncio.sleep(3 * a.ttl)
        assert lease.valid() and await b.acquire("t1") is None
        assert (await b.holder("t1")).node == "node-a"
    finally:
        await a.stop(release=True)


async def test_expiry_hands_the_table_over_and_the_old_owner_learns_it_lost(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease_a = await a.acquire("t1")  # a never renews: as if it died
    freed: list[str] = []
    watch = await b.watch_lapses(freed.append)
    try:
        took = await wait_until(lambda: "t1" in freed, timeout=a.ttl + 2, what="the lapse")
        assert took < a.ttl + 1.0
        # The old owner had given up by its own clock before the server let the lease go.
        assert not lease_a.valid()
        lease_b = await b.acquire("t1")
        assert lease_b is not None and (await a.holder("t1")).node == "node-b"
        assert not await a.renew(lease_a)
        assert a.lost_calls == [("t1", "expired")]
    finally:
        await watch.stop()


async def test_a_renewal_after_someone_else_took_it_is_refused(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease_a = await a.acquire("t1")
    await take_when_lapsed(b, "t1")  # a paused: the server lets the lease lapse
    lease_a.deadline = time.monotonic() + 60  # a's clock stood still: it still believes
    assert not await a.renew(lease_a)
    assert lease_a.lost == "taken" and a.lost_calls == [("t1", "taken")] and "t1" not in a.held


async def test_a_released_table_is_free_at_once(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    freed: list[str] = []
    watch = await b.watch_lapses(freed.append)
    try:
        lease = await a.acquire("t1")
        started = time.monotonic()
        await a.release(lease)
        await wait_until(lambda: "t1" in freed, timeout=2, what="the release")
        assert await b.acquire("t1") is not None
        assert time.monotonic() - started < a.ttl  # no waiting for the TTL
        assert a.lost_calls == []  # a release is not a loss
    finally:
        await watch.stop()


async def test_releasing_a_lease_someone_else_holds_now_deletes_nothing(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    lease_a = await a.acquire("t1")
    await take_when_lapsed(b, "t1")
    lease_a.deadline = time.monotonic() + 60
    await a.release(lease_a)
    assert (await a.holder("t1")).node == "node-b"


async def test_a_draining_node_takes_no_new_lease(connect) -> None:
    (a,) = await _managers(connect, "node-a")
    a.draining = True
    assert await a.acquire("t1") is None
    assert await a.holder("t1") is None


async def test_stopping_without_release_lets_the_leases_lapse(connect) -> None:
    a, b = await _managers(connect, "node-a", "node-b")
    await a.acquire("t1")
    a.start()
    await a.stop(release=False)
    assert await b.acquire("t1") is None  # still held until the TTL runs out
    await take_when_lapsed(b, "t1", timeout=a.ttl + 2)
