"""The table tells what happens, through real SSH sessions: a player away (with the countdown to the
bot), the bot playing for them (its moves marked in the log and in the save), their return; the turn
alert on the wire (BEL and the window title) and its switch; spectators and watchers; and server
notices that no player's name can imitate (checked on the raw bytes another player receives)."""

from __future__ import annotations

import asyncio
import random
import re
import time

import asyncssh
import pytest
from game_helpers import CTRL_Q, Screen, app_keys, prompt_ready, start_game_server, wait_until

from server.storage.savelog import read_save_file
from ui.i18n import Catalogue
from ui.lobby_link import TableSpec

TITLE = "\x1b]2;Citadels · your move\x07".encode()
ALERT = b"\x07\x1b[22;2t" + TITLE  # BEL, the terminal's title saved, then ours


async def session(gs, open_terminal, name: str, key, size=(120, 40), wait: str = "Citadels · lobby"):
    screen = Screen(await open_terminal(gs.server, username=name, key=key, size=size))
    await screen.wait_for(wait)
    fp = key.get_fingerprint("sha256")
    return screen, next(s for s in gs.lobby.sessions if s.key == fp)


async def play_seat_until(gs, table, seat: int, key: str, screen: Screen, done, timeout: float = 60.0) -> None:
    """Answer `seat`'s decisions with keys (and keep reading the screen) until `done()`."""
    cat, rng = Catalogue("en"), random.Random(5)
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "not reached in time"
        st = table.state
        if st.phase == "over":
            return
        if st.pending.seat == seat and prompt_ready(gs.app_of(key), st.seq):
            seq = st.seq
            screen.send(app_keys(gs.app_of(key), cat, rng))
            await wait_until(lambda: table.state.seq != seq or table.state.phase == "over", what="the move")
        else:
            await screen.pump(0.02)


@pytest.mark.slow  # a 3 s countdown watched in real time (test_game_timers.py checks the bot taking the seat in the fast tier)
async def test_away_countdown_then_a_bot_plays_for_them_marked_then_they_return(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, idle_wait_seconds=3.0)
    try:
        ka, kb = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
        fa, fb = (k.get_fingerprint("sha256") for k in (ka, kb))
        a, alice = await session(gs, open_terminal, "alice", ka)
        b, bob = await session(gs, open_terminal, "bob", kb)
        table = gs.lobby.create(alice, TableSpec(players=3, bots=1))
        gs.lobby.join(bob, table.id)
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await a.wait_for("Your hand")
        await b.wait_for("Your hand")
        seat_a, seat_b = table.seat_of(fa), table.seat_of(fb)
        a.mark()
        b.term.close()
        app = gs.app_of(fa)

        def notices() -> list[str]:
            return [r.text for r in app.table.query_one("#log").rows if r.tag == "»"]

        # alice sees bob away, with the countdown to the bot on his seat, and the notice in the log
        text = await a.wait_for("bob [away: a bot in ", timeout=10)
        assert re.search(r"bob \[away: a bot in [1-3] s\]", text), text[-2000:]
        await a.wait_for("» bob is away", timeout=5)
        assert "bob is away: a bot plays for them in 3 s unless they return." in notices()
        # the countdown counts down on screen
        await a.wait_for("bob [away: a bot in 1 s]", timeout=5)
        # then the bot plays for him: on his seat and in the log
        await a.wait_for("[a bot plays for bob]", timeout=5)
        await wait_until(lambda: "A bot plays for bob until they return." in notices(), what="the notice")
        assert app.table.feedback.marks[seat_b].state == "bot_for"
        # alice plays on; the bot's moves for bob are marked in her log and in the save
        save = table.save.save
        await play_seat_until(gs, table, seat_a, fa, a, lambda: len(save.seats[seat_b].bot_played) >= 2)
        await a.wait_for("[bot]", timeout=5)
        assert any(r.tag.startswith("[bot]") for r in app.table.query_one("#log").rows)
        assert save.seats[seat_a].bot_played == [] and save.seats[seat_b].bot_played
        for n in save.seats[seat_b].bot_played:
            assert save.log[n - 1].seat == seat_b
        # what is on disk says the same once the game is read back
        table.save.snapshot()
        back = read_save_file(gs.store.save_path(table.id))
        assert back.seats[seat_b].bot_played == save.seats[seat_b].bot_played
        # bob returns: his seat, the notice, and the mark gone from alice's screen
        a.mark()
        b2, bob2 = await session(gs, open_terminal, "bob", kb, wait="Your hand")
        await a.wait_for("» bob is back.", timeout=10)
        await wait_until(lambda: app.table.feedback.marks[seat_b].state == "here", what="bob here on alice's screen")
        assert table.seats[seat_b].client is bob2
        # his own screen shows what the bot did for him, marked
        await wait_until(lambda: gs.app_of(fb) is not None and gs.app_of(fb).view is not None, what="bob's view")
        rows = gs.app_of(fb).table.query_one("#log").rows
        assert any(r.tag.startswith("[bot]") for r in rows)
    finally:
        await gs.close()


