"""Tables that change owner while people play, with real node processes and a real nats-server:
the owner killed (SIGKILL) mid-game, a player reconnecting to another node, a second connection
with the same key on another node, and a node drained (SIGTERM) while its table is played."""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest

from engine.savefile import loads

from .harness import GameFollower, Player, loaded_table
from .helpers import wait_until
from .playing import play_to_end


def _finished_save(nodes, table_id):
    for node in nodes:
        path = node.folder / "saves" / "cluster" / "finished" / f"{table_id}.save"
        if path.exists():
            return loads(path.read_bytes())
    return None


@pytest.mark.slow  # a whole game on three node processes, its owner killed mid-game
async def test_owner_killed_mid_game_the_game_finishes_with_no_command_lost(cluster, tmp_path) -> None:
    ana, bob = Player("ana"), Player("bob")
    (n1, n2, n3), _conn, directory, listing, follower = await loaded_table(
        cluster, tmp_path, [ana, bob, None], ("n1", "n2", "n3")
    )
    await asyncio.gather(ana.connect(n2.port), bob.connect(n3.port))  # both on nodes that do not own it
    await ana.wait_for("Round 1")
    await bob.wait_for("Round 1")
    seats = {0: ana, 1: bob}
    rng = random.Random(11)
    await play_to_end(follower, seats, rng, stop_at=25)

    before = list(follower.commands)  # every command whose effect anyone may have seen
    killed = time.monotonic()
    n1.kill()
    await n1.wait()
    await play_to_end(follower, seats, rng, timeout=240)

    after_kill = [t for seq, t in follower.arrived.items() if seq > len(before)]
    failover = min(after_kill) - killed
    new_owner = directory.tables[listing.id].owner
    assert new_owner in ("n2", "n3"), new_owner
    assert "table taken over" in (n2.log if new_owner == "n2" else n3.log)
    print(f"failover: next move {failover:.3f} s after the kill")
    assert failover < 5.0, f"failover took {failover:.2f} s"
    await ana.wait_for("Final scores", timeout=20)
    await bob.wait_for("Final scores", timeout=20)
    final = None
    await wait_until(lambda: _finished_save([n2, n3], listing.id) is not None, what="the finished game's record")
    final = _finished_save([n2, n3], listing.id)
    assert final.log[: len(before)] == before, "a command logged before the kill is missing"
    assert final.log == follower.commands
    ana.close()
    bob.close()


@pytest.mark.slow  # part of a game on node processes, seats moving between nodes
async def test_a_reconnection_on_another_node_takes_the_seat_back(cluster, tmp_path) -> None:
    ana, bob = Player("ana"), Player("bob")
    (n1, n2), _conn, _directory, listing, follower = await loaded_table(cluster, tmp_path, [ana, bob, None])
    await asyncio.gather(ana.connect(n1.port), bob.connect(n2.port))
    await ana.wait_for("Round 1")
    await bob.wait_for("Round 1")
    seats = {0: ana, 1: bob}
    rng = random.Random(5)
    await play_to_end(follower, seats, rng, stop_at=12)

    # ana's connection drops; she comes back through another node: her seat, her hand
    ana.close()
    await asyncio.sleep(0.3)
    await ana.connect(n2.port)
    await ana.wait_for("Round")
    hand = follower.state.players[0].hand
    if hand:
        await ana.wait_for(hand[0])
    await play_to_end(follower, seats, rng, stop_at=follower.seq + 12)

    # a second connection with bob's key, on the other node, takes his seat over
    first = bob
    second = Player("bob")
    second.key, second.fingerprint = bob.key, bob.fingerprint
    first.mark()
    await second.connect(n1.port)
    await second.wait_for("Round")
    await first.wait_for("taken over by a new connection")
    seats[1] = second
    await play_to_end(follower, seats, rng, stop_at=follower.seq + 12)
    assert follower.state.phase in ("over", "selection", "turns") and follower.seq >= 36
    ana.close()
    first.close()
    second.close()


@pytest.mark.slow  # part of a game on three node processes, one drained
async def test_a_drained_node_hands_its_table_over_without_a_lapse(cluster, tmp_path) -> None:
    ana, bob = Player("ana"), Player("bob")
    (n1, n2, n3), _conn, directory, listing, follower = await loaded_table(
        cluster, tmp_path, [ana, bob, None], ("n1", "n2", "n3"), cluster={"drain_grace_seconds": 60.0}
    )
    await asyncio.gather(ana.connect(n1.port), bob.connect(n2.port))  # ana on the node to drain
    await ana.wait_for("Round 1")
    await bob.wait_for("Round 1")
    seats = {0: ana, 1: bob}
    rng = random.Random(8)
    await play_to_end(follower, seats, rng, stop_at=15)

    # keep playing while node 1 drains (SIGTERM): its table goes to another node at once
    playing = asyncio.ensure_future(play_to_end(follower, seats, rng, stop_at=follower.seq + 30))
    await asyncio.sleep(0.5)
    start = len(follower.commands)
    drained = time.monotonic()
    n1.terminate()
    await wait_until(lambda: directory.tables[listing.id].owner != "n1", timeout=10, what="a new owner")
    moved = time.monotonic() - drained
    await playing
    gaps = _gaps(follower, start)
    print(f"hand-over: new owner after {moved:.3f} s, longest gap {max(gaps):.3f} s")
    assert moved < 2.0, f"the hand-over took {moved:.2f} s"
    assert max(gaps) < 5.0, f"a pause of {max(gaps):.2f} s during the hand-over"
    assert "lease released" in n1.log and "table dropped" in n1.log
    # ana, still on the draining node, played on (her table is remote to it now)
    assert n1.proc.returncode is None
    assert any(s == 0 for s in _movers(follower, start))
    # and it takes no new connection (a balancer's check fails: new players go to other nodes)
    with pytest.raises(OSError):
        await Player("cy").connect(n1.port)
    n1.kill()
    ana.close()
    bob.close()


def _gaps(follower: GameFollower, since: int) -> list[float]:
    times = [t for seq, t in sorted(follower.arrived.items()) if seq >= since]
    return [b - a for a, b in zip(times, times[1:])] or [0.0]


def _movers(follower: GameFollower, since: int) -> list[int]:
    return [c.seat for c in follower.commands[since:]]


@pytest.mark.slow  # a node process killed and started again under its id
async def test_a_node_started_again_under_its_id_never_reuses_a_session_id(cluster, tmp_path) -> None:
    """A guest's seat key is "guest:<session id>": a node (a worker) restarted under its id must not
    hand a new guest the id of a guest of its previous run, whose seat may still be listed."""
    first = await cluster.node("n1")
    ana = Player("ana")
    await ana.connect(first.port)
    await ana.wait_for("New table")
    first.kill()
    await first.wait()
    again = await cluster.node("n1")
    bob = Player("bob")
    await bob.connect(again.port)
    await bob.wait_for("New table")
    await wait_until(lambda: again.log.count("session started") >= 2, what="both runs' sessions in the log")
    ids = re.findall(r"session started session=(\S+)", again.log)
    assert len(ids) == 2 and ids[0] != ids[1], ids
    assert all(i.startswith("n1.") and i.endswith(".s1") for i in ids), ids  # each run's first session
    bob.close()
