"""A whole game through real SSH: two players create and join a table in the lobby, a bot fills the
third seat, and the game is played to the end by key presses; each screen showed only its own hand."""

from __future__ import annotations

import asyncio
import random

import asyncssh
import pytest
from game_helpers import (
    HandWatch,
    Screen,
    create_table,
    drain,
    plain,
    plain_offsets,
    play_to_end,
    start_game_server,
    wait_until,
)


@pytest.fixture
async def gs(tmp_path):
    server = await start_game_server(tmp_path)
    yield server
    await server.close()


@pytest.mark.slow  # a whole game over SSH
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


def test_hand_watch_cuts_are_exact_wherever_the_reads_end():
    """HandWatch maps the bytes received at each check to a place in the screen's text: exact even when a
    read ended inside an escape sequence or a UTF-8 character (the old sum of separately cleaned pieces
    drifted past the text, up to beyond its end, and then flagged cards that were never shown)."""
    frame = "\x1b[1;1H\x1b[38;2;200;100;50m╭─ Market ─╮\x1b[0m \x1b[2;5HCastle ▶ ñ\x1b]0;title\x07\x1b(B\x1b=end"
    raw = (frame * 3).encode()
    text = plain(raw)
    positions = list(range(len(raw) + 1))
    cuts = plain_offsets(raw, positions)
    assert cuts == sorted(cuts) and cuts[-1] == len(text)
    for pos, cut in zip(positions, cuts):
        shown = plain(raw[:pos])
        assert text[:cut] == shown[:cut]  # a prefix of what the pieces show...
        if pos in (0, len(raw)) or raw[pos : pos + 1] == b"\x1b":
            assert cut == len(shown)  # ...all of it at a clean cut
    # the drift the old computation had: every piece cleaned on its own
    pieces = sum(len(plain(raw[a:b])) for a, b in zip(positions, positions[1:]))
    assert pieces > len(text)
