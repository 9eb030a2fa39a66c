"""A whole game through real SSH: two players create and join a table in the lobby, a bot fills the
third seat, and the game is played to the end by key presses; each screen showed only its own hand."""
from __future__ import annotations

import asyncio
import random
import time

import asyncssh
import pytest

from engine.savefile import loads
from ui.i18n import Catalogue

from game_helpers import (HandWatch, DOWN, LEFT, RIGHT, END, UP, Screen, hidden_names_for, key_path, plain, prompt_ready,
                          start_game_server, wait_until, word)


async def create_table(screen: Screen, players: int, bots: int, extra: bytes = b"") -> None:
    """From the lobby's main page: New table, set players and bots, Create."""
    screen.mark()
    screen.send(b"1")  # "New table…" is the first item when there is no table yet
    await screen.wait_for("New table")
    # items: Name, Players, Rules, Line-up, Bots, Bot level, Turn timer, Private, Spectators may chat, Create, Back
    keys = DOWN + (LEFT * (4 - players) if players < 4 else RIGHT * (players - 4))
    keys += DOWN * 3 + RIGHT * bots + extra
    screen.send(keys)
    await asyncio.sleep(0.1)
    screen.mark()
    screen.send(END + UP + b"\r")  # Create the table (the item before Back)
    await screen.wait_for("Table:")


async def play_to_end(gs, players: dict[int, tuple[str, Screen]], rng: random.Random, timeout: float = 120.0,
                      on_step=None) -> int:
    """Answer every decision of the human seats with keys until the game ends."""
    table = gs.table()
    cat = Catalogue("en")
    presses = 0
    deadline = time.monotonic() + timeout
    while table.state is None or table.state.phase != "over":
        assert time.monotonic() < deadline, f"game not over in {timeout}s (seq {table.state.seq if table.state else None})"
        st = table.state
        if st is None:
            await asyncio.sleep(0.02)
            continue
        seat = st.pending.seat
        if seat not in players:
            await asyncio.sleep(0.01)
            continue
        key, screen = players[seat]
        seq = st.seq
        app = gs.app_of(key)
        try:
            await wait_until(lambda: prompt_ready(gs.app_of(key), table.state.seq) or table.state.seq != seq,
                             timeout=10, what=f"seat {seat}'s prompt")
        except AssertionError:
            raise AssertionError(f"seat {seat} prompt never ready; screen: {screen.text(False)[-1500:]!r}")
        if table.state.seq != seq:
            continue
        if on_step is not None:
            on_step(seat)
        keys, _cmd = key_path(app.view, cat, rng)
        screen.send(keys)
        presses += 1
        await wait_until(lambda: table.state.seq != seq or table.state.phase == "over", timeout=10,
                         what=f"seat {seat}'s command (keys {keys!r})")
    return presses


@pytest.fixture
async def gs(tmp_path):
    server = await start_game_server(tmp_path)
    yield server
    await server.close()


async def drain(screens: list[Screen]) -> None:
    """Keep reading the clients' output (a PTY client that is not read stalls its session)."""
    while True:
        for s in screens:
            await s.pump(0.01)


async def test_whole_game_over_ssh_two_players_and_a_bot(gs, open_terminal, tmp_path):
    key_a = asyncssh.generate_private_key("ssh-ed25519")
    key_b = asyncssh.generate_private_key("ssh-ed25519")
    a = Screen(await open_terminal(gs.server, username="alice", key=key_a, size=(120, 40)))
    b = Screen(await open_terminal(gs.server, username="bob", key=key_b, size=(100, 30)))
    await a.wait_for("Citadels · lobby")
    await b.wait_for("Citadels · lobby")
    await create_table(a, players=3, bots=1)
    text = await a.wait_for("(bot)")
    assert "alice" in text and "— open —" in text
    # bob sees the table listed and takes the open seat
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
    fa = key_a.get_fingerprint("sha256")
    fb = key_b.get_fingerprint("sha256")
    seats = {table.seat_of(fa): (fa, a), table.seat_of(fb): (fb, b)}
    assert set(seats) == {0, 1}
    watches = [HandWatch(seat, screen) for seat, (_key, screen) in seats.items()]

    def check(_seat: int) -> None:
        for w in watches:
            w.record(table)

    reader = asyncio.ensure_future(drain([a, b]))
    try:
        presses = await play_to_end(gs, seats, random.Random(5), timeout=150, on_step=check)
    finally:
        reader.cancel()
    await wait_until(lambda: table.phase == "over", what="the end of the game")
    assert presses > 10
    await a.wait_for("Final scores", timeout=10)
    await b.wait_for("Final scores", timeout=10)
    check(-1)
    for w in watches:
        stats = w.verify()
        assert stats["checks"] > 10
        assert stats["forbidden"] > 50, f"few hidden cards to leak: the check would prove little ({stats})"
        assert stats["own_seen"] >= stats["own"] // 2, f"own hand not shown ({stats})"
    # the game's record is kept
    assert (tmp_path / "saves" / "finished" / f"{table.id}.save").exists()
