"""A cluster on loopback, measured: nats-server and 3 `citadels serve --cluster` node processes, players
on different nodes at the same tables, printed as ONE JSON line.

    python benchmarks/cluster.py [--tables 3] [--moves 40] [--after 15]

Each node owns one table (loaded there with `--load`), of 3 people: two connected to the
owner's node, one to the next node (asyncssh PTY clients with their own keys, the real UI).
A player presses the keys that choose a command on the screen (computed from the seat's view,
which the benchmark reads from the cluster's log: it is omniscient, the nodes are not), once
every screen of its table has been quiet for 0.1 s, after a think time.

- key-to-screen: from a mover's key press to the first bytes of the change at each other
  player's terminal. "same node": the mover and the peer on the owner's node (no NATS between
  them); "cross node": the mover on the owner's node, the peer on another node (the owner
  sends the peer's view over NATS); "remote mover": the mover on another node than the owner
  (its command crosses NATS), any peer.
- CPU per move: each node's CPU (/proc) over the measured window, per move made in it (all
  tables: a node runs its own table and sessions of another's).
- failover: then the owner of the first table is killed (SIGKILL) when its remote player is to
  move; that player presses at once (its node sends the command again until the table has an
  owner). Failover is from the kill to that move applied. The players who were on the dead node
  reconnect to the next live node (as a balancer would send them) and find their seats; every
  table plays `--after` more moves.
- commands lost: for every table, the commands its log held before the kill that its final log
  does not hold in the same place (must be 0).
- sessions per node: what each node reports in its heartbeat, before and after the kill.

Default lease timings (lease 3 s, renewed every 1 s): a lapse is heard 2-3.3 s after the last
renewal. Everything runs on this machine (2 cores, shared): compare the figures of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.cluster.config import cluster_config
from server.cluster.connection import ClusterConnection
from server.cluster.directory import TableDirectory
from server.cluster.natsd import NatsServer
from server.cluster.table_log import TableLog
from server.transport.hostkey import load_or_create_host_key
from tests.cluster.harness import ESC, GameFollower, NodeProcess, Player, saved_game, write_save

DEFAULT_TIMINGS = dict(
    lease_margin_seconds=0.5,
    heartbeat_seconds=1.0,
    node_ttl_seconds=3.0,
    drain_grace_seconds=5.0,
)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(p * len(xs)))] * 1000, 2)


class Table:
    def __init__(self, index: int, owner: NodeProcess, players: list[Player], where: list[NodeProcess]) -> None:
        self.index = index
        self.owner = owner
        self.players = players  # by seat
        self.where = where  # the node each seat's player is connected to
        self.follower: GameFollower | None = None
        self.listing_id = ""
        self.rng = random.Random(100 + index)
        self.before_kill: list = []


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="t21-cluster-bench-"))
        self.samples: dict[str, list[float]] = {"same_node": [], "cross_node": [], "remote_mover": []}
        self.moves = 0
        self.measuring = True
        self.live: list[NodeProcess] = []

    async def run(self) -> dict:
        nats = NatsServer(self.tmp / "nats", die_with_parent=True).start()
        namespace = "bench"
        keys = self.tmp / "keys"
        load_or_create_host_key(str(keys))
        n = self.args.tables
        people = [[Player(f"p{t}s{s}") for s in range(3)] for t in range(n)]
        for players in people:
            for p in players:
                p.arrivals = []
        saves = [write_save(self.tmp / f"table{t}.save", saved_game(f"b{t}", people[t], seed=t + 1)) for t in range(n)]
        nodes = await asyncio.gather(
            *(
                NodeProcess.start(
                    nats.url,
                    namespace,
                    f"n{i + 1}",
                    self.tmp / f"n{i + 1}",
                    keys,
                    cluster=DEFAULT_TIMINGS,
                    # every player connects from 127.0.0.1: the cluster-wide cap per address (5) would refuse the 6th
                    settings={"bot_delay_seconds": 0.3, "max_sessions_per_address": 1000},
                    load=[saves[i]],
                )
                for i in range(n)
            )
        )
        self.live = list(nodes)
        config = cluster_config(nats.url, namespace=namespace, node_id="bench", **DEFAULT_TIMINGS)
        conn = await ClusterConnection.connect(config)
        directory = await TableDirectory(conn).start()
        while len(directory.tables) < n:
            await asyncio.sleep(0.05)
        tables = []
        for t in range(n):
            owner = nodes[t]
            other = nodes[(t + 1) % n]
            table = Table(t, owner, people[t], [owner, owner, other])
            table.listing_id = next(x.id for x in directory.tables.values() if x.owner == owner.node_id)
            table.follower = await GameFollower.start(conn, table.listing_id)
            tables.append(table)
        await asyncio.gather(*(p.connect(tb.where[s].port) for tb in tables for s, p in enumerate(tb.players)))
        for tb in tables:
            for p in tb.players:
                await p.wait_for("Round", timeout=30)
        sessions_before = await self.sessions(conn)

        # -- the measured window ------------------------------------------------------------------------
        cpu0 = {node.node_id: cpu_seconds(node.pid) for node in nodes}
        t0 = time.monotonic()
        await asyncio.gather(*(self.play(tb, self.args.moves) for tb in tables))
        window = time.monotonic() - t0
        cpu = {node.node_id: cpu_seconds(node.pid) - cpu0[node.node_id] for node in nodes}
        moves_in_window = self.moves
        self.measuring = False

        # -- failover: kill the first table's owner when its remote player is to move ------------------
        victim = tables[0]
        assert victim.follower is not None
        await self.play(victim, 200, until=lambda: victim.follower.state.pending.seat == 2)
        for tb in tables:
            tb.before_kill = list(tb.follower.commands)
        dead = victim.owner
        seq = victim.follower.seq
        mover = victim.players[2]
        await mover.output_since(victim.follower.arrived.get(seq, 0.0), timeout=5.0)
        await mover.quiet(0.2)
        keys_, _ = victim.follower.keys_for(2, victim.rng, numbers=mover.numbers)
        killed = time.monotonic()
        dead.kill()
        await dead.wait()
        mover.send(keys_)  # at once: its node sends the command again until the table has an owner
        self.live = [x for x in nodes if x is not dead]
        await victim.follower.wait(lambda: victim.follower.seq > seq, timeout=30, what="the move after the kill")
        failover = victim.follower.arrived[seq + 1] - killed
        new_owner = directory.tables[victim.listing_id].owner
        await asyncio.gather(*(self.play(tb, self.args.after) for tb in tables))
        sessions_after = await self.sessions(conn)

        lost = 0
        for tb in tables:
            final = await TableLog.read(conn, tb.listing_id)
            kept = final.log[: len(tb.before_kill)]
            lost += sum(1 for a, b in zip(tb.before_kill, kept) if a != b) + max(0, len(tb.before_kill) - len(kept))
        for tb in tables:
            for p in tb.players:
                p.close()
        await directory.stop()
        await conn.close()
        for node in nodes:
            node.terminate()
        for node in nodes:
            await node.wait(15)
        nats.stop()
        s = self.samples
        return {
            "bench": "cluster",
            "nodes": n,
            "tables": n,
            "players_per_table": 3,
            "moves_measured": moves_in_window,
            "window_s": round(window, 1),
            "same_node_key_to_screen_p50_ms": pct(s["same_node"], 0.5),
            "same_node_key_to_screen_p95_ms": pct(s["same_node"], 0.95),
            "cross_node_key_to_screen_p50_ms": pct(s["cross_node"], 0.5),
            "cross_node_key_to_screen_p95_ms": pct(s["cross_node"], 0.95),
            "remote_mover_key_to_screen_p50_ms": pct(s["remote_mover"], 0.5),
            "remote_mover_key_to_screen_p95_ms": pct(s["remote_mover"], 0.95),
            "samples": {k: len(v) for k, v in s.items()},
            "failover_s": round(failover, 3),
            "failover_new_owner": new_owner,
            "commands_lost": lost,
            "sessions_per_node_before": sessions_before,
            "sessions_per_node_after": sessions_after,
            "cpu_per_move_ms": {k: round(v * 1000 / max(1, moves_in_window), 2) for k, v in cpu.items()},
            "cpus": os.cpu_count(),
            "node_ttl_s": DEFAULT_TIMINGS["node_ttl_seconds"],
        }

    async def sessions(self, conn: ClusterConnection) -> dict[str, int]:
        from server.cluster.records import NodeRecord, decoder

        kv = conn.bucket("nodes")
        out: dict[str, int] = {}
        await asyncio.sleep(1.2)  # a heartbeat with the current counts
        for node in self.live:
            try:
                entry = await kv.get(node.node_id)
                out[node.node_id] = decoder(NodeRecord).decode(entry.value).sessions
            except Exception:
                out[node.node_id] = -1
        return out

    async def play(self, tb: Table, moves: int, until: Any = None) -> None:
        f = tb.follower
        assert f is not None
        target = f.seq + moves
        while f.seq < target and f.state.phase != "over" and not (until is not None and until()):
            seat = f.state.pending.seat
            seq = f.seq
            if not 0 <= seat < 3:
                await f.wait(lambda s=seq: f.seq != s, timeout=30, what="a move")
                continue
            mover = tb.players[seat]
            await self.ensure_connected(tb, seat)
            await mover.output_since(f.arrived.get(seq, 0.0), timeout=5.0)
            for p in tb.players:
                await p.quiet(0.1)
            if f.seq != seq:
                continue
            await asyncio.sleep(tb.rng.uniform(0.05, 0.3))
            keys, _cmd = f.keys_for(seat, tb.rng, numbers=mover.numbers)
            pressed = time.monotonic()
            mover.send(keys)
            try:
                await f.wait(lambda s=seq: f.seq != s, timeout=10, what="the move")
            except AssertionError:
                mover.send(ESC)
                await asyncio.sleep(0.3)
                continue
            if self.measuring:
                self.moves += 1
                await self.time_peers(tb, seat, pressed)

    async def time_peers(self, tb: Table, seat: int, pressed: float) -> None:
        owner_node = tb.owner
        for s, peer in enumerate(tb.players):
            if s == seat:
                continue
            seen = await peer.first_output_after(pressed, timeout=3.0)
            if seen is None:
                continue
            if tb.where[seat] is not owner_node:
                kind = "remote_mover"
            elif tb.where[s] is owner_node:
                kind = "same_node"
            else:
                kind = "cross_node"
            self.samples[kind].append(seen - pressed)

    async def ensure_connected(self, tb: Table, seat: int) -> None:
        p = tb.players[seat]
        if p.connected:
            return
        node = self.live[seat % len(self.live)]  # as a balancer would send them: any live node
        tb.where[seat] = node
        await p.connect(node.port)
        await p.wait_for("Round", timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=3, help="nodes and tables (one table owned by each node)")
    ap.add_argument("--moves", type=int, default=40, help="moves per table in the measured window")
    ap.add_argument("--after", type=int, default=15, help="moves per table after the kill")
    args = ap.parse_args()
    bench = Bench(args)
    try:
        result = asyncio.run(bench.run())
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)
    result["stdev_note"] = "one run on a shared 2-core machine; same-node and cross-node samples interleaved"
    print(json.dumps(result))


if __name__ == "__main__":
    main()
