"""A PTY client sees a served app, drives it with keys, resizes it, closes it."""

from __future__ import annotations

import asyncio
import random
import re
import time

import asyncssh
import pytest

from server.transport.client_env import color_system_for


async def test_pty_client_sees_the_app(start, open_terminal, client_key, infos):
    server = await start()
    term = await open_terminal(server, username="alice", size=(80, 24))
    text = await term.wait_for("size: 80x24")
    assert "user: alice" in text
    fingerprint = client_key.get_fingerprint("sha256")
    assert f"identity: key {fingerprint}" in text
    # The app's output is a full-screen session: alternate screen, hidden cursor.
    assert b"\x1b[?1049h" in term.raw and b"\x1b[?25l" in term.raw
    info = infos[0]
    assert (info.username, info.key_fingerprint, info.is_guest) == ("alice", fingerprint, False)
    assert info.peer_host == "127.0.0.1" and info.term == "xterm-256color"
    assert info.size == (80, 24) and info.color_system == "256"


async def test_key_press_changes_the_screen(start, open_terminal):
    server = await start()
    term = await open_terminal(server)
    await term.wait_for("last key: (none yet)")
    for key, shown in (
        (b"x", "last key: x"),
        (b"Q", "last key: Q"),
        (b"\x1b[A", "last key: up"),
        (b"\r", "last key: enter"),
    ):
        term.mark()
        term.send(key)
        await term.wait_for(shown)


async def test_lone_escape_is_resolved_without_more_input(start, open_terminal):
    server = await start()
    term = await open_terminal(server)
    await term.wait_for("last key: (none yet)")
    term.mark()
    term.send(b"\x1b")
    await term.wait_for("last key: escape", timeout=5)


async def test_utf8_split_across_packets(start, open_terminal):
    server = await start()
    term = await open_terminal(server)
    await term.wait_for("last key: (none yet)")
    encoded = "é".encode()
    term.mark()
    term.send(encoded[:1])
    await asyncio.sleep(0.05)  # two SSH packets, not a timing assertion
    term.send(encoded[1:])
    await term.wait_for("last key: é")


async def test_window_change_resizes_that_app_only(start, open_terminal):
    server = await start()
    first = await open_terminal(server, size=(80, 24))
    second = await open_terminal(server, size=(90, 30))
    await first.wait_for("size: 80x24")
    await second.wait_for("size: 90x30")
    first.mark()
    second.mark()
    first.resize(100, 40)
    await first.wait_for("size: 100x40")
    # The other session got no resize: press a key there and check its size line.
    second.send(b"k")
    text = await second.wait_for("last key: k")
    assert "size: 100x40" not in text


async def test_window_sizes_are_clamped(start, open_terminal, infos):
    server = await start(max_term_width=120, max_term_height=50)
    term = await open_terminal(server, size=(5000, 3000))
    await term.wait_for("size: 120x50")
    assert infos[0].size == (120, 50)
    term.mark()
    term.resize(0, 0)  # a zero size means "unknown": 80x24
    await term.wait_for("size: 80x24")


async def test_colours_follow_the_client(start, open_terminal, infos):
    server = await start()
    term = await open_terminal(server, term="xterm", env={"COLORTERM": "truecolor", "LANG": "es_ES.UTF-8"})
    await term.wait_for("colours: truecolor")
    assert infos[0].lang == "es_ES.UTF-8"
    assert color_system_for("xterm-256color", None) == "256"
    assert color_system_for("xterm", None) == "standard"
    assert color_system_for("xterm-kitty", None) == "truecolor"
    assert color_system_for("dumb", None) is None


async def test_each_client_gets_its_own_colour_system(start, open_terminal):
    server = await start()
    terminals = {
        "truecolor": await open_terminal(server, env={"COLORTERM": "truecolor"}),
        "256": await open_terminal(server, term="xterm-256color"),
        "standard": await open_terminal(server, term="xterm"),
        "none": await open_terminal(server, term="dumb"),
    }
    for name, term in terminals.items():
        await term.wait_for("╯")
        sgr = b" ".join(re.findall(rb"\x1b\[[0-9;]*m", bytes(term.raw)))
        has_rgb, has_256 = b"8;2;" in sgr, b"8;5;" in sgr
        expected = {
            "truecolor": (True, False),
            "256": (False, True),
            "standard": (False, False),
            "none": (False, False),
        }
        assert (has_rgb, has_256) == expected[name], (name, sgr[:300])
    assert re.search(rb"\x1b\[[0-9;]*(3[0-7]|9[0-7])[;m]", bytes(terminals["standard"].raw))
    assert not re.search(rb"\x1b\[[0-9;]*(3[0-7]|9[0-7]|4[0-7]|10[0-7])[;m]", bytes(terminals["none"].raw))


def test_colour_downgrade_matches_rich():
    from rich.color import ColorSystem
    from rich.style import Style

    from server.transport.colour import make_colour_downgrade

    frame = "\x1b[1;38;2;254;166;43;48;2;18;18;18mX\x1b[0m"
    for name, system in (("256", ColorSystem.EIGHT_BIT), ("standard", ColorSystem.STANDARD)):
        expected = Style(bold=True, color="#fea62b", bgcolor="#121212").render("X", color_system=system)
        assert make_colour_downgrade(name)(frame) == expected
    assert make_colour_downgrade(None)(frame) == "\x1b[1mX\x1b[0m"
    assert make_colour_downgrade(None)("\x1b[38;2;1;2;3mX") == "X"
    assert make_colour_downgrade("truecolor") is None


