"""Players who last on a cluster (real node processes, a real nats-server, one players database shared by
the nodes: a SQLite file here, PostgreSQL in production): a session logs into its key's player on any
node, a name claimed on one node is refused on the other, a key code shown on node 1 is typed on node 2,
and the second key takes the first key's seat (the first key's session there is displaced).

Also: after a failover, the new owner does not announce "X is back" for players who never left."""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest

from server.players.store import PlayerStore
from server.players.url import make_engine

from .harness import ESC, Player, loaded_table
from .helpers import wait_until
from .playing import play_to_end

CODE = re.compile(r"Code: ([A-Z0-9]{4}-[A-Z0-9]{4})")


async def choose(player: Player, label: str, timeout: float = 15.0, enter: bool = False) -> None:
    """Press the number of the menu entry `label` as the player's screen shows it now."""
    pattern = re.compile(r"(\d) " + re.escape(label))
    deadline = time.monotonic() + timeout
    while not pattern.findall(player.text()):
        assert time.monotonic() < deadline, f"{player.name}: no entry {label!r}; last: {player.text()[-800:]!r}"
        await asyncio.sleep(0.05)
    await player.quiet(0.15)
    digit = pattern.findall(player.text())[-1]
    player.mark()
    player.send(digit + ("\r" if enter else ""))


async def type_line(player: Player, text: str) -> None:
    await asyncio.sleep(0.3)  # the text field opened
    player.send(text)
    await asyncio.sleep(0.2)
    player.send(b"\r")


def _shared(tmp_path) -> tuple[str, dict]:
    database = f"sqlite:///{tmp_path / 'players.sqlite3'}"
    return database, {"settings": {"accounts": True, "database": database}}


