"""One lobby across the cluster (real node processes): a private table's code works on every node, a
spectator on another node watches its game, and the table cap holds for the whole cluster."""

from __future__ import annotations

import asyncio

import pytest

from server.cluster.directory import TableDirectory
from ui.i18n import _load

from .harness import DOWN, GameFollower, Player
from .helpers import wait_until

END, UP, LEFT, RIGHT = b"\x1b[F", b"\x1b[A", b"\x1b[D", b"\x1b[C"


async def _create(player: Player, players: int, bots: int, private: bool = False) -> None:
    """From the lobby's main page (no table listed yet): New table, players, bots, private, Create."""
    player.mark()
    player.send(b"1")
    await player.wait_for("Players")
    keys = DOWN + LEFT * (4 - players) + DOWN * 3 + RIGHT * bots
    if private:
        keys += DOWN * 3 + RIGHT
    player.send(keys)
    await asyncio.sleep(0.3)
    player.mark()
    player.send(END + UP + b"\r")


@pytest.mark.slow  # end to end: node processes
async def test_a_private_tables_code_and_its_spectators_work_across_nodes(cluster) -> None:
    n1, n2 = await asyncio.gather(cluster.node("n1"), cluster.node("n2"))
    conn = await cluster.conn()
    directory = await TableDirectory(conn).start()
    ana, bob, cara = Player("ana"), Player("bob"), Player("cara")
    await asyncio.gather(ana.connect(n1.port), bob.connect(n2.port), cara.connect(n2.port))
    for p in (ana, bob, cara):
        await p.wait_for("New table")

    await _create(ana, players=3, bots=1, private=True)
    await ana.wait_for("its code is")
    await wait_until(lambda: len(directory.tables) == 1, what="the listing")
    (listing,) = directory.tables.values()
    assert listing.private and listing.code and listing.owner == "n1"
    await asyncio.sleep(0.5)
    assert "ana's table" not in bob.text(False), "a private table is listed to others"

    # bob, on node 2, joins with the code
    bob.mark()
    bob.send(b"2")  # Join with a code…
    await bob.wait_for("code")
    bob.send(listing.code.encode() + b"\r")
    await bob.wait_for("bob (you)")
    await ana.wait_for("Start the game")
    ana.mark()
    ana.send(b"1")
    await bob.wait_for("Round 1")

    # cara, on node 2 too, watches it with the code: the public view, no hand
    cara.mark()
    cara.send(b"2")
    await cara.wait_for("code")
    cara.send(listing.code.encode() + b"\r")
    await cara.wait_for("Round 1")
    await wait_until(lambda: directory.tables[listing.id].spectators == 1, what="one spectator listed")
    follower = await GameFollower.start(conn, listing.id)
    await cara.quiet(0.3)
    vocabulary = "\n".join(v if isinstance(v, str) else "\n".join(v) for v in _load("en").values())  # plurals
    hands = {c for p in follower.state.players for c in p.hand if c not in vocabulary}
    assert hands and not [c for c in hands if c in cara.text(False)], "a spectator was shown a hand"
    assert any(c in bob.text(False) for c in follower.state.players[1].hand)  # the control: bob sees his
    await ana.wait_for("1 watching", timeout=10)

    # a wrong code is refused, on any node
    dan = Player("dan")
    await dan.connect(n2.port)
    await dan.wait_for("New table")
    dan.mark()
    dan.send(b"2")
    await dan.wait_for("code")
    dan.send(b"ZZZZZ\r")
    await dan.wait_for("No table has this code")
    for p in (ana, bob, cara, dan):
        p.close()
    await directory.stop()


@pytest.mark.slow  # end to end: two node processes (the fast tier keeps the cluster's parts in process)
async def test_the_table_and_session_caps_hold_for_the_whole_cluster(cluster) -> None:
    capped = {"max_tables": 1, "max_sessions": 2}
    n1, n2 = await asyncio.gather(cluster.node("n1", settings=capped), cluster.node("n2", settings=capped))
    ana, bob = Player("ana"), Player("bob")
    await asyncio.gather(ana.connect(n1.port), bob.connect(n2.port))
    await ana.wait_for("New table")
    await bob.wait_for("New table")
    await _create(ana, players=3, bots=1)
    await ana.wait_for("1 seat open")
    await bob.wait_for("ana's table")
    bob.mark()
    bob.send(b"2")  # New table… (after ana's table's row)
    await bob.wait_for("Players")
    await asyncio.sleep(0.2)
    bob.mark()
    bob.send(END + UP + b"\r")
    await bob.wait_for("at most 1 tables")
    # one session on each node: the cluster holds 2, a third is refused on either node
    await asyncio.sleep(0.6)  # a heartbeat (0.25 s in tests) carries each node's count to the other
    cy = Player("cy")
    await cy.connect(n1.port)
    await cy.wait_for("The server is full (2 sessions)")
    assert "max_sessions" in n1.log
    cy.close()
    ana.close()
    bob.close()