async def test_no_color_from_the_client_removes_colour(start, open_terminal):
    server = await start()
    coloured = await open_terminal(server, env={"COLORTERM": "truecolor"})
    plain = await open_terminal(server, env={"COLORTERM": "truecolor", "NO_COLOR": "1"})
    await coloured.wait_for("size: 80x24")
    await plain.wait_for("size: 80x24")
    await coloured.wait_for("╯")
    await plain.wait_for("╯")
    # Textual renders NO_COLOR as monochrome: every RGB colour is a grey.
    assert any(len(set(rgb)) > 1 for rgb in _rgb_colours(coloured.raw))
    greys = _rgb_colours(plain.raw)
    assert greys and all(len(set(rgb)) == 1 for rgb in greys)


def _rgb_colours(raw: bytes) -> list[tuple[int, int, int]]:
    return [tuple(map(int, m)) for m in re.findall(rb"[34]8;2;(\d+);(\d+);(\d+)", bytes(raw))]


@pytest.mark.slow  # a fuzz: thousands of random bytes, each a key the app handles
async def test_garbage_input_does_not_break_the_session_or_server(start, open_terminal):
    # Limits as good as none: this is about the parser (the limits: test_transport_fair_input.py).
    server = await start(key_rate_per_second=1e6, key_burst=1_000_000, input_cpu_share=1.0)
    term = await open_terminal(server)
    await term.wait_for("last key: (none yet)")
    rng = random.Random(7)

    def noise(n: int) -> bytes:  # random bytes, except ctrl+q (which quits, rightly)
        return bytes(b for b in (rng.randrange(256) for _ in range(n)) if b != 0x11)

    junk = [
        b"\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc",  # invalid UTF-8
        b"\x1b[" + b"9" * 200 + b"M",  # absurd CSI
        b"\x1b[<999999;-5;-7M\x1b[<0;0;0m",  # odd mouse reports
        b"\x1b]52;c;" + noise(64) + b"\x07",
        b"\x1b\x1b\x1b[\x1bO\x00\x00\x7f",
        b"\x1b[200~" + noise(300) + b"\x1b[201~",
        noise(4000),
    ]
    for chunk in junk:
        term.send(chunk)
    await asyncio.sleep(0.3)  # let the escape delay pass; not a timing assertion
    term.mark()
    term.send(b"z")
    await term.wait_for("last key: z")
    # The server still serves new sessions.
    other = await open_terminal(server)
    await other.wait_for("last key: (none yet)")


async def test_ctrl_q_ends_the_session(start, open_terminal, wait_until):
    server = await start()
    term = await open_terminal(server)
    await term.wait_for("size: 80x24")
    term.send(b"\x11")  # ctrl+q: the app exits
    await term.read_to_end()
    await asyncio.wait_for(term.process.wait_closed(), 5)
    assert term.process.exit_status == 0
    assert b"\x1b[?1049l" in term.raw  # back from the alternate screen
    await wait_until(lambda: server.session_count == 0, what="session removed")


async def test_app_code_closes_its_session_with_a_message(start, open_terminal, infos):
    server = await start()
    term = await open_terminal(server)
    await term.wait_for("size: 80x24")
    infos[0].close("Table closed: thanks for playing.")
    text = await term.read_to_end()
    assert "Table closed: thanks for playing." in text
    await asyncio.wait_for(term.process.wait_closed(), 5)
    assert term.process.exit_status == 0


async def test_client_disconnect_ends_the_app(start, open_terminal, wait_until):
    server = await start()
    term = await open_terminal(server)
    await term.wait_for("size: 80x24")
    assert server.session_count == 1
    term.close()
    await wait_until(lambda: server.session_count == 0, what="session removed")
    await wait_until(lambda: server.connection_count == 0, what="connection removed")


async def test_app_crash_is_contained(start, open_terminal):
    def broken_factory(info):
        raise RuntimeError("factory failed")

    server = await start(app_factory=broken_factory)
    term = await open_terminal(server)
    text = await term.read_to_end()
    assert "internal error" in text
    await asyncio.wait_for(term.process.wait_closed(), 5)
    assert term.process.exit_status == 1
    assert server.session_count == 0


async def test_second_channel_on_one_connection_is_refused(start, connect):
    server = await start()
    conn = await connect(server)
    await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    try:
        await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    except asyncssh.ChannelOpenError as error:
        assert "one session per connection" in error.reason
    else:  # pragma: no cover
        raise AssertionError("a second session channel was accepted")


async def test_an_app_that_crashes_is_logged_plainly_not_rendered(start, open_terminal, caplog):
    from textual.events import Key

    from server.transport.demo_app import DemoApp

    class Crashing(DemoApp):
        def on_key(self, event: Key) -> None:
            raise RuntimeError("the screen broke")

    server = await start(app_factory=Crashing)
    term = await open_terminal(server)
    await term.wait_for("size: 80x24")
    t0 = time.perf_counter()
    term.send("x")
    text = await term.read_to_end()
    assert "internal error" in text
    assert term.process.exit_status == 1
    # Textual's rich traceback (syntax-highlighted source, locals) is never rendered on the loop.
    assert time.perf_counter() - t0 < 2.0
    errors = [r for r in caplog.records if r.levelname == "ERROR" and "app failed" in r.getMessage()]
    assert len(errors) == 1 and "the screen broke" in str(errors[0].exc_info[1])
