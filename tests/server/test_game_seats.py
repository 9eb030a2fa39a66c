"""Seats over real SSH: reconnecting with the same key, another key refused, spectators, slow clients."""

from __future__ import annotations

import asyncio
import random
import time

import asyncssh
import pytest
from game_helpers import (
    HandWatch,
    Screen,
    app_keys,
    create_table,
    drain,
    play_to_end,
    prompt_ready,
    start_game_server,
    wait_until,
)

from server.lobby.lobby import LobbyError
from ui.i18n import Catalogue

SMALL_WINDOW = {"window": 16384, "max_pktsize": 8192}


@pytest.fixture
async def gs(tmp_path):
    server = await start_game_server(tmp_path)
    yield server
    await server.close()


async def two_player_game(
    gs, open_terminal, key_a, key_b, bots: int = 1, b_options: dict | None = None, b_size=(100, 30)
):
    """alice creates a table (3 seats, `bots` bots), bob joins, alice starts: (table, alice, bob)."""
    a = Screen(await open_terminal(gs.server, username="alice", key=key_a, size=(120, 40)))
    b = Screen(await open_terminal(gs.server, username="bob", key=key_b, size=b_size, **(b_options or {})))
    await a.wait_for("Citadels · lobby")
    await b.wait_for("Citadels · lobby")
    await create_table(a, players=2 + bots, bots=bots)
    await b.wait_for("alice's table", timeout=5)
    b.mark()
    b.send(b"1")
    await b.wait_for("Take a seat")
    b.send(b"1")
    await b.wait_for("Waiting for the creator")
    await a.wait_for("Start the game")
    a.send(b"1")
    table = gs.table()
    await wait_until(lambda: table.phase == "playing", what="game start")
    return table, a, b


async def test_reconnect_same_key_gets_same_seat_and_screen(gs, open_terminal):
    key_a, key_b = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    fa, fb = key_a.get_fingerprint("sha256"), key_b.get_fingerprint("sha256")
    table, a, b = await two_player_game(gs, open_terminal, key_a, key_b)
    seat_a, seat_b = table.seat_of(fa), table.seat_of(fb)
    players = {seat_a: (fa, a), seat_b: (fb, b)}
    cat = Catalogue("en")
    rng = random.Random(2)
    # play until it is alice's turn proper (a turn, not the character selection), then drop her
    reader = asyncio.ensure_future(drain([a, b]))
    try:
        deadline = time.monotonic() + 60
        while not (table.state.phase == "turns" and table.state.pending.seat == seat_a):
            assert time.monotonic() < deadline
            seat = table.state.pending.seat
            if seat in players and prompt_ready(gs.app_of(players[seat][0]), table.state.seq):
                seq = table.state.seq
                players[seat][1].send(app_keys(gs.app_of(players[seat][0]), cat, rng))
                await wait_until(lambda: table.state.seq != seq, what="a move")
            else:
                await asyncio.sleep(0.02)
        await wait_until(lambda: prompt_ready(gs.app_of(fa), table.state.seq), what="alice's prompt")
    finally:
        reader.cancel()
    seq = table.state.seq
    hand = list(table.state.players[seat_a].hand)
    a.term.close()
    await wait_until(lambda: table.seats[seat_a].client is None, what="alice's seat freed")
    assert table.seats[seat_a].away_since is not None and table.seats[seat_a].key == fa
    # the game waits for her (idle wait 60 s): nobody moved in her place
    await asyncio.sleep(0.3)
    assert table.state.seq == seq
    # back with the same key: straight to the same seat and screen, no lobby in between
    a2 = Screen(await open_terminal(gs.server, username="alice", key=key_a, size=(120, 40)))
    text = await a2.wait_for("Your hand", timeout=10)
    assert "Citadels · lobby" not in text
    await wait_until(lambda: prompt_ready(gs.app_of(fa), seq), what="alice's prompt after reconnecting")
    app = gs.app_of(fa)
    assert app.view.seat == seat_a and table.seats[seat_a].client is gs.session(fa)
    quiet = 0  # read until the output has been quiet a moment: a whole screen comes in several reads
    while quiet < 3:
        n = len(a2.raw)
        await a2.pump(0.1)
        quiet = quiet + 1 if len(a2.raw) == n else 0
    shown = a2.text(False)
    assert all(cat.district(c) in shown for c in hand[:3]), "her hand is back on her screen"
    # and she plays on
    a2.send(app_keys(app, cat, rng))
    await wait_until(lambda: table.state.seq > seq, what="alice's move after reconnecting")