async def settle(screen: Screen) -> None:
    """Read until the output has been quiet for a moment (a screen's first frames are tens of KB)."""
    quiet = 0
    while quiet < 3:
        n = len(screen.raw)
        await screen.pump(0.1)
        quiet = quiet + 1 if len(screen.raw) == n else 0


async def _to_alice_decision(gs, table, seat, key, screen) -> None:
    await wait_until(
        lambda: table.state.pending.seat == seat and prompt_ready(gs.app_of(key), table.state.seq),
        timeout=20,
        what="alice's decision",
    )
    await settle(screen)


@pytest.mark.slow  # over SSH: turns played until the alert rings, then switched off and played again
async def test_turn_alert_rings_and_sets_the_title_and_is_silent_when_switched_off(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        ka = asyncssh.generate_private_key("ssh-ed25519")
        fa = ka.get_fingerprint("sha256")
        a, alice = await session(gs, open_terminal, "alice", ka)
        a.mark()
        table = gs.lobby.create(alice, TableSpec(players=3, bots=2))
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        seat = table.seat_of(fa)
        await _to_alice_decision(gs, table, seat, fa, a)
        raw = bytes(a.raw[a.term._mark :])
        assert ALERT in raw, raw[-400:]
        assert gs.app_of(fa).alerts_given == 1
        # she moves: the title goes back (the terminal's own, from its title stack)
        cat, rng = Catalogue("en"), random.Random(3)
        a.mark()
        seq = table.state.seq
        a.send(app_keys(gs.app_of(fa), cat, rng))
        await wait_until(lambda: table.state.seq != seq, what="her move")
        await wait_until(lambda: b"\x1b[23;2t" in bytes(a.raw[a.term._mark :]) or table.state.pending.seat == seat)
        # the table menu switches the alert off
        await _to_alice_decision(gs, table, seat, fa, a)
        a.mark()
        a.send(CTRL_Q)
        text = await a.wait_for("Turn alert")
        line = next(ln for ln in text.splitlines() if "Turn alert" in ln)
        # the table menu is a form: a number moves to its row, Enter does it
        a.send(re.search(r"([0-9]) Turn alert", line).group(1).encode() + b"\r")
        await a.wait_for("off; switch it on")
        assert gs.app_of(fa).options.alerts is False
        a.send(b"\x1b")  # close the menu
        await asyncio.sleep(0.2)
        # from now on: decisions come, and no bell or title reaches her terminal
        a.mark()
        given = gs.app_of(fa).alerts_given
        for _ in range(2):
            seq = table.state.seq
            if table.state.pending.seat == seat and prompt_ready(gs.app_of(fa), seq):
                a.send(app_keys(gs.app_of(fa), cat, rng))
                await wait_until(lambda: table.state.seq != seq, what="her move")
            await _to_alice_decision(gs, table, seat, fa, a)
        raw = bytes(a.raw[a.term._mark :])
        assert b"\x07" not in raw and b"\x1b]2;" not in raw, raw[-400:]
        assert gs.app_of(fa).alerts_given == given
    finally:
        await gs.close()


async def test_spectator_is_told_they_watch_and_players_see_the_watchers(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        ka, kc = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
        a, alice = await session(gs, open_terminal, "alice", ka, size=(80, 24))
        c, carol = await session(gs, open_terminal, "carol", kc, size=(80, 24))
        table = gs.lobby.create(alice, TableSpec(players=3, bots=2))
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await a.wait_for("Your hand")
        a.mark()
        assert carol.watch(table.id) is None
        await c.wait_for("You are watching", timeout=10)
        assert gs.app_of(carol.key).view.seat is None
        await a.wait_for("1 watching", timeout=10)
        # the spectator leaves: the players' count goes
        a.mark()
        carol.to_lobby()
        await wait_until(lambda: gs.app_of(alice.key).table.feedback.watchers == 0, what="no watcher")
    finally:
        await gs.close()


SGR = re.compile(rb"\x1b\[([0-9;:]*)m")


def style_before(raw: bytes, at: int) -> bytes:
    """The last SGR sequence before byte `at` (what the text at `at` is drawn with)."""
    last = b""
    for m in SGR.finditer(raw, 0, at):
        last = m.group(1)
    return last


async def test_a_player_named_star_cannot_imitate_a_notice(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path, idle_wait_seconds=60.0)
    try:
        ka, ks, kb = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
        fb = kb.get_fingerprint("sha256")
        a, alice = await session(gs, open_terminal, "alice", ka, size=(140, 40))
        s, star = await session(gs, open_terminal, "*", ks)
        b, bob = await session(gs, open_terminal, "bob", kb)
        author = star.name  # what the server made of "*" (a name needs a letter or digit: engine/text.py)
        assert author != "*" and not author.startswith("»")
        table = gs.lobby.create(alice, TableSpec(players=3, bots=0))
        gs.lobby.join(star, table.id)
        gs.lobby.join(bob, table.id)
        gs.lobby.start(alice)
        await wait_until(lambda: table.phase == "playing", what="start")
        await a.wait_for("Your hand")
        seat_b = table.seat_of(fb)
        b.term.close()
        await a.wait_for("bob is away", timeout=10)
        # "*" writes the very sentence the table says when a player returns...
        fake = "bob is back."
        a.mark()
        star.chat(fake)
        await a.wait_for(f"{author}: {fake}", timeout=5)
        # ...then bob really returns: the table's notice
        await session(gs, open_terminal, "bob", kb, wait="Your hand")
        await wait_until(lambda: table.seats[seat_b].client is not None, what="bob back")
        await a.wait_for("» " + fake, timeout=5)
        await a.pump(0.3)
        raw = bytes(a.raw[a.term._mark :])
        # on alice's terminal the player's line is "name: ..." with a plain bold name, the notice "» ..." with a
        # reversed badge: the bytes differ, whatever name a player takes
        between = rb"(?:\x1b\[[0-9;:]*m)*"  # style changes between the badge or name and the text
        star_at = re.search(
            re.escape(f"{author}:".encode()) + between + rb" " + between + re.escape(fake.encode()), raw
        ).start()
        notice_at = re.search("»".encode() + between + rb" " + between + re.escape(fake.encode()), raw).start()
        star_style, notice_style = style_before(raw, star_at), style_before(raw, notice_at)
        assert b"7" in notice_style.split(b";"), notice_style  # the badge is drawn reversed
        assert b"7" not in star_style.split(b";"), star_style  # a player's name never is
        assert f"» {author}" not in a.text() and f"{author}: »" not in a.text()
        # the chat panel holds only the player's line; the notice is in the game log
        app = gs.app_of(alice.key)
        chat_rows = [(r.tag, r.text) for r in app.table.query_one("#chat-lines").rows]
        assert (f"{author}:", fake) in chat_rows and not any(tag == "»" for tag, _ in chat_rows)
        log_rows = [(r.tag, r.text) for r in app.table.query_one("#log").rows]
        assert ("»", fake) in log_rows and (f"{author}:", fake) not in log_rows
    finally:
        await gs.close()