@pytest.mark.slow  # end to end on node processes sharing a players database
async def test_a_key_code_shown_on_one_node_brings_a_second_key_to_the_seat_on_another(cluster, tmp_path) -> None:
    database, shared = _shared(tmp_path)
    ana, bob = Player("ana"), Player("bob")
    (n1, n2), _conn, _directory, listing, follower = await loaded_table(cluster, tmp_path, [ana, bob, None], **shared)
    await asyncio.gather(ana.connect(n1.port), bob.connect(n2.port))
    await ana.wait_for("Round 1")
    await bob.wait_for("Round 1")
    seats = {0: ana, 1: bob}
    rng = random.Random(21)
    await play_to_end(follower, seats, rng, stop_at=6)

    # bob (node 2) opens the profile of ana, who plays on node 1 (node 2 never saw her key)
    bob.mark()
    bob.send(b"\x11")  # Ctrl+Q: the table menu
    await choose(bob, "Profile of ana", enter=True)
    await bob.wait_for(" · profile")  # hers (unclaimed: "player #N"), not his own ("your profile")
    bob.send(ESC)
    await asyncio.sleep(0.5)
    if "Table menu" in bob.text():
        bob.send(ESC)
    await bob.quiet(0.3)

    # a name claimed on node 1 is refused on node 2 (which never saw it claimed: the database decides)
    cy, dee = Player("cy"), Player("dee")
    await asyncio.gather(cy.connect(n1.port), dee.connect(n2.port))
    await cy.wait_for("My name and keys")
    await choose(cy, "Change your name")
    await type_line(cy, "Cyrus")
    await cy.wait_for("The name Cyrus is yours.")
    await choose(dee, "Change your name")
    await type_line(dee, "cyrus")
    await dee.wait_for("is taken")
    await choose(dee, "My profile")  # the profile screen, from the shared database
    await dee.wait_for("your profile")
    await choose(cy, "Leaderboard")
    await cy.wait_for("Leaderboard")
    # someone connecting to node 2 as "Cyrus" is shown with a piece of their key, as on a single server
    other = Player("Cyrus")
    await other.connect(n2.port)
    tag = "".join(ch for ch in other.fingerprint.split(":", 1)[1] if ch.isalnum())[:4]
    await other.wait_for(f"Cyrus-{tag}")

    # ana (node 1) goes to the lobby: her account, and a code for another key
    await play_to_end(follower, seats, rng, stop_at=follower.seq + 1)
    ana.mark()
    ana.send(b"\x11")  # Ctrl+Q: the table menu
    await choose(ana, "Go to the lobby", enter=True)
    await choose(ana, "My name and keys")
    await ana.wait_for("Your account")
    await choose(ana, "Add another key")
    await ana.wait_for("Code: ")
    await asyncio.sleep(0.3)
    code = CODE.search(ana.text()).group(1)
    # ... and back to her game, on node 1
    ana.send(ESC)
    await choose(ana, "Return to your game")
    await ana.wait_for("Round")

    # ana's second key connects to node 2: a new player until it types the code shown on node 1
    laptop = Player("ana-laptop")
    await laptop.connect(n2.port)
    await laptop.wait_for("My name and keys")
    store = PlayerStore(make_engine(database))
    try:
        pid = store.player_for_key(ana.fingerprint).id
        await choose(laptop, "My name and keys")
        await laptop.wait_for("Your account")
        ana.mark()
        await choose(laptop, "I have a code")
        await type_line(laptop, code.lower())
        # the second key is taken to her seat (her hand is on its screen); her first key's session is displaced
        await laptop.wait_for("Round", timeout=20)
        hand = follower.state.players[0].hand
        if hand:
            await laptop.wait_for(hand[0])
        await ana.wait_for("taken over by a new connection")
        assert {k.fingerprint for k in store.keys_of(pid)} == {ana.fingerprint, laptop.fingerprint}
    finally:
        store.close()
    # the second key plays the seat on node 1's table
    seats[0] = laptop
    start = follower.seq
    await play_to_end(follower, seats, rng, stop_at=follower.seq + 10)
    assert any(c.seat == 0 for c in follower.commands[start:])

    # from node 2, the second key removes the first: the first key's session on node 1 is closed
    ana.mark()
    laptop.mark()
    laptop.send(b"\x11")
    await choose(laptop, "Go to the lobby", enter=True)
    await choose(laptop, "My name and keys")
    await laptop.wait_for("Your account")
    short = ana.fingerprint[:24]
    await choose(laptop, f"Key {short}")
    await laptop.wait_for("Press Enter again")
    await choose(laptop, f"Key {short}")
    await laptop.wait_for("Key removed.")
    await ana.wait_for("This key was removed from its account")
    for p in (ana, bob, laptop, cy, dee, other):
        p.close()


@pytest.mark.slow  # a game on three node processes, its owner killed
async def test_after_a_failover_nobody_who_stayed_is_announced_back(cluster, tmp_path) -> None:
    _database, shared = _shared(tmp_path)
    ana, bob = Player("ana"), Player("bob")
    (n1, n2, n3), _conn, directory, listing, follower = await loaded_table(
        cluster, tmp_path, [ana, bob, None], ("n1", "n2", "n3"), **shared
    )
    await asyncio.gather(ana.connect(n2.port), bob.connect(n3.port))  # both on nodes that do not own it
    await ana.wait_for("Round 1")
    await bob.wait_for("Round 1")
    seats = {0: ana, 1: bob}
    rng = random.Random(4)
    await play_to_end(follower, seats, rng, stop_at=8)
    ana.mark()
    bob.mark()
    n1.kill()
    await n1.wait()
    await wait_until(lambda: directory.tables[listing.id].owner in ("n2", "n3"), timeout=10, what="a new owner")
    await play_to_end(follower, seats, rng, stop_at=follower.seq + 6)
    await asyncio.sleep(0.5)
    for p in (ana, bob):
        assert "is back" not in p.text(), f"{p.name}'s screen: {p.text()[-1500:]!r}"

    # a seat that really was away is still announced when its player returns
    ana.close()
    await asyncio.sleep(0.5)
    bob.mark()
    await ana.connect(n3.port)
    await ana.wait_for("Round")
    await bob.wait_for("ana is back")
    ana.close()
    bob.close()
