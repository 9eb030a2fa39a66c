"""A seat taken by a newer connection of the same player, over real SSH (asyncssh clients, the
players database on SQLite): the older session is sent to the lobby with a sentence that says
whether it was the same key or another of the player's keys, in the player's language."""

from __future__ import annotations

import asyncio

import pytest
from game_helpers import Screen, create_table, wait_until
from players_helpers import CODE, fingerprint, lobby, new_key, player_known, press, start_players_server, type_line


@pytest.fixture
async def gs(tmp_path):
    server = await start_players_server(tmp_path)
    yield server
    await server.close()


@pytest.mark.slow  # over SSH: a second key added by code, then three sessions taking one seat
async def test_a_seat_taken_from_another_key_says_so_and_the_same_key_too(gs, open_terminal):
    k1, k2 = new_key(), new_key()
    a = await lobby(open_terminal, gs, k1, "alice", size=(120, 40))
    pid = await player_known(gs, k1)
    # The second key joins alice's account with a one-time code (lobby -> My name and keys).
    await press(gs, k1, a, "My name and keys")
    await a.wait_for("Your account")
    await press(gs, k1, a, "Add another key")
    await a.wait_for("Code: ")
    await asyncio.sleep(0.3)
    code = CODE.search(a.text()).group(1)
    b = await lobby(open_terminal, gs, k2, "alice-laptop", size=(120, 40))
    await player_known(gs, k2)
    await press(gs, k2, b, "My name and keys")
    await b.wait_for("Your account")
    await press(gs, k2, b, "I have a code")
    await type_line(gs, k2, b, code)
    await wait_until(lambda: gs.session_of(k2).player_id == pid, what="key moved")
    b.term.close()
    await wait_until(lambda: gs.session_of(k2) is None, what="the laptop's session gone")

    a.send(b"\x1b")  # back to the lobby's main page
    await asyncio.sleep(0.2)
    await create_table(a, players=3, bots=2)
    a.mark()
    await press(gs, k1, a, "Start the game")
    table = gs.table()
    await wait_until(lambda: table.phase == "playing", what="game start")
    await wait_until(lambda: gs.app_of(fingerprint(k1)).at_table, what="alice at the table")

    # The laptop connects: its player's seat is its own; the desktop's session goes to the lobby.
    a.mark()
    app_a = gs.app_of(fingerprint(k1))
    b = Screen(await open_terminal(gs.server, username="alice-laptop", key=k2, size=(120, 40)))
    await wait_until(lambda: gs.app_of(fingerprint(k2)).at_table, what="the laptop at the seat")
    said = "Your seat was taken over by a new connection with another of your keys."
    await wait_until(lambda: app_a.lobby_screen.notice == said, what="the desktop told why")
    await a.wait_for("another of your keys")  # and on its screen

    # The same key again, in Spanish: said in Spanish.
    app_b = gs.app_of(fingerprint(k2))
    b.send(b"\x1bOQ")  # F2: español
    await wait_until(lambda: app_b.cat.lang == "es", what="Spanish")
    b.mark()
    Screen(await open_terminal(gs.server, username="alice-laptop", key=k2, size=(120, 40)))
    said = "Una conexión nueva con esta misma clave ha tomado tu asiento."
    await wait_until(lambda: app_b.lobby_screen.notice == said, what="the laptop told why, in Spanish")


async def test_a_player_who_comes_back_reads_the_tables_last_chat_lines(tmp_path, open_terminal):
    """The chat was lost on a reconnection: the table keeps its last lines and sends them to whoever
    arrives, shown as read (no unread mark for what was said before)."""
    import asyncssh
    from game_helpers import start_game_server

    from ui.lobby_link import TableSpec

    gs = await start_game_server(tmp_path, idle_wait_seconds=60.0)
    try:
        ka, kb = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
        fa, fb = (k.get_fingerprint("sha256") for k in (ka, kb))

        async def arrive(name, key, wait):
            screen = Screen(await open_terminal(gs.server, username=name, key=key, size=(120, 40)))
            await screen.wait_for(wait)
            return screen

        a = await arrive("alice", ka, "Citadels · lobby")
        b = await arrive("bob", kb, "Citadels · lobby")
        alice, bob = gs.session(fa), gs.session(fb)
        table = gs.lobby.create(alice, TableSpec(players=3, bots=1))
        gs.lobby.join(bob, table.id)
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await b.wait_for("Your hand")
        alice.chat("meet you at the docks")
        await b.wait_for("meet you at the docks")
        bob.chat("bring gold")
        await a.wait_for("bring gold")
        b.term.close()
        await wait_until(lambda: table.seats[table.seat_of(fb)].client is None, what="bob away")
        b = await arrive("bob", kb, "Your hand")
        await b.wait_for("meet you at the docks")
        await b.wait_for("bring gold")
        app = gs.app_of(fb)
        await wait_until(lambda: len(app.table.query_one("#chat-lines").rows) == 2, what="two chat rows")
        assert app.table.feedback.unread == 0  # said before bob came back: not news to mark
    finally:
        await gs.close()