async def test_another_key_cannot_take_a_seat(gs, open_terminal):
    key_a, key_b, key_c = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    fa = key_a.get_fingerprint("sha256")
    table, a, b = await two_player_game(gs, open_terminal, key_a, key_b)
    seat_a = table.seat_of(fa)
    a.term.close()
    await wait_until(lambda: table.seats[seat_a].client is None, what="alice away")
    c = Screen(await open_terminal(gs.server, username="alice", key=key_c, size=(100, 30)))  # same name, other key
    await c.wait_for("alice's table")
    c.mark()
    c.send(b"1")  # the table's page: a running game can only be watched
    text = await c.wait_for("Watch")
    assert "Take a seat" not in text
    carol = gs.lobby.sessions and next(s for s in gs.lobby.sessions if s.key == key_c.get_fingerprint("sha256"))
    with pytest.raises(LobbyError):
        gs.lobby.join(carol, table.id)
    assert table.seat_of(key_c.get_fingerprint("sha256")) is None
    assert table.seats[seat_a].key == fa and table.seats[seat_a].client is None
    # watching is all she gets: her commands are refused and her view names no seat
    c.send(b"1")
    await wait_until(lambda: carol.at_table and carol.seat is None and carol.app.view is not None, what="watching")
    assert carol.app.view.seat is None and carol.app.view.legal == []
    # a guest cannot take it either, and the seat waits for alice's key
    assert table.seats[seat_a].key == fa


@pytest.mark.slow  # a whole game over SSH, every frame of two screens checked
async def test_spectator_watches_reads_chat_cannot_write_or_see_hands(gs, open_terminal):
    key_a, key_b, key_c = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    fa, fb = key_a.get_fingerprint("sha256"), key_b.get_fingerprint("sha256")
    table, a, b = await two_player_game(gs, open_terminal, key_a, key_b)
    c = Screen(await open_terminal(gs.server, username="carol", key=key_c, size=(120, 40)))
    await c.wait_for("alice's table")
    c.send(b"1")
    await c.wait_for("Watch")
    c.send(b"1")
    carol = next(s for s in gs.lobby.sessions if s.key == key_c.get_fingerprint("sha256"))
    await wait_until(lambda: carol.app is not None and carol.app.view is not None, what="spectator view")
    assert carol.app.view.seat is None and all(p.hand is None for p in carol.app.view.players)
    assert carol in table.spectators
    # the spectator tries to write: refused (the creator did not allow it)
    c.mark()
    c.send(b"c")  # the chat's own key puts the focus in its input (Tab never does)
    await asyncio.sleep(0.2)
    c.send(b"hello from carol\r")
    await c.wait_for("Spectators may read", timeout=5)
    # a player's line reaches the spectator
    bob = gs.session(fb)
    bob.chat("good luck all")
    await c.wait_for("good luck all", timeout=5)
    # the creator allows spectators to write: now her line reaches the players
    gs.lobby.set_spectator_chat(gs.session(fa), True)
    await asyncio.sleep(0.1)
    c.mark()
    a.mark()
    c.send(b"cnow I can\r")  # Enter returned her to the game: c again, then the line
    await a.wait_for("now I can", timeout=5)
    # the game goes on while she watches; she never sees a hand
    watch = HandWatch(0, c)  # seat 0's cards are hidden from a spectator as from anyone else
    watch_b = HandWatch(1, c)

    def check(_seat: int) -> None:
        # a spectator knows no hand: every card in any hand, never shown publicly, is forbidden
        for w in (watch, watch_b):
            w.record(table)

    players = {table.seat_of(fa): (fa, a), table.seat_of(fb): (fb, b)}
    reader = asyncio.ensure_future(drain([a, b, c]))
    try:
        await play_to_end(gs, players, random.Random(9), timeout=150, on_step=check)
    finally:
        reader.cancel()
    await wait_until(lambda: table.phase == "over", what="game over")
    # HandWatch(seat) allows that seat's own cards; checking as seat 0 and as seat 1 on the spectator's
    # screen together forbids every card held only in hands.
    s0, s1 = watch.verify(), watch_b.verify()
    assert s0["forbidden"] > 30 and s1["forbidden"] > 30
    await wait_until(lambda: carol.app.view.phase == "over", what="the spectator sees the end")


