"""Two players on two cluster nodes (real `citadels serve --cluster` processes and a real nats-server)
at one table: the lobby, the game, its end, as the players' screens show them."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.cluster.directory import TableDirectory
from server.players.store import PlayerStore
from server.players.url import make_engine

from .harness import DOWN, GameFollower, Player
from .helpers import wait_until
from .playing import play_to_end

END, UP, LEFT, RIGHT = b"\x1b[F", b"\x1b[A", b"\x1b[D", b"\x1b[C"


@pytest.mark.slow  # a whole game on two node processes (lobby to the end)
async def test_two_players_on_two_nodes_play_a_table_to_the_end(cluster, tmp_path) -> None:
    # both nodes share one players database (SQLite here; PostgreSQL in production): the finished game
    # is recorded there by the table's owner, with both players found by their keys
    database = f"sqlite:///{tmp_path / 'players.sqlite3'}"
    shared = {"accounts": True, "database": database}
    n1, n2 = await asyncio.gather(cluster.node("n1", settings=shared), cluster.node("n2", settings=shared))
    conn = await cluster.conn()
    directory = await TableDirectory(conn).start()
    ana, bob = Player("ana"), Player("bob")
    await asyncio.gather(ana.connect(n1.port), bob.connect(n2.port))
    await ana.wait_for("New table")
    await bob.wait_for("New table")

    # ana (node 1) creates a table of 3 with one bot: it is node 1's
    ana.send(b"1")
    await ana.wait_for("Players")
    ana.send(DOWN + LEFT + DOWN * 3 + RIGHT)
    await asyncio.sleep(0.2)
    ana.mark()
    ana.send(END + UP + b"\r")
    await ana.wait_for("1 seat open")
    await wait_until(lambda: len(directory.tables) == 1, what="the table listed in the cluster")
    (listing,) = directory.tables.values()
    assert listing.owner == "n1" and listing.state == "waiting"

    # bob (node 2) sees it in his lobby, takes the seat; ana's room shows him
    await bob.wait_for("ana's table")
    bob.mark()
    bob.send(b"1")
    await bob.wait_for("Take a seat")
    bob.send(b"1")
    await bob.wait_for("bob (you)")
    await ana.wait_for("Start the game")
    assert "bob" in ana.text()

    # ana starts: both screens show the game
    ana.mark()
    bob.mark()
    ana.send(b"1")
    await ana.wait_for("Round 1")
    await bob.wait_for("Round 1")
    follower = await GameFollower.start(conn, listing.id)
    seats = {0: ana, 1: bob}
    assert [s.key for s in follower.save.seats[:2]] == [ana.fingerprint, bob.fingerprint]

    presses = await play_to_end(follower, seats, random.Random(3), timeout=240)
    assert presses > 10
    await ana.wait_for("Final scores", timeout=20)
    await bob.wait_for("Final scores", timeout=20)
    # node 1 ran it from the start to the end; its record is kept there
    assert "taken over" not in n1.log + n2.log
    await wait_until(lambda: (n1.folder / "saves" / "cluster" / "finished" / f"{listing.id}.save").exists())
    store = PlayerStore(make_engine(database))
    try:
        await wait_until(lambda: len(store.games()) == 1, timeout=20, what="the game in the players database")
        (game,) = store.games()
        ana_id, bob_id = store.player_for_key(ana.fingerprint).id, store.player_for_key(bob.fingerprint).id
        assert {s.player_id for s in game.seats if s.seat < 2} == {ana_id, bob_id}
        assert store.games(bob_id) and store.games(ana_id)
    finally:
        store.close()

    # play again with the same seats, asked first from node 2: the new table is the old one's owner's
    await bob.wait_for("Play again")
    bob.mark()
    bob.send(b"1")
    await bob.wait_for("Start the game", timeout=15)  # bob asked first: he opens it
    await wait_until(lambda: len(directory.tables) >= 1 and any(x.id != listing.id for x in directory.tables.values()))
    again = next(x for x in directory.tables.values() if x.id != listing.id)
    assert again.owner == "n1" and again.creator == bob.fingerprint
    await ana.wait_for("Play again")
    ana.mark()
    ana.send(b"1")
    await ana.wait_for("ana (you)", timeout=15)
    await bob.wait_for("Remove ana", timeout=15)  # bob's screen has her seated: "1" starts the full table
    bob.mark()
    ana.mark()
    bob.send(b"1")  # Start the game
    await bob.wait_for("Round 1")
    await ana.wait_for("Round 1")
    await directory.stop()
    ana.close()
    bob.close()
