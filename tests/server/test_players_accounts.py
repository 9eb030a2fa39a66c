"""Accounts over real SSH connections (asyncssh clients, the server's players database on SQLite):
a key's first connection makes a player and the same key is that player again, without the lobby
waiting on the database; a name claimed by one player is refused to another whatever its case; a
second key added with a one-time code takes its player's seat and sees their saved games; keys are
listed and removed (never the one in use, never the last)."""

from __future__ import annotations

import asyncio
import time

import pytest
from game_helpers import create_table, wait_until
from players_helpers import (
    CODE,
    fingerprint,
    lobby,
    new_key,
    player_known,
    press,
    start_players_server,
    type_line,
)

from server.lobby.accounts import key_tag


@pytest.fixture
async def gs(tmp_path):
    server = await start_players_server(tmp_path)
    yield server
    await server.close()


async def test_first_connection_makes_a_player_and_the_same_key_is_that_player_again(gs, open_terminal):
    key = new_key()
    a = await lobby(open_terminal, gs, key, "alice")
    pid = await player_known(gs, key)
    player = gs.db().player_for_key(fingerprint(key))
    assert player.id == pid and player.name is None
    assert "player #%d" % pid in await a.wait_for("player #")
    a.term.close()
    await wait_until(lambda: gs.session_of(key) is None, what="the session gone")

    # Again: memory knows the key, so the session has its player before the database is asked.
    t0 = time.perf_counter()
    b = await lobby(open_terminal, gs, key, "alice")
    arrived = time.perf_counter() - t0
    assert gs.session_of(key).player_id == pid
    assert len({p.id for p in [gs.db().player_for_key(fingerprint(key))]}) == 1
    assert arrived < 10
    b.term.close()


