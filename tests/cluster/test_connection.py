"""The NATS connection: streams and buckets made once and found (or updated) by every other
node, the subject secret shared, a server that cannot be reached refused in one line, and a
subscription barrier that holds (nats-py's single flush does not)."""

from __future__ import annotations

import asyncio

import nats
import pytest

from server.cluster.config import cluster_config
from server.cluster.connection import ClusterConnection, ClusterUnavailable, barrier


async def test_every_node_finds_the_same_buckets_and_secret(connect) -> None:
    a = await connect("node-a")
    b = await connect("node-b")
    assert a.subject_secret == b.subject_secret and len(a.subject_secret) == 32
    names = {info.config.name for info in await a.js.streams_info()}
    assert {a.names.log_stream, "KV_" + a.names.owners_bucket, "KV_" + a.names.identity_bucket} <= names


async def test_a_node_with_new_settings_updates_the_buckets(connect) -> None:
    await connect("node-a", node_ttl_seconds=3.0)
    b = await connect("node-b", node_ttl_seconds=5.0)
    info = await b.js.stream_info("KV_" + b.names.nodes_bucket)
    assert info.config.max_age == 5.0


async def test_an_unreachable_server_is_refused_in_one_line() -> None:
    config = cluster_config(
        "nats://127.0.0.1:1", node_id="lonely", connect_timeout_seconds=0.2, start_timeout_seconds=1.0
    )
    with pytest.raises(ClusterUnavailable, match=r"cannot connect to NATS at nats://127\.0\.0\.1:1") as error:
        await ClusterConnection.connect(config)
    assert "\n" not in str(error.value) and "within 1 s" in str(error.value)


async def test_after_the_barrier_a_new_subscription_answers_at_once(nats_server) -> None:
    """Without the barrier some of these requests (1 in 20 to 1 in 200, by load) find "no responders" here; with it, none may."""
    asker = await nats.connect(nats_server.url)
    try:
        for n in range(300):
            answerer = await nats.connect(nats_server.url)

            async def answer(msg) -> None:
                await msg.respond(b"here")

            await answerer.subscribe(f"barrier.{n}", cb=answer)
            await barrier(answerer)
            reply = await asyncio.wait_for(asker.request(f"barrier.{n}", b"?", timeout=2), 3)
            assert reply.data == b"here"
            await answerer.close()
    finally:
        await asker.close()
