"""The cluster-wide table directory and join codes, with a real nats-server: what one node
lists every node sees, only an owner lists, and no two tables get the same code."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.cluster.directory import NotOwner, TableDirectory
from server.cluster.records import TableListing

from .conftest import FAST_LEASES
from .helpers import lease_manager, wait_until


async def test_a_listing_written_on_one_node_is_seen_on_the_others(connect) -> None:
    conn_a = await connect("node-a", **FAST_LEASES)
    conn_b = await connect("node-b", **FAST_LEASES)
    seen: list[tuple[str, object]] = []
    dir_a = await TableDirectory(conn_a).start()
    dir_b = await TableDirectory(conn_b).start()
    dir_b.on_change.append(lambda table, listing: seen.append((table, listing)))
    try:
        lease = await (await lease_manager(conn_a)).acquire("t1")
        listing = TableListing(id="t1", name="Ana's table", taken=2, seats=4, owner="node-a", updated=time.time())
        await dir_a.publish(listing, lease)
        await wait_until(lambda: dir_b.get("t1") == listing, what="the listing on node b")
        assert await dir_b.fetch("t1") == listing
        playing = TableListing(id="t1", name="Ana's table", taken=4, seats=4, state="playing", owner="node-a")
        await dir_a.publish(playing, lease)
        await wait_until(lambda: dir_b.get("t1") == playing, what="the update on node b")
        await dir_a.remove("t1")
        await wait_until(lambda: dir_b.get("t1") is None, what="the removal on node b")
        assert [t for t, _ in seen] == ["t1", "t1", "t1"] and seen[-1][1] is None
        # A node that starts later finds what is listed.
        await dir_a.publish(listing, lease)
        late = await TableDirectory(conn_b).start()
        assert late.listings() == [listing]
        await late.stop()
    finally:
        await dir_a.stop()
        await dir_b.stop()


async def test_only_the_owner_lists_a_table(connect) -> None:
    conn = await connect("node-a", **FAST_LEASES)
    directory = TableDirectory(conn)
    leases = await lease_manager(conn)
    other = await leases.acquire("t2")
    with pytest.raises(NotOwner):
        await directory.publish(TableListing(id="t1", name="x"), other)
    lease = await leases.acquire("t1")
    lease.deadline = time.monotonic() - 1  # lapsed
    with pytest.raises(NotOwner):
        await directory.publish(TableListing(id="t1", name="x"), lease)
    assert await directory.fetch("t1") is None


async def test_join_codes_are_unique_across_nodes(connect) -> None:
    dir_a = TableDirectory(await connect("node-a"))
    dir_b = TableDirectory(await connect("node-b"))
    wins = await asyncio.gather(dir_a.claim_code("ABCDE", "t1"), dir_b.claim_code("ABCDE", "t2"))
    assert sorted(wins) == [False, True]
    winner = "t1" if wins[0] else "t2"
    assert await dir_b.resolve_code("ABCDE") == winner
    loser = "t2" if wins[0] else "t1"
    await dir_a.release_code("ABCDE", loser)  # not its code: nothing happens
    assert await dir_a.resolve_code("ABCDE") == winner
    await dir_a.release_code("ABCDE", winner)
    assert await dir_a.resolve_code("ABCDE") is None
    assert await dir_b.claim_code("ABCDE", "t3")  # free again


async def test_a_new_code_skips_the_ones_taken(connect) -> None:
    directory = TableDirectory(await connect("node-a"))
    assert await directory.claim_code("AAAAA", "t1")
    offered = iter(["AAAAA", "AAAAA", "BBBBB"])
    assert await directory.new_code("t2", lambda: next(offered)) == "BBBBB"
    assert await directory.resolve_code("BBBBB") == "t2"
    with pytest.raises(RuntimeError, match="no free join code"):
        await directory.new_code("t3", lambda: "AAAAA")
