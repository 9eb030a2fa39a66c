"""Clean text through real SSH clients (issue 18, attack 7): every class of control character a
player puts in a chat line (pasted in a real terminal, or however else it reaches the server) is
absent from the bytes the other player's client receives; a player cannot be called "*" or "server"."""

from __future__ import annotations

import unicodedata

import asyncssh
from game_helpers import END, ENTER, UP, Screen, start_game_server, wait_until

from engine.text import clean_name, clean_text, name_problem, strip_controls

C0 = "\x00\x01\x07\x08\x0b\x0c\x0e\x1a\x1c\x1f\x7f"
ESCAPES = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED"
C1 = "\x85\x90\x9b31m\x9d0;PWNED\x9c\x9e\x9f"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
INVISIBLE = "\u200b\u200c\u200d\u2060\u2061\u2064\ufeff\u00ad\u180e\ufff9\ufffb\U000e0001\U000e0041"
OTHER = "\ue000\U000f0000\ufe0f\u3164\u2028\u2029"
CLASSES = {"C0": C0, "escapes": ESCAPES, "C1": C1, "bidi": BIDI, "invisible": INVISIBLE, "other": OTHER}
FORBIDDEN = {c for c in "".join(CLASSES.values()) if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn", "Cs")}
FORBIDDEN |= {"\u3164", "\ufe0f", "\u2028", "\u2029"}  # a blank letter, a variation selector, line separators


def received_text(raw: bytes) -> str:
    """What the client received, escape sequences of the server's own drawing removed."""
    from game_helpers import plain

    return plain(raw)


def assert_clean(raw: bytes, what: str) -> None:
    text = raw.decode("utf-8", "replace")
    assert b"PWNED\x07" not in raw and b"\x1b]0;PWNED" not in raw, what
    drawn = received_text(raw)
    bad = sorted({f"U+{ord(c):04X}" for c in drawn if c in FORBIDDEN and c not in "\r\n"})
    assert not bad, f"{what}: {bad} reached the other client"
    # nothing of the server's own output is a control character other than ESC, CR and LF
    stray = sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) == "Cc" and c not in "\x1b\r\n"})
    assert not stray, f"{what}: {stray}"


def chat_has(session, text: str) -> bool:
    app = session.app
    if app is None or not app.at_table:
        return False
    return any(text in row.text for row in app.table.query_one("#chat-lines").rows)


async def game_of_two(gs, open_terminal) -> tuple:
    ka, kb = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    a = Screen(await open_terminal(gs.server, username="alice", key=ka, size=(120, 40)))
    b = Screen(await open_terminal(gs.server, username="bob", key=kb, size=(120, 40)))
    await a.wait_for("Citadels · lobby")
    await b.wait_for("Citadels · lobby")
    fa, fb = ka.get_fingerprint("sha256"), kb.get_fingerprint("sha256")
    alice = next(s for s in gs.lobby.sessions if s.key == fa)
    bob = next(s for s in gs.lobby.sessions if s.key == fb)
    for s in (alice, bob):  # the turn alert rings the bell (BEL) by design: off, only chat text is looked at here
        s.app.set_alerts(False)
    from ui.lobby_link import TableSpec

    table = gs.lobby.create(alice, TableSpec(players=2, bots=0))
    gs.lobby.join(bob, table.id)
    gs.lobby.start(alice)
    await wait_until(lambda: table.phase == "playing" and alice.at_table and bob.at_table, what="start")
    await a.wait_for("Chat")
    await b.wait_for("Chat")
    return table, a, b, alice, bob


async def test_every_class_of_control_character_in_chat_stays_out_of_the_other_players_bytes(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        table, a, b, alice, bob = await game_of_two(gs, open_terminal)
        # 1. pasted in alice's terminal (bracketed paste: the way such bytes reach a text field)
        for name, chars in CLASSES.items():
            b.mark()
            alice._chat.clear()  # (chat is rate-limited: 5 lines in 5 s)
            line = f"paste{name}<{chars}>end"
            # c enters the chat; Enter sends the line and returns to the game (ui/screens/table_keys.py)
            a.send(b"c\x1b[200~" + line.encode() + b"\x1b[201~" + ENTER)
            # bob's chat has the line (the text field keeps a paste's first line only); on his screen it is
            # wrapped to the chat's width, anywhere in a word this long
            await wait_until(lambda n=name: chat_has(bob, f"paste{n}<"), timeout=10, what=f"pasted {name}")
            await b.pump(0.3)
            assert_clean(bytes(b.raw[b.term._mark :]), f"pasted {name}")
        # 2. whatever a client manages to send: the server's chat entry itself, every class at once
        b.mark()
        for name, chars in CLASSES.items():
            alice._chat.clear()
            alice.chat(f"direct{name}[{chars}]done")
            await b.wait_for(f"direct{name}[")
        await b.pump(0.3)
        assert_clean(bytes(b.raw[b.term._mark :]), "direct")
        assert chat_has(bob, "[2J[31mRED]done")  # the words stay (wrapped to the chat's width), their codes do not
    finally:
        await gs.close()


async def test_a_player_cannot_be_called_star_or_server(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        s = Screen(await open_terminal(gs.server, username="*", key=key, size=(120, 40)))
        await s.wait_for("You: player")  # the SSH user name "*" is refused: a plain name instead
        me = next(x for x in gs.lobby.sessions)
        assert me.name == "player"
        for bad, why in (
            ("*", "at least one letter"),
            ("* server", "starts with a letter"),
            ("Server", "reserved"),
            ("s.e.r.v.e.r", "reserved"),
            ("Host", "reserved"),
            ("Morgana (bot)", "for the bots"),
            ("\u202e\u200b", "at least one letter"),
        ):
            assert why in (me.rename(bad) or ""), bad
            assert me.name == "player"
        # through the keys, too
        await s.pump(0.3)
        s.mark()
        s.send(END + UP + ENTER)  # Change your name… (before Quit)
        await s.wait_for("Your name")
        s.send(b"\x15*" + ENTER)  # Ctrl+U clears the field, then "*"
        await s.wait_for("A name needs at least one letter or digit")
        assert me.rename("ana\u202e\x1b[31m") is None and me.name == "ana[31m"
    finally:
        await gs.close()


def test_the_sanitiser_rules():
    assert clean_text("a\u2028b\u3000c\t\nd") == "a b c d"
    assert clean_text("x" * 400) == "x" * 300
    assert clean_text("e" + "\u0301" * 30) == "é\u0301\u0301"  # NFC, then at most two more marks
    assert clean_name("  Ana   María  ") == "Ana María"
    assert name_problem("Ana María") is None and name_problem("李") is None and name_problem("7up") is None
    assert strip_controls("a  b\n\x1b[2J\u009b c") == "a  b\n[2J c"
    for chars in CLASSES.values():
        assert not FORBIDDEN & set(clean_text(chars)), chars
