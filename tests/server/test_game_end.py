"""The end of a game over SSH and the way back: the final scores offer play again with the same seats,
the replay (from your own seat) and the lobby; nothing after the end speaks of a seat waiting; "play
again" makes a new table with the same people (their seats kept, the other one told) and the same bot."""

from __future__ import annotations

import asyncio
import io
import random

import asyncssh
import pytest
from game_helpers import ESC, Screen, create_table, drain, play_to_end, start_game_server, wait_until
from rich.console import Console


def on_screen(app) -> str:
    """What the session's terminal shows now (its app's whole screen stack), as text."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, color_system=None, record=True
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


@pytest.fixture
async def gs(tmp_path):
    server = await start_game_server(tmp_path)
    yield server
    await server.close()


async def start_three_seats(gs, open_terminal):
    key_a = asyncssh.generate_private_key("ssh-ed25519")
    key_b = asyncssh.generate_private_key("ssh-ed25519")
    a = Screen(await open_terminal(gs.server, username="alice", key=key_a, size=(100, 30)))
    b = Screen(await open_terminal(gs.server, username="bob", key=key_b, size=(80, 24)))
    await a.wait_for("Citadels · lobby")
    await b.wait_for("Citadels · lobby")
    await create_table(a, players=3, bots=1)
    await a.wait_for("(bot)")
    b.mark()
    await b.wait_for("alice's table", timeout=5)
    b.send(b"1")
    await b.wait_for("Take a seat")
    b.mark()
    b.send(b"1")
    await b.wait_for("Waiting for the creator")
    a.mark()
    await a.wait_for("Start the game")
    a.send(b"1")
    table = gs.table()
    await wait_until(lambda: table.phase == "playing", what="game start")
    fa, fb = key_a.get_fingerprint("sha256"), key_b.get_fingerprint("sha256")
    return table, a, b, fa, fb


@pytest.mark.slow  # a whole game over SSH, then play again
async def test_end_offers_play_again_replay_and_lobby(gs, open_terminal):
    table, a, b, fa, fb = await start_three_seats(gs, open_terminal)
    seats = {table.seat_of(fa): (fa, a), table.seat_of(fb): (fb, b)}
    names = [s.name for s in table.seats]
    reader = asyncio.ensure_future(drain([a, b]))
    try:
        await play_to_end(gs, seats, random.Random(3), timeout=150)
        a.mark()
        b.mark()
        await a.wait_for("Final scores", timeout=10)
        for key, screen in ((fa, a), (fb, b)):
            await screen.wait_for("3 Back to the lobby", timeout=10)
            await asyncio.sleep(0.3)
            text = on_screen(gs.app_of(key))
            assert "1 Play again with the same seats" in text and "2 Watch the replay" in text
            assert "Waiting for" not in text and "waits for you" not in text and "Game over" in text
        # the replay, from alice's own seat
        a.mark()
        a.send(b"2")
        await a.wait_for("←→ move", timeout=10)
        a.mark()
        a.send(ESC)
        await a.wait_for("Game over", timeout=10)
        a.mark()
        a.send(b"\x1bOR")  # F3: the scores again
        await a.wait_for("Play again with the same seats", timeout=10)
        # play again: a new table with the same seats; bob's is kept for him and he is told
        a.mark()
        b.mark()
        a.send(b"1")
        await a.wait_for("Start the game", timeout=10)
        await b.wait_for("seat is kept", timeout=10)
        again = gs.table()
        assert again is not table and again.phase == "waiting"
        assert [s.name for s in again.seats] == names
        assert again.seat_of(fa) == table.seat_of(fa) and again.seat_of(fb) == table.seat_of(fb)
        bot = next(i for i, s in enumerate(table.seats) if s.bot)
        assert again.seats[bot].bot == table.seats[bot].bot
        b.mark()
        b.send(b"1")  # bob too: to the same new table
        await b.wait_for("Waiting for the creator", timeout=10)
        assert gs.session(fb).table is again
        a.mark()
        a.send(b"1")  # start
        await wait_until(lambda: again.phase == "playing", what="the new game's start")
        await a.wait_for("Round 1", timeout=10)
        await b.wait_for("Round 1", timeout=10)
    finally:
        reader.cancel()


@pytest.mark.slow  # a whole game over SSH
async def test_back_to_the_lobby_after_the_end_keeps_no_seat(gs, open_terminal):
    table, a, b, fa, fb = await start_three_seats(gs, open_terminal)
    seats = {table.seat_of(fa): (fa, a), table.seat_of(fb): (fb, b)}
    reader = asyncio.ensure_future(drain([a, b]))
    try:
        await play_to_end(gs, seats, random.Random(4), timeout=150)
        await b.wait_for("3 Back to the lobby", timeout=10)
        b.mark()
        b.send(b"3")
        await b.wait_for("Citadels · lobby", timeout=10)
        await asyncio.sleep(0.3)
        text = on_screen(gs.app_of(fb))
        assert "Citadels · lobby" in text and "your seat" not in text
        assert gs.session(fb).table is None and gs.lobby.snapshot(gs.session(fb)).playing is None
    finally:
        reader.cancel()
