"""The table's command log as a JetStream stream, with a real nats-server: order, replay,
fencing of a stale owner, retried appends, snapshots, export, and no loss across a crash
of nats-server (file storage)."""

from __future__ import annotations

import time
from pathlib import Path

import nats.errors
import pytest

from engine.savefile import dumps
from server.cluster.natsd import NatsServer
from server.cluster.table_log import Fenced, LogError, TableExists, TableLog
from server.storage.savelog import read_save_file

from .conftest import FAST_LEASES
from .helpers import Bots, lease_manager, new_table, pause_node, take_when_lapsed


async def _owner(connect, node: str, table_id: str = "t1", **settings):
    conn = await connect(node, **{**FAST_LEASES, **settings})
    leases = await lease_manager(conn)
    return conn, leases


async def test_commands_come_back_in_order_and_replay_to_the_same_game(connect) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1"), lease)
    bots = Bots(4)
    sent = []
    for _ in range(40):
        sent.append(bots.step(log.state))
        await log.record(sent[-1])
    copy = await TableLog.read(conn, "t1")  # replayed and checked by the engine
    assert copy.log == sent
    assert dumps(copy) == dumps(log.save)


async def test_a_new_owner_replays_and_the_stale_owner_is_refused(connect) -> None:
    conn_a, leases_a = await _owner(connect, "node-a")
    conn_b, leases_b = await _owner(connect, "node-b")
    lease_a = await leases_a.acquire("t1")
    log_a = await TableLog.create(conn_a, new_table("t1"), lease_a)
    bots = Bots(4)
    for _ in range(10):
        await log_a.record(bots.step(log_a.state))
    # Node A stops beating (paused); its life ends on the server and B takes the table.
    pause_node(leases_a)
    lease_b = await take_when_lapsed(leases_b, "t1")
    assert lease_b.revision > lease_a.revision
    log_b = await TableLog.open(conn_b, "t1", lease_b)
    assert log_b.save.log == log_a.save.log and log_b.recovery is not None
    assert log_b.recovery.log_commands == 10
    # A, whose clock stood still during the pause, still believes in its lease: the stream refuses it.
    lease_a.deadline = time.monotonic() + 60
    assert lease_a.valid()
    with pytest.raises(Fenced, match="another node wrote its log"):
        await log_a.record(bots.step(log_a.state))
    with pytest.raises(Fenced):  # and every later write, at once
        await log_a.snapshot()
    # B goes on; what A tried is nowhere.
    bots_b = Bots(4, seed=5)
    for _ in range(5):
        await log_b.record(bots_b.step(log_b.state))
    copy = await TableLog.read(conn_b, "t1")
    assert copy.log == log_b.save.log and len(copy.log) == 15


async def test_an_owner_whose_lease_lapsed_writes_nothing(connect) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1"), lease)
    lease.deadline = time.monotonic() - 0.001  # past its own deadline (no renewal came back)
    bots = Bots(4)
    with pytest.raises(Fenced, match="lease was lost"):
        await log.record(bots.step(log.state))
    assert (await TableLog.read(conn, "t1")).log == []


async def test_an_append_racing_the_takeover_is_kept(connect) -> None:
    """The old owner appends after the new one read the log, before it fenced: the fence is
    refused, the new owner reads again and the acknowledged command is in its game."""
    conn_a, leases_a = await _owner(connect, "node-a")
    conn_b, leases_b = await _owner(connect, "node-b")
    lease_a = await leases_a.acquire("t1")
    log_a = await TableLog.create(conn_a, new_table("t1"), lease_a)
    bots = Bots(4)
    for _ in range(3):
        await log_a.record(bots.step(log_a.state))
    stale_read = await TableLog.read(conn_b, "t1")
    acknowledged = bots.step(log_a.state)
    await log_a.record(acknowledged)  # between B's read and B's fence
    lease_b = await leases_b.acquire("t2")  # any valid lease object stands for B's here
    lease_b.table_id = "t1"
    racing = TableLog(conn_b, stale_read, lease_b, last_seq=log_a.last_seq - 1)
    with pytest.raises(Fenced):
        await racing.snapshot()
    log_b = await TableLog.open(conn_b, "t1", lease_b)
    assert log_b.save.log[-1] == acknowledged and len(log_b.save.log) == 4


async def test_a_retried_append_whose_ack_was_lost_is_recognised(connect, monkeypatch) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1"), lease)
    publish = conn.js.publish
    lost = []

    async def ack_lost_once(*args, **kwargs):
        ack = await publish(*args, **kwargs)  # the stream has it...
        if not lost:
            lost.append(ack.seq)
            raise nats.errors.TimeoutError  # ...but the answer never arrives
        return ack

    monkeypatch.setattr(conn.js, "publish", ack_lost_once)
    bots = Bots(4)
    cmd = bots.step(log.state)
    await log.record(cmd)  # retried under the same id and condition: recognised as landed
    assert lost and log.last_seq == lost[0] and log.fenced is None
    await log.record(bots.step(log.state))  # and the next append follows it
    assert (await TableLog.read(conn, "t1")).log == log.save.log