async def test_a_slow_database_does_not_delay_the_lobby(gs, open_terminal, tmp_path):
    """The players database is locked by another writer (every write waits on it) while a new key
    connects: the lobby appears at once under the key's SSH name; the account follows when it frees."""
    import sqlite3

    holder = sqlite3.connect(tmp_path / "saves" / "players.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    key = new_key()
    try:
        t0 = time.perf_counter()
        a = await lobby(open_terminal, gs, key, "carol")
        waited = time.perf_counter() - t0
        s = gs.session_of(key)
        assert s.player_id is None and s.name == "carol"
        assert "account not known yet" in a.text(False)
        await asyncio.sleep(0.3)
        assert gs.session_of(key).player_id is None
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    pid = await player_known(gs, key)
    assert gs.db().player_for_key(fingerprint(key)).id == pid
    assert waited < 5  # the database's own busy wait is 5 s: the lobby did not sit through it


@pytest.mark.slow  # over SSH: two sessions claiming names back and forth (tests/db/test_accounts.py checks the names in the fast tier)
async def test_a_claimed_name_is_refused_to_another_player_whatever_its_case(gs, open_terminal):
    ka, kb = new_key(), new_key()
    a = await lobby(open_terminal, gs, ka, "alice")
    pa = await player_known(gs, ka)
    await press(gs, ka, a, "Change your name")
    await type_line(gs, ka, a, "Ana Lucía")
    await a.wait_for("The name Ana Lucía is yours.")
    assert gs.db().get_player(pa).name == "Ana Lucía"
    assert gs.session_of(ka).name == "Ana Lucía"

    # Bob's SSH user name is Ana's claimed name in other letters: he is shown with a piece of his key.
    b = await lobby(open_terminal, gs, kb, "ANA LUCÍA")
    pb = await player_known(gs, kb)
    shown = gs.session_of(kb).name
    assert shown != "ANA LUCÍA" and shown.startswith("ANA LUC") and shown.endswith(key_tag(fingerprint(kb)))
    for attempt in ("ana lucía", "ＡＮＡ Lucía"):  # case and full-width letters: the same name
        await press(gs, kb, b, "Change your name")
        await type_line(gs, kb, b, attempt)
        await b.wait_for("is another player's")
    assert gs.db().get_player(pb).name is None
    # Bob claims his own; Ana, in another case, keeps hers (she may change its case).
    await press(gs, kb, b, "Change your name")
    await type_line(gs, kb, b, "Bob")
    await b.wait_for("The name Bob is yours.")
    await press(gs, ka, a, "Change your name")
    await type_line(gs, ka, a, "BOB")
    await a.wait_for("is another player's")
    await press(gs, ka, a, "Change your name")
    await type_line(gs, ka, a, "ANA LUCÍA")
    await a.wait_for("The name ANA LUCÍA is yours.")
    assert gs.db().get_player(pa).name == "ANA LUCÍA"


async def test_a_second_key_added_with_a_code_takes_the_seat_and_sees_the_saves(gs, open_terminal):
    k1, k2 = new_key(), new_key()
    a = await lobby(open_terminal, gs, k1, "alice", size=(120, 40))
    pid = await player_known(gs, k1)
    await create_table(a, players=3, bots=2)
    a.mark()
    await press(gs, k1, a, "Start the game")
    table = gs.table()
    await wait_until(lambda: table.phase == "playing", what="game start")
    await wait_until(lambda: gs.app_of(fingerprint(k1)).at_table, what="alice at the table")
    # The creator saves the game to a file (as the table menu does), so that there is a save to find.
    assert await gs.lobby.export_game(gs.session_of(k1), "mine") is None

    # From the lobby: My name and keys -> show a code.
    a.send(b"\x11")  # Ctrl+Q: the table menu
    await press(gs, k1, a, "Go to the lobby")
    await press(gs, k1, a, "My name and keys")
    await a.wait_for("Your account")
    await press(gs, k1, a, "Add another key")
    await a.wait_for("Code: ")
    await asyncio.sleep(0.3)  # the rest of the line
    code = CODE.search(a.text()).group(1)

    # The new key's first session: a new (empty) player until it types the code.
    b = await lobby(open_terminal, gs, k2, "alice-laptop", size=(120, 40))
    other = await player_known(gs, k2)
    assert other != pid
    assert "mine" not in gs.lobby.saved_games_for(gs.session_of(k2))
    await press(gs, k2, b, "My name and keys")
    await b.wait_for("Your account")
    await press(gs, k2, b, "I have a code")
    await type_line(gs, k2, b, code.lower().replace("-", " "))  # case, spaces and dashes do not matter
    await wait_until(lambda: gs.session_of(k2) is not None and gs.session_of(k2).player_id == pid, what="key moved")
    # The second key is taken to its player's seat; the first key's session there is displaced.
    await wait_until(lambda: gs.app_of(fingerprint(k2)).at_table, what="the second key at the seat")
    assert table.seat_of(fingerprint(k2)) == table.seat_of(fingerprint(k1)) == 0
    assert gs.db().get_player(other) is None  # the empty player the first connection made is gone
    assert {k.fingerprint for k in gs.db().keys_of(pid)} == {fingerprint(k1), fingerprint(k2)}
    assert "mine" in gs.lobby.saved_games_for(gs.session_of(k2))
    b.send(b"\x11")
    await press(gs, k2, b, "Go to the lobby")
    await press(gs, k2, b, "Load a saved game")
    await b.wait_for("mine")


async def test_keys_are_listed_and_removed_but_never_the_one_in_use_or_the_last(gs, open_terminal):
    k1, k2 = new_key(), new_key()
    a = await lobby(open_terminal, gs, k1, "alice")
    pid = await player_known(gs, k1)
    link = gs.app_of(fingerprint(k1)).players_link
    code = await link.new_key_code()
    b = await lobby(open_terminal, gs, k2, "alice2")
    await player_known(gs, k2)
    assert "now belongs to" in await gs.app_of(fingerprint(k2)).players_link.add_key(code)
    assert gs.session_of(k2).player_id == pid

    # The account screen of the second key lists both; the first is removable, its own is not.
    await press(gs, k2, b, "My name and keys")
    await b.wait_for("Your account")
    await b.wait_for("this session's key")
    short = fingerprint(k1)[:24]
    await press(gs, k2, b, f"Key {short}")
    await b.wait_for("Press Enter again")
    await press(gs, k2, b, f"Key {short}")
    await b.wait_for("Key removed.")
    assert [k.fingerprint for k in gs.db().keys_of(pid)] == [fingerprint(k2)]
    # The removed key's session, still open, no longer speaks for the player: it is closed.
    assert "This key was removed from its account" in await a.term.read_to_end(10)
    await wait_until(lambda: gs.session_of(k1) is None, what="the removed key's session closed")
    from ui.players_link import PlayersError

    with pytest.raises(PlayersError, match="connected with this key"):
        await gs.app_of(fingerprint(k2)).players_link.remove_key(fingerprint(k2))
    with pytest.raises(PlayersError, match="only key"):
        await _remove_via(gs, k1, k2, pid)

    # The removed key is no longer this player: its next connection is a new one.
    await lobby(open_terminal, gs, k1, "alice")
    assert await player_known(gs, k1) != pid


async def _remove_via(gs, k1, k2, pid):
    """Removing the last key through another session of the player (the database refuses)."""
    from server.players.session_link import SessionPlayers

    s = gs.session_of(k2)

    class Other:  # a second session of the same player, with another key in hand
        guest = False
        player_id = pid
        key = fingerprint(k1)
        info = s.info

    await SessionPlayers(Other(), gs.lobby, gs.players).remove_key(fingerprint(k2))
