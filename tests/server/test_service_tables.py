"""Tables with owners and lifetimes, through real SSH clients (issue 18, attack 2): an abandoned
waiting table closes after its grace and its players are told; looping guests from one address
hit the per-source limit while keyed players can still create tables; join-code guesses are bounded."""

from __future__ import annotations

import asyncio
import logging

import asyncssh
import pytest
from game_helpers import DOWN, END, ENTER, LEFT, RIGHT, UP, Screen, start_game_server, wait_until

NEW_TABLE = END + UP * 3 + ENTER  # the lobby's main page ends: New table…, Join with a code…, Change your name…, Quit
JOIN_CODE = END + UP * 2 + ENTER


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def create_table(screen: Screen, players: int, bots: int, extra: bytes = b"", expect: str = "Table:") -> None:
    """New table… (wherever it is in the list), players and bots set, Create."""
    screen.mark()
    screen.send(NEW_TABLE)
    await screen.wait_for("New table")
    keys = DOWN + (LEFT * (4 - players) if players < 4 else RIGHT * (players - 4)) + DOWN * 3 + RIGHT * bots + extra
    screen.send(keys)
    await asyncio.sleep(0.1)
    screen.mark()
    screen.send(END + UP + ENTER)  # Create the table (the item before Back)
    await screen.wait_for(expect)


async def lobby_screen(gs, open_terminal, *, addr: str = "127.0.0.1", **kw) -> Screen:
    s = Screen(await open_terminal(gs.server, size=(120, 40), local_addr=(addr, 0), **kw))
    await s.wait_for("Citadels · lobby")
    return s


async def test_a_guests_abandoned_table_closes_after_the_grace_and_its_room_is_told(tmp_path, open_terminal, caplog):
    caplog.set_level(logging.INFO)
    gs = await start_game_server(tmp_path, abandoned_table_grace_seconds=1.5)
    try:
        g = await lobby_screen(gs, open_terminal, username="gus", guest=True)
        await create_table(g, players=3, bots=1)
        table = gs.table()
        b = await lobby_screen(gs, open_terminal, username="bob", key=new_key())
        b.mark()
        b.send(b"1")  # gus's table
        await b.wait_for("Take a seat")
        b.send(b"1")
        await b.wait_for("Waiting for the creator")
        b.mark()
        g.term.close()  # the guest creator leaves: their seat is freed at once, the table waits a little
        await b.wait_for("creator (a guest) left: the table closes in 1.5 s", timeout=5)
        assert table.phase == "waiting" and table.id in gs.lobby.tables
        await b.wait_for("its creator left", timeout=5)
        await wait_until(lambda: table.id not in gs.lobby.tables, what="the table closed")
        assert table.phase == "closed"
        bob = next(s for s in gs.lobby.sessions if s.name == "bob")
        assert bob.table is None and bob.seat is None
        messages = [r.getMessage() for r in caplog.records]
        assert "table creator left" in messages and "table closed" in messages
        assert any(getattr(r, "fields", {}).get("cause") == "abandoned" for r in caplog.records)
    finally:
        await gs.close()


@pytest.mark.slow  # waits out a 2 s grace in real time (the guest's abandoned table above checks the grace in the fast tier)
async def test_a_keyed_creator_who_returns_within_the_grace_keeps_the_table(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, abandoned_table_grace_seconds=2.0)
    try:
        key = new_key()
        a = await lobby_screen(gs, open_terminal, username="alice", key=key)
        await create_table(a, players=3, bots=1)
        table = gs.table()
        a.term.close()
        await wait_until(lambda: table.id in gs.lobby._abandon_timers, what="the grace to start")
        a2 = await lobby_screen(gs, open_terminal, username="alice", key=key)
        await a2.wait_for("Close the table")  # back in her room
        assert table.id not in gs.lobby._abandon_timers
        await asyncio.sleep(2.5)
        assert table.phase == "waiting" and table.id in gs.lobby.tables
    finally:
        await gs.close()


@pytest.mark.slow  # over SSH: six sessions creating tables from two addresses
async def test_looping_guests_hit_the_per_address_limit_and_keyed_players_still_create(tmp_path, open_terminal):
    gs = await start_game_server(
        tmp_path, abandoned_table_grace_seconds=60, max_guest_tables_per_address=3, max_tables_per_address=5
    )
    try:
        for i in range(3):  # a guest creates a table and leaves, again and again, from 127.0.0.2
            g = await lobby_screen(gs, open_terminal, addr="127.0.0.2", username=f"loop{i}", guest=True)
            await create_table(g, players=2, bots=1)
            g.term.close()
        await wait_until(lambda: len(gs.lobby._abandon_timers) == 3, what="three abandoned tables")
        g = await lobby_screen(gs, open_terminal, addr="127.0.0.2", username="loop3", guest=True)
        await create_table(g, players=2, bots=1, expect="Guests from your address already have open tables")
        assert len(gs.lobby.tables) == 3
        # a guest from another address, and a keyed player from the same address, still can
        other = await lobby_screen(gs, open_terminal, addr="127.0.0.3", username="elsewhere", guest=True)
        await create_table(other, players=2, bots=1)
        keyed = await lobby_screen(gs, open_terminal, addr="127.0.0.2", username="kim", key=new_key())
        await create_table(keyed, players=2, bots=1, expect="Start the game")
        assert len(gs.lobby.tables) == 5
        assert gs.lobby.refusals["guest_tables_per_address"] == 1
    finally:
        await gs.close()