async def test_snapshots_bound_the_log_and_replay_from_the_last_one(connect) -> None:
    conn, leases = await _owner(connect, "node-a", snapshot_every=5)
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1"), lease)
    bots = Bots(4)
    for _ in range(23):
        await log.record(bots.step(log.state))
    info = await conn.js.stream_info(conn.names.log_stream, subjects_filter=conn.names.log_subject("t1"))
    assert info.state.subjects == {conn.names.log_subject("t1"): 4}  # the snapshot at 20, commands 21-23
    copy = await TableLog.read(conn, "t1")
    assert dumps(copy) == dumps(log.save)


async def test_seat_changes_are_saved_at_once(connect) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1"), lease)
    seats = list(log.save.seats)
    seats[1] = type(seats[1])(seats[1].name, key="SHA256:newcomer", bot=None)
    await log.set_seats(seats)
    assert (await TableLog.read(conn, "t1")).seats == seats
    with pytest.raises(ValueError, match="cannot change"):
        await log.set_seats([type(s)("Other", key=s.key, bot=s.bot) for s in seats])


async def test_export_writes_the_save_file_the_file_store_writes(connect, tmp_path: Path) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1", players=3), lease)
    bots = Bots(3, seed=2)
    while not log.finished:
        await log.record(bots.step(log.state))
    path = tmp_path / "t1.save"
    log.export(path)
    loaded = read_save_file(path)  # the engine replays and checks it
    assert loaded.finished and loaded.log == log.save.log
    assert dumps(await TableLog.read(conn, "t1")) == dumps(log.save)
    with pytest.raises(ValueError, match="game is over"):
        await log.record(loaded.log[-1])
    with pytest.raises(LogError, match="over"):  # a finished game cannot be made a table again
        await TableLog.create(conn, loaded, lease)


async def test_a_table_id_in_use_is_refused(connect) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    await TableLog.create(conn, new_table("t1"), lease)
    with pytest.raises(TableExists):
        await TableLog.create(conn, new_table("t1", seed=9), lease)
    await TableLog.remove(conn, "t1")
    assert not await TableLog.exists(conn, "t1")
    await TableLog.create(conn, new_table("t1", seed=9), lease)  # a removed id can be used again


async def test_an_unreadable_log_is_refused_and_left_alone(connect) -> None:
    conn, leases = await _owner(connect, "node-a")
    lease = await leases.acquire("t1")
    log = await TableLog.create(conn, new_table("t1"), lease)
    bots = Bots(4)
    await log.record(bots.step(log.state))
    await conn.js.publish(conn.names.log_subject("t1"), b"\x93\xa3cmd\x02\xc0")  # not a command
    before = (await conn.js.stream_info(conn.names.log_stream)).state.last_seq
    with pytest.raises(LogError, match="unreadable log record"):
        await TableLog.open(conn, "t1", lease)
    assert (await conn.js.stream_info(conn.names.log_stream)).state.last_seq == before
    with pytest.raises(LogError, match="no log"):
        await TableLog.read(conn, "nothing-here")


async def test_no_acknowledged_command_is_lost_when_nats_server_is_killed(connect, tmp_path: Path) -> None:
    server = NatsServer(tmp_path / "nats")
    server.start()
    try:
        from server.cluster.config import cluster_config
        from server.cluster.connection import ClusterConnection

        config = cluster_config(server.url, node_id="node-a", node_ttl_seconds=30.0)
        conn = await ClusterConnection.connect(config)
        leases = await lease_manager(conn)
        lease = await leases.acquire("t1")
        log = await TableLog.create(conn, new_table("t1"), lease)
        bots = Bots(4)
        for _ in range(30):
            await log.record(bots.step(log.state))
        acknowledged = list(log.save.log)
        server.kill()  # SIGKILL: no flush, no goodbye
        server.start()  # same port, same store
        # The same connection comes back by itself and the owner goes on.
        for _ in range(5):
            await log.record(bots.step(log.state))
        copy = await TableLog.read(conn, "t1")
        assert copy.log[:30] == acknowledged and copy.log == log.save.log
        await leases.registry.stop()
        await conn.close()
    finally:
        server.stop()


async def test_a_game_in_progress_from_a_save_file_becomes_a_table(connect, tmp_path: Path) -> None:
    """The other way: a save file (a game half played) loaded into the cluster, then played on."""
    from tests.saves.games import first_game, game_save

    saved = game_save(first_game(4, seed=3), stop=25, table_id="loaded")
    path = tmp_path / "loaded.save"
    path.write_bytes(dumps(saved))
    conn, leases = await _owner(connect, "node-a")
    log = await TableLog.create(conn, read_save_file(path), await leases.acquire("loaded"))
    bots = Bots(4, seed=4)
    for _ in range(5):
        await log.record(bots.step(log.state))
    copy = await TableLog.read(conn, "loaded")
    assert copy.log[:25] == saved.log and len(copy.log) == 30 and dumps(copy) == dumps(log.save)
