"""One identity across nodes, with a real nats-server: a key's seat is found from any node,
and a second connection with the same key, on another node, takes the seat over (the first
session's node hears of it)."""

from __future__ import annotations

import asyncio

from server.cluster.identity import IdentityRegistry
from server.cluster.records import SessionClaim
from server.cluster.subjects import key_id

from .helpers import wait_until

KEY = "SHA256:AbC+d/ef0123456789abcdefghijklmnopqrstuvwxyz"  # '+' and '/' as real fingerprints have


async def test_a_seat_bound_on_one_node_is_found_on_another(connect) -> None:
    reg_a = IdentityRegistry(await connect("node-a"))
    reg_b = IdentityRegistry(await connect("node-b"))
    assert await reg_b.seat_of(KEY) is None
    await reg_a.bind(KEY, "t1", 2)
    binding = await reg_b.seat_of(KEY)
    assert binding is not None and (binding.table, binding.seat) == ("t1", 2)
    assert not await reg_b.unbind(KEY, "t9")  # bound elsewhere: left alone
    assert await reg_b.unbind(KEY, "t1")
    assert await reg_a.seat_of(KEY) is None


async def test_a_second_connection_on_another_node_takes_the_session_over(connect) -> None:
    reg_a = IdentityRegistry(await connect("node-a"))
    reg_b = IdentityRegistry(await connect("node-b"))
    # Node a's own sessions by key id, and what it closes when another session claims their key.
    local = {key_id(KEY): "s1"}
    closed: list[tuple[str, SessionClaim]] = []

    def on_claim(kid: str, claim: SessionClaim) -> None:
        if kid in local and (claim.node, claim.session) != ("node-a", local[kid]):
            closed.append((local.pop(kid), claim))

    watch = await reg_a.watch_takeovers(on_claim)
    try:
        assert await reg_a.claim(KEY, "s1") is None
        previous = await reg_b.claim(KEY, "s7")
        assert previous is not None and (previous.node, previous.session) == ("node-a", "s1")
        await wait_until(lambda: closed, what="node a hearing of the take-over")
        assert closed[0][0] == "s1" and (closed[0][1].node, closed[0][1].session) == ("node-b", "s7")
        # The displaced session ending later does not remove the new one's claim.
        assert not await reg_a.release(KEY, "s1")
        holder = await reg_a.holder(KEY)
        assert holder is not None and holder.session == "s7"
        assert await reg_b.release(KEY, "s7")
        assert await reg_a.holder(KEY) is None
    finally:
        await watch.stop()


async def test_connections_arriving_at_once_are_ordered(connect) -> None:
    regs = [IdentityRegistry(await connect(f"node-{n}")) for n in "abc"]
    claims = await asyncio.gather(*(reg.claim(KEY, f"s{i}") for i, reg in enumerate(regs)))
    # Exactly one found the key free; each other displaced a distinct earlier claim.
    assert sum(c is None for c in claims) == 1
    displaced = [(c.node, c.session) for c in claims if c is not None]
    assert len(set(displaced)) == 2
    holder = await regs[0].holder(KEY)
    assert holder is not None and (holder.node, holder.session) not in displaced


async def test_claiming_again_from_the_same_session_displaces_nobody(connect) -> None:
    reg = IdentityRegistry(await connect("node-a"))
    assert await reg.claim(KEY, "s1") is None
    assert await reg.claim(KEY, "s1") is None