@pytest.mark.slow  # a whole game over SSH against a client that stopped reading
async def test_client_that_stops_reading_does_not_stall_the_others(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, output_stall_timeout_seconds=1.5, idle_wait_seconds=0.5)
    try:
        key_a, key_b = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
        fa, fb = key_a.get_fingerprint("sha256"), key_b.get_fingerprint("sha256")
        table, a, b = await two_player_game(
            gs, open_terminal, key_a, key_b, b_options={"session_options": SMALL_WINDOW}, b_size=(200, 60)
        )
        # bob never reads again; alice plays on. Each of her moves must come back quickly.
        cat = Catalogue("en")
        rng = random.Random(4)
        seat_a = table.seat_of(fa)
        slowest = 0.0
        moves = 0
        deadline = time.monotonic() + 120
        reader = asyncio.ensure_future(drain([a]))
        try:
            while table.state.phase != "over":
                assert time.monotonic() < deadline, "the game stalled"
                if table.state.pending.seat == seat_a and prompt_ready(gs.app_of(fa), table.state.seq):
                    seq = table.state.seq
                    t0 = time.monotonic()
                    a.send(app_keys(gs.app_of(fa), cat, rng))
                    await wait_until(lambda: table.state.seq != seq, timeout=10, what="alice's move")
                    slowest = max(slowest, time.monotonic() - t0)
                    moves += 1
                else:
                    await asyncio.sleep(0.01)
        finally:
            reader.cancel()
        await wait_until(lambda: table.phase == "over", what="game over")
        # bob's session was dropped for not reading and a bot played his seat; alice was never held up
        assert gs.session(fb) is None
        assert table.bot_moves > 0
        assert moves > 5 and slowest < 3.0, (moves, slowest)
    finally:
        await gs.close()


@pytest.mark.slow  # over SSH: four sessions, two tables started, a spectator moving between them
async def test_a_session_moving_to_another_table_sees_nothing_of_the_first(gs, open_terminal):
    """The server keeps one table screen per session and empties it for each table (no widget
    tree left behind per game): watching table 1, then table 2, shows table 2's log and chat only."""
    from ui.lobby_link import TableSpec
    from ui.widgets.chat import ChatPanel
    from ui.widgets.log_view import LogView

    key_a, key_b, key_c, key_d = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(4))
    table1, a, b = await two_player_game(gs, open_terminal, key_a, key_b)
    c = Screen(await open_terminal(gs.server, username="carol", key=key_c, size=(120, 40)))
    d = Screen(await open_terminal(gs.server, username="dave", key=key_d, size=(120, 40)))
    await c.wait_for("Citadels · lobby")
    await d.wait_for("Citadels · lobby")
    carol = gs.session(key_c.get_fingerprint("sha256"))
    table2 = gs.lobby.create(carol, TableSpec(name="second", players=2, bots=1))
    gs.lobby.start(carol)
    await wait_until(lambda: table2.phase == "playing", what="table 2 starts")

    fd = key_d.get_fingerprint("sha256")
    dave = gs.session(fd)
    assert dave.watch(table1.id) is None
    await d.wait_for("Round", timeout=10)
    await asyncio.sleep(0.3)
    table1.chat("alice", "hi one")
    await d.wait_for("hi one", timeout=10)
    first_screen = gs.app_of(fd).table
    # the lobby drawn after the move: frames of table 1 sent before it (the chat's title with its
    # unread count, drawn after the line itself was painted) are not what this test is about
    d.mark()
    dave.to_lobby()
    await d.wait_for("Citadels · lobby", timeout=10)
    await asyncio.sleep(0.3)
    d.mark()
    assert dave.watch(table2.id) is None
    await d.wait_for("Round", timeout=10)
    await asyncio.sleep(0.3)
    table2.chat("carol", "hi two")
    await d.wait_for("hi two", timeout=10)
    app = gs.app_of(fd)
    assert app.table is first_screen, "the same screen, reused"
    chat_rows = [r.text for r in app.table.query_one(ChatPanel).query_one(LogView).rows]
    assert chat_rows == ["hi two"]
    log_rows = " ".join(r.text for r in app.table.query_one("#log", LogView).rows)
    assert log_rows.startswith("A game for 2 players begins"), "table 2's log from its first line"
    assert "alice" not in log_rows and "bob" not in log_rows, "no line of table 1's log"
    assert any(p.name == "carol" for p in app.view.players)
    assert "hi one" not in d.text()
