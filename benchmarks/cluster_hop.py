"""The cost of one NATS hop between a session and its table's owner, printed as ONE JSON line.

Two tables are played at once by bots, move for move, with the same persistence:
- same node: the owner runs in this process; a command is applied (engine), appended to the
  table's JetStream log (server/cluster/table_log.py, file storage), and the observing seat's
  view is handed over by an asyncio queue, as a session on the owner's node would get it;
- cross node: the owner is another process (another node); the command goes as a NATS
  request on the seat's command subject, the owner applies and appends it the same way,
  answers "accepted", and publishes every seat's view on its own seat subject; the observing
  seat's view arrives by a subscription.

"command to view" is from sending the command to the observer having the new view; the
difference between the two is what the hop costs. Also measured apart: a bare NATS
request/reply (22-byte command), a bare publish-to-receive of a view (~1 KB), a JetStream
append, and the engine work a node would repeat if every node replayed the log itself
(apply one command) against the owner's per-seat view encoding.

    python benchmarks/cluster_hop.py [--moves 300] [--players 5]

The moves of both tables alternate, so the machine's noise falls on both alike. Both sides
run on this machine (loopback); the cross-node owner is a separate process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import apply, legal_commands, new_game, view
from engine.bots.random_bot import RandomBot
from engine.commands import Command
from engine.savefile import Seat, new_save, utcnow
from engine.setup import GameConfig
from server.cluster.config import cluster_config
from server.cluster.connection import ClusterConnection, barrier
from server.cluster.leases import LeaseManager
from server.cluster.natsd import NatsServer
from server.cluster.nodes import NodeRegistry
from server.cluster.subjects import seat_token
from server.cluster.table_log import TableLog

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Hal"]
OBSERVER = 0  # the seat whose screen we time (a peer of the mover, most of the time)
_cmd = msgspec.msgpack.Decoder(Command)
_enc = msgspec.msgpack.Encoder()


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(p * len(xs)))] * 1000, 3)


def game(table_id: str, players: int, seed: int):
    cfg = GameConfig(players=NAMES[:players], preset="first-game", seed=seed)
    g, _ = new_game(cfg)
    seats = [Seat(name, key=f"SHA256:bench-{i}") for i, name in enumerate(cfg.players)]
    return new_save(table_id, cfg, seats, g, created=utcnow())


async def connect(url: str, namespace: str, node: str) -> ClusterConnection:
    config = cluster_config(url, namespace=namespace, node_id=node, node_ttl_seconds=30.0, heartbeat_seconds=5.0)
    return await ClusterConnection.connect(config)


# -- the owner on another node (a child process) ------------------------------------------------------
def owner_process(url: str, namespace: str, players: int, ready: multiprocessing.Event) -> None:
    asyncio.run(_owner(url, namespace, players, ready))


async def _owner(url: str, namespace: str, players: int, ready) -> None:
    conn = await connect(url, namespace, "owner")
    lease = await LeaseManager(conn, await NodeRegistry(conn).start()).acquire("remote")
    assert lease is not None
    log = await TableLog.create(conn, game("remote", players, seed=7), lease)
    tokens = [seat_token(conn.subject_secret, "remote", s, f"SHA256:bench-{s}") for s in range(players)]
    outs = [conn.names.seat_updates("remote", t) for t in tokens]
    done = asyncio.Event()

    async def on_command(msg) -> None:
        if msg.data == b"stop":
            await msg.respond(b"bye")
            done.set()
            return
        cmd = _cmd.decode(msg.data)
        apply(log.state, cmd)
        await log.record(cmd)  # in the stream before anyone sees its effect
        await msg.respond(b"accepted")
        for seat, subject in enumerate(outs):
            await conn.nc.publish(subject, _enc.encode(view(log.state, seat)))

    for token in tokens:
        await conn.nc.subscribe(conn.names.seat_commands("remote", token), cb=on_command)
    await barrier(conn.nc)
    ready.set()
    await done.wait()
    await conn.close()


# -- this process: the sessions, and the same-node owner ----------------------------------------------
async def main(moves: int, players: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="citadels-bench-hop-"))
    nats = NatsServer(folder / "nats", die_with_parent=True).start()
    namespace = "bench"
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    owner = ctx.Process(target=owner_process, args=(nats.url, namespace, players, ready), daemon=True)
    try:
        conn = await connect(nats.url, namespace, "session")
        owner.start()
        while not ready.is_set():
            if not owner.is_alive():
                raise RuntimeError(f"the owner process exited ({owner.exitcode}) before it was ready")
            await asyncio.sleep(0.01)

        # Same node: the owner here.
        lease = await LeaseManager(conn, await NodeRegistry(conn).start()).acquire("local")
        local = await TableLog.create(conn, game("local", players, seed=7), lease)
        local_screen: asyncio.Queue[bytes] = asyncio.Queue()

        # Cross node: the observer's subscription, and a mirror of the game to choose commands.
        tokens = [seat_token(conn.subject_secret, "remote", s, f"SHA256:bench-{s}") for s in range(players)]
        remote_screen: asyncio.Queue[bytes] = asyncio.Queue()

        async def on_view(msg) -> None:
            remote_screen.put_nowait(msg.data)

        await conn.nc.subscribe(conn.names.seat_updates("remote", tokens[OBSERVER]), cb=on_view)
        await barrier(conn.nc)
        mirror = game("remote", players, seed=7).state
        bots = [RandomBot(s) for s in range(players)]
        same: list[float] = []
        cross: list[float] = []
        replies: list[float] = []

        for _ in range(moves):
            if mirror.phase == "over":
                break
            # same node
            cmd = bots[local.state.pending.seat].choose(legal_commands(local.state, local.state.pending.seat))
            t0 = time.perf_counter()
            apply(local.state, cmd)
            await local.record(cmd)
            for seat in range(players):
                encoded = _enc.encode(view(local.state, seat))
                if seat == OBSERVER:
                    local_screen.put_nowait(encoded)
            await local_screen.get()
            same.append(time.perf_counter() - t0)
            # cross node
            seat = mirror.pending.seat
            cmd = bots[seat].choose(legal_commands(mirror, seat))
            apply(mirror, cmd)
            t0 = time.perf_counter()
            reply = await conn.nc.request(conn.names.seat_commands("remote", tokens[seat]), _enc.encode(cmd), timeout=5)
            replies.append(time.perf_counter() - t0)
            assert reply.data == b"accepted"
            await asyncio.wait_for(remote_screen.get(), 5)
            cross.append(time.perf_counter() - t0)
        await conn.nc.request(conn.names.seat_commands("remote", tokens[0]), b"stop", timeout=5)
        parts = await bare_costs(conn, local, players)
        await conn.close()
    finally:
        owner.join(10)
        if owner.is_alive():
            owner.kill()
        nats.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "bench": "cluster_hop",
        "moves": len(same),
        "players": players,
        "same_node_command_to_view_p50_ms": pct(same, 0.5),
        "same_node_command_to_view_p95_ms": pct(same, 0.95),
        "cross_node_command_to_view_p50_ms": pct(cross, 0.5),
        "cross_node_command_to_view_p95_ms": pct(cross, 0.95),
        "hop_p50_ms": round((statistics.median(cross) - statistics.median(same)) * 1000, 3),
        "hop_p95_ms": round(pct(cross, 0.95) - pct(same, 0.95), 3),
        "cross_node_accepted_p50_ms": pct(replies, 0.5),
        **parts,
    }


async def bare_costs(conn: ClusterConnection, local: TableLog, players: int) -> dict:
    """The pieces apart: request/reply, publish to receive, a JetStream append, engine work."""
    nc = conn.nc
    other = await connect_like(conn)

    async def echo(msg) -> None:
        await msg.respond(b"ok")

    sub = await other.nc.subscribe("bench.echo", cb=echo)
    await barrier(other.nc)
    command = _enc.encode(legal_commands(local.state, local.state.pending.seat)[0])
    rtt = []
    for _ in range(300):
        t0 = time.perf_counter()
        await nc.request("bench.echo", command, timeout=5)
        rtt.append(time.perf_counter() - t0)
    await sub.unsubscribe()
    got: asyncio.Queue[float] = asyncio.Queue()

    async def arrived(msg) -> None:
        got.put_nowait(time.perf_counter())

    await other.nc.subscribe("bench.view", cb=arrived)
    await barrier(other.nc)
    payload = _enc.encode(view(local.state, 0))
    one_way = []
    for _ in range(300):
        t0 = time.perf_counter()
        await nc.publish("bench.view", payload)
        one_way.append(await asyncio.wait_for(got.get(), 5) - t0)
    appends = []
    for _ in range(300):
        t0 = time.perf_counter()
        await conn.js.publish(conn.names.log_subject("bench-append"), command)
        appends.append(time.perf_counter() - t0)
    # What a node would repeat per command if every node replayed the log (apply), against what
    # the owner does per seat to send views (view + encode).
    apply_cost, view_cost = [], []
    save = game("x", players, seed=11)
    bots = [RandomBot(s) for s in range(players)]
    state = save.state
    while state.phase != "over" and len(apply_cost) < 300:
        cmd = bots[state.pending.seat].choose(legal_commands(state, state.pending.seat))
        t0 = time.perf_counter()
        apply(state, cmd)
        apply_cost.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        _enc.encode(view(state, 0))
        view_cost.append(time.perf_counter() - t0)
    await other.close()
    return {
        "request_reply_p50_ms": pct(rtt, 0.5),
        "request_reply_p95_ms": pct(rtt, 0.95),
        "view_bytes": len(payload),
        "publish_to_receive_p50_ms": pct(one_way, 0.5),
        "publish_to_receive_p95_ms": pct(one_way, 0.95),
        "jetstream_append_p50_ms": pct(appends, 0.5),
        "jetstream_append_p95_ms": pct(appends, 0.95),
        "engine_apply_p50_ms": pct(apply_cost, 0.5),
        "view_encode_per_seat_p50_ms": pct(view_cost, 0.5),
    }


async def connect_like(conn: ClusterConnection) -> ClusterConnection:
    return await connect(conn.config.servers[0], conn.config.namespace, "other")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.moves, args.players))), flush=True)
