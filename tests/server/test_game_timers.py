"""Idle players, turn timers, the creator's powers and guests, through real SSH sessions."""

from __future__ import annotations

import asyncio

import asyncssh
from game_helpers import CTRL_Q, Screen, start_game_server, wait_until

from ui.lobby_link import TableSpec


async def lobby_session(gs, open_terminal, name: str, key=None, guest: bool = False, size=(120, 40)):
    kw = {"guest": True} if guest else {"key": key}
    screen = Screen(await open_terminal(gs.server, username=name, size=size, **kw))
    await screen.wait_for("Citadels · lobby")
    session = next(s for s in gs.lobby.sessions if s.name == name)
    return screen, session


async def test_away_player_is_played_by_a_bot_after_the_idle_wait_then_gets_the_seat_back(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, idle_wait_seconds=0.4)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        a, alice = await lobby_session(gs, open_terminal, "alice", key)
        table = gs.lobby.create(alice, TableSpec(players=2, bots=1, bot_kind="normal"))
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await a.wait_for("Your hand")
        seq = table.state.seq
        a.term.close()
        await wait_until(lambda: table.seats[0].client is None, what="alice away")
        # nobody moves for her before the idle wait, then a bot plays her seat
        await wait_until(lambda: table.state.seq > seq + 4, timeout=10, what="the bot playing for alice")
        assert table.seats[0].key == key.get_fingerprint("sha256") and table.seats[0].bot is None
        # she comes back: her seat and screen, and the bot stops at her next decision
        a2, alice2 = await lobby_session_back(gs, open_terminal, "alice", key)
        await wait_until(lambda: table.seats[0].client is alice2, what="seat back")
        await wait_until(lambda: table.state.phase == "over" or table.state.pending.seat == 0, what="her decision")
        if table.state.phase != "over":
            seq = table.state.seq
            await asyncio.sleep(1.0)  # longer than the idle wait: nobody plays in her place now
            assert table.state.seq == seq
    finally:
        await gs.close()


async def lobby_session_back(gs, open_terminal, name, key):
    """A player reconnecting: back at the table screen (the game may have ended meanwhile, its scores
    over the table: the screen's text is no sign; the session's app is)."""
    screen = Screen(await open_terminal(gs.server, username=name, key=key, size=(120, 40)))
    fp = key.get_fingerprint("sha256")
    session = None

    def back() -> bool:
        nonlocal session
        session = next((s for s in gs.lobby.sessions if s.key == fp), None)
        return session is not None and session.app is not None and session.app.at_table and session.app.view is not None

    await wait_until(back, what=f"{name} back at the table")
    await screen.wait_for("Round")
    return screen, session


async def test_blitz_timer_lets_a_bot_finish_a_turn_that_runs_out(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, turn_timer_blitz_seconds=0.5)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        a, alice = await lobby_session(gs, open_terminal, "alice", key)
        table = gs.lobby.create(alice, TableSpec(players=2, bots=1, timer="blitz"))
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        a.mark()
        # alice is connected but does nothing: her decisions time out and a bot takes them
        await wait_until(lambda: table.state.seq >= 6, timeout=15, what="moves made by the timer's bot")
        await a.wait_for("Time is up for alice", timeout=5)
        assert table.seats[0].client is alice  # she still holds her seat
    finally:
        await gs.close()


async def test_creator_replaces_an_absent_player_and_removes_one_before_the_start(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        ka, kb, kc = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
        a, alice = await lobby_session(gs, open_terminal, "alice", ka)
        b, bob = await lobby_session(gs, open_terminal, "bob", kb)
        c, carl = await lobby_session(gs, open_terminal, "carl", kc)
        table = gs.lobby.create(alice, TableSpec(players=3, bots=0))
        gs.lobby.join(bob, table.id)
        gs.lobby.join(carl, table.id)
        # before the start, from the waiting room: remove carl (keys: the room lists "Remove carl")
        a.mark()
        await a.wait_for("Remove carl")
        text = a.text()
        items = [ln for ln in text.splitlines() if "Remove carl" in ln]
        digit = items[-1].strip()[0]
        c.mark()
        a.send(digit.encode())
        await c.wait_for("removed you from the table", timeout=5)
        assert table.seat_of(carl.key) is None and carl.table is None
        gs.lobby.add_bot(alice)
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await b.wait_for("Your hand")
        b.term.close()
        await wait_until(lambda: table.seats[1].client is None, what="bob away")
        # the creator opens the table menu (Ctrl+Q) and replaces bob with a bot
        a.mark()
        a.send(CTRL_Q)
        await a.wait_for("Replace bob")
        a.send(b"3\r")  # Back to the game, Go to the lobby, Replace bob (away) with a bot, ...
        await wait_until(lambda: table.seats[1].bot is not None, what="bob's seat to a bot")
        assert table.seats[1].key is None
        await wait_until(lambda: table.save.save.seats[1].bot is not None, what="seat change saved")
    finally:
        await gs.close()


async def test_guest_plays_but_cannot_reclaim_a_seat(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        ka = asyncssh.generate_private_key("ssh-ed25519")
        a, alice = await lobby_session(gs, open_terminal, "alice", ka)
        g, guest = await lobby_session(gs, open_terminal, "guesty", guest=True)
        assert guest.guest and "guest" in g.text(False)
        table = gs.lobby.create(alice, TableSpec(players=2, bots=0))
        gs.lobby.join(guest, table.id)
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await g.wait_for("Your hand")
        g.term.close()
        # a guest cannot come back: a bot plays the seat at once
        await wait_until(lambda: table.seats[1].bot is not None, what="guest seat to a bot")
        g2, guest2 = await lobby_session(gs, open_terminal, "guesty", guest=True)
        assert guest2.table is None and table.seat_of(guest2.key) is None
    finally:
        await gs.close()