async def test_the_server_wide_cap_counts_every_table(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, max_tables=1)
    try:
        a = await lobby_screen(gs, open_terminal, username="alice", key=new_key())
        await create_table(a, players=2, bots=1)
        b = await lobby_screen(gs, open_terminal, addr="127.0.0.5", username="bob", key=new_key())
        await create_table(b, players=2, bots=1, expect="at most 1 tables")
    finally:
        await gs.close()


async def test_join_code_guesses_are_limited_per_identity_and_per_address(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, join_code_attempts_per_identity=3, join_code_attempts_per_address=5)
    try:
        a = await lobby_screen(gs, open_terminal, username="alice", key=new_key())
        await create_table(a, players=2, bots=0, extra=DOWN * 3 + RIGHT)  # Private: yes
        table = gs.table()
        assert table.meta.private and table.meta.code
        m = await lobby_screen(gs, open_terminal, addr="127.0.0.7", username="mallory", key=new_key())
        wrong = "ZZZZZ" if table.meta.code != "ZZZZZ" else "YYYYY"

        async def guess(screen: Screen, code: str, expect: str) -> None:
            refused = sum(gs.lobby.refusals.values())
            await screen.pump(0.3)
            screen.mark()
            screen.send(JOIN_CODE)
            await screen.wait_for("The table's code")
            screen.mark()
            screen.send(code.encode() + b"\r")
            if expect != "joined":
                await wait_until(lambda: sum(gs.lobby.refusals.values()) == refused + 1, what="the refusal")
                await screen.wait_for(expect)

        for _ in range(3):
            await guess(m, wrong, "No table has this code")
        await guess(m, table.meta.code, "Too many wrong codes")  # even the right one, for a while
        assert table.seats[1].key is None
        # a new identity from the same address gets the address's remaining two tries
        m2 = await lobby_screen(gs, open_terminal, addr="127.0.0.7", username="mallory2", guest=True)
        for _ in range(2):
            await guess(m2, wrong, "No table has this code")
        await guess(m2, wrong, "Too many wrong codes")
        # someone else, elsewhere, joins with the code
        b = await lobby_screen(gs, open_terminal, addr="127.0.0.8", username="bob", key=new_key())
        await guess(b, table.meta.code.lower(), "joined")
        await b.wait_for("Waiting for the creator")
        assert table.seats[1].name == "bob"
        assert gs.lobby.refusals["code_guesses"] == 2 and gs.lobby.refusals["wrong_code"] == 5
    finally:
        await gs.close()


@pytest.mark.slow  # over SSH: a game with a spectator, an absence played by a bot and a return
async def test_the_host_log_says_who_joined_watched_was_played_for_and_came_back(tmp_path, open_terminal, caplog):
    caplog.set_level(logging.INFO)
    gs = await start_game_server(tmp_path, idle_wait_seconds=0.3, bot_delay_seconds=0.2)  # a game that lasts
    try:
        key = new_key()
        a = await lobby_screen(gs, open_terminal, username="alice", key=key)
        b = await lobby_screen(gs, open_terminal, username="bob", key=new_key())
        await create_table(a, players=3, bots=1)
        table = gs.table()
        bob = next(s for s in gs.lobby.sessions if s.name == "bob")
        assert bob.join(table.id) is None
        await a.wait_for("Start the game")
        a.send(b"1")
        await wait_until(lambda: table.phase == "playing", what="start")
        w = await lobby_screen(gs, open_terminal, addr="127.0.0.4", username="wendy", key=new_key())
        assert next(s for s in gs.lobby.sessions if s.name == "wendy").watch(table.id) is None
        b.term.close()  # bob goes for good: bots play for him (so that alice's turn comes whatever the order)
        a.term.close()  # alice goes; a bot plays for her after the idle wait; she comes back
        fa = key.get_fingerprint("sha256")
        seat = table.seat_of(fa)
        await wait_until(
            lambda: table.bot_plays_for(seat) or table.state.phase == "over", timeout=30, what="a bot for alice"
        )
        a2 = Screen(await open_terminal(gs.server, username="alice", key=key, size=(120, 40)))
        await a2.wait_for("is back")  # straight to her seat at the table
        await wait_until(lambda: not table.bot_plays_for(seat), what="alice back")
        await w.pump(0.1)
        await a2.pump(0.1)
        messages = {r.getMessage() for r in caplog.records}
        for line in ("player joined", "watching", "player away", "bot plays for an away player", "seat reclaimed"):
            assert line in messages, line
        assert any(r.getMessage() == "player connected" and r.fields.get("peer") == "127.0.0.4" for r in caplog.records)
    finally:
        await gs.close()