async def test_saving_trouble_is_told_in_the_players_language(tmp_path, open_terminal, monkeypatch):
    """The table's saving notices were the server's English sentence for everyone: they are catalogue
    sentences now, and a Spanish player reads them in Spanish (the log line and the notification)."""
    import errno
    import random

    import asyncssh
    from game_helpers import start_game_server
    from test_game_saves import moves, solo_game

    import server.storage.savelog as savelog
    import server.storage.table_save as table_save

    gs = await start_game_server(tmp_path)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        fp = key.get_fingerprint("sha256")
        table, a = await solo_game(gs, open_terminal, key)
        a.send(b"\x1bOQ")  # F2: español
        await a.wait_for("Tu mano")
        rng = random.Random(1)

        def full(*_args, **_kw):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(table_save, "write_all", full)
        monkeypatch.setattr(savelog, "write_all", full)
        a.mark()
        await moves(gs, table, a, fp, 3, rng)
        await a.wait_for("La partida no se puede guardar", timeout=10)
        assert "cannot be saved" not in a.text()
        app = gs.app_of(fp)
        assert any("carpeta de partidas del servidor está llena" in r.text for r in app.table.query_one("#log").rows)
        monkeypatch.undo()
        a.mark()
        await moves(gs, table, a, fp, 1, rng)
        await a.wait_for("La partida vuelve a guardarse.", timeout=10)
    finally:
        await gs.close()


async def test_after_a_restart_a_player_who_comes_back_finds_the_games_log(tmp_path, open_terminal):
    """The log panel was empty after a server restart: the resumed table rebuilds its past events from
    the save's command log, and each player gets them redacted for their seat (the bot's choice of
    character stays hidden)."""
    import random

    import asyncssh
    from game_helpers import start_game_server
    from test_game_saves import moves, solo_game

    from engine import redact_events
    from ui.i18n import Catalogue

    key = asyncssh.generate_private_key("ssh-ed25519")
    fp = key.get_fingerprint("sha256")
    gs = await start_game_server(tmp_path)
    try:
        table, a = await solo_game(gs, open_terminal, key)
        await moves(gs, table, a, fp, 4, random.Random(2))
        await wait_until(lambda: table.save is not None and len(table.save.save.log) >= 4, what="saved moves")
        seat = table.seat_of(fp)
        before = [r.text for r in gs.app_of(fp).table.query_one("#log").rows]
        events_before = len(table.history)
        assert events_before > 4
    finally:
        await gs.close()

    gs = await start_game_server(tmp_path)  # the same folders: the game is resumed
    try:
        table = gs.table()
        assert len(table.history) >= events_before  # rebuilt from the command log
        assert redact_events(table.history, seat)  # the seat's own redaction is what is sent
        a = Screen(await open_terminal(gs.server, username="alice", key=key, size=(130, 42)))
        await a.wait_for("Your hand")
        app = gs.app_of(fp)
        await wait_until(lambda: len(app.table.query_one("#log").rows) >= len(before), what="the log back")
        after = [r.text for r in app.table.query_one("#log").rows]
        assert after[: len(before)] == before  # the same lines as before the restart
        cat = Catalogue("en")
        bot_seat = 1 - seat
        bot_chars = [c for c in table.state.players[bot_seat].characters if c not in table.state.revealed]
        for c in bot_chars:  # the bot's unrevealed character is in no line alice gets
            assert not any(f"chose the {cat.character(c)}" in line for line in after)
    finally:
        await gs.close()


async def test_my_profile_is_titled_with_the_name_i_play_under(gs, open_terminal):
    """Without a claimed name the profile said "#2 · your profile" while the lobby said "You: ana": it
    says the name the player plays under."""
    k = new_key()
    a = await lobby(open_terminal, gs, k, "ana", size=(80, 24))
    pid = await player_known(gs, k)
    await press(gs, k, a, "My profile")
    await a.wait_for("ana · your profile")
    assert f"#{pid} · your profile" not in a.text()
