"""ui/compat/direct_paint.py paints what Textual's own frames would have shown.

Two sets of game screens (as served: `CitadelsApp` with the chat, the server's SSH driver, the
client's synchronized-output answer) take in the same recorded game, one painting changed lines
directly, the other the usual way (`direct_paint.switch_off`). Every byte each app sends is fed to
a terminal model (tests/ui/term_screen.py); after every move each seat's two screens must be the
same, cell by cell (characters and SGR codes). On the way: chat lines, a help screen pushed on top
(direct painting must not reach the table under it), a notification over the panels (the widgets
under it are refreshed instead), and the client not reading for a few moves (the driver drops
frames, direct ones included, then repaints in full).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from typing import Any

import pytest
from driver_link import DriverLink
from term_screen import TermScreen
from ui_helpers import served_info

from engine import GameConfig, apply, legal_commands, new_game, redact_events, view
from engine.bots.random_bot import RandomBot
from server.config import ServerConfig
from server.transport.app_setup import prepare_app
from server.transport.client_env import color_system_for
from server.transport.driver import SSHDriver
from server.transport.input_budget import InputBudget
from ui import CitadelsApp, UiOptions, ViewUpdate, compat
from ui.compat import direct_paint, layout_patch
from ui.compat.served_app import queued_messages
from ui.link import ChatLine

if "direct_paint" not in compat.apply():  # never skipped: this test verifies a version
    pytest.fail(compat.why_not_applied("direct_paint"), pytrace=False)

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox"]
SYNC_ANSWER = b"\x1b[?2026;1$y"  # the client supports synchronized output (DECRPM)


def _channel(screen: TermScreen) -> DriverLink:
    """What the driver needs of an SSH session; the output goes to a terminal model."""
    link = DriverLink(lambda data: screen.feed(data.decode("utf-8")))
    link.screen = screen  # type: ignore[attr-defined]
    return link


def record_game(players: int, seed: int) -> list[list[tuple[Any, list[Any]]]]:
    g, events = new_game(GameConfig(players=NAMES[:players], preset="first-game", seed=seed))
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    out = [[(view(g, s), redact_events(events, s)) for s in range(players)]]
    while g.phase != "over":
        s = g.pending.seat
        ev = apply(g, bots[s].choose(legal_commands(g, s), view(g, s)))
        out.append([(view(g, t), redact_events(ev, t)) for t in range(players)])
    return out


def start_app(seat: int, size: tuple[int, int], tasks: list) -> tuple[CitadelsApp, DriverLink]:
    limits = ServerConfig()
    colours = color_system_for("xterm-256color", None)
    info = served_info(NAMES[seat], seat, size, colours)
    app = CitadelsApp(None, UiOptions(name=NAMES[seat], show_chat=True, show_scores_at_end=False))
    channel = _channel(TermScreen(*size))
    driver = functools.partial(SSHDriver, link=channel, limits=limits, budget=InputBudget(limits), color_system=colours)
    prepare_app(app, info, driver)
    run = app.run_async(size=size, mouse=True)
    tasks.append(asyncio.get_running_loop().create_task(run, context=contextvars.Context()))
    return app, channel


async def settle(apps: list[CitadelsApp]) -> None:
    """Until no app has messages queued across a few frames' time."""
    quiet = 0
    for _ in range(300):
        await asyncio.sleep(0.02)
        quiet = quiet + 1 if not any(queued_messages(a) for a in apps) else 0
        if quiet >= 3:
            return
    raise AssertionError(
        f"the apps never settled: {[(queued_messages(a), getattr(a, '_exception', None)) for a in apps]}"
    )


async def table_screens_ready(started: list[tuple[CitadelsApp, DriverLink]]) -> None:
    """Until every app shows its table screen, told the client supports synchronized output."""
    apps = [a for a, _ in started]
    for _ in range(500):
        if all(a.is_running and a.table.is_mounted for a in apps):
            break
        await asyncio.sleep(0.01)
    for _, channel in started:
        channel.driver.feed_input(SYNC_ANSWER)
    await settle(apps)


def differences(a: TermScreen, b: TermScreen) -> list[str]:
    out = []
    for y, (ra, rb) in enumerate(zip(a.cells, b.cells)):
        if ra != rb:
            cols = [x for x, (ca, cb) in enumerate(zip(ra, rb)) if ca != cb]
            out.append(f"row {y} cols {cols[:6]}: {''.join(c for c, _ in ra)!r} / {''.join(c for c, _ in rb)!r}")
    return out


MODAL = range(8, 14)  # a help screen on top
TOAST = range(18, 26)  # a notification over the panels
BLOCKED = range(30, 34)  # the client does not read


@pytest.mark.parametrize(
    "size,seats,seed,moves",
    [
        pytest.param((80, 24), 4, 3, 40),  # the fast tier: each case once
        pytest.param((120, 40), 6, 7, 10_000, marks=pytest.mark.slow),  # whole games
        pytest.param((80, 24), 5, 11, 10_000, marks=pytest.mark.slow),
    ],
)
async def test_direct_paint_shows_what_textual_would(size, seats, seed, moves):
    game = record_game(seats, seed)[: moves + 1]
    tasks: list = []
    direct = [start_app(s, size, tasks) for s in range(seats)]
    usual = [start_app(s, size, tasks) for s in range(seats)]
    for app, _ in usual:
        direct_paint.switch_off(app)
        layout_patch.switch_off(app)  # and laid out as Textual does (ui/compat/layout_patch.py)
    apps = [a for a, _ in direct + usual]
    pairs = list(zip(direct, usual))
    try:
        await table_screens_ready(direct + usual)
        paints = dict(direct_paint.STATS)
        seen = {"direct_in_modal": 0, "fallback_in_toast": 0, "dropped": 0}
        for n, move in enumerate(game):
            for app in apps:
                if n == MODAL.start:
                    app.call_later(app.action_help)
                elif n == MODAL.stop:
                    app.call_later(app.pop_screen)
                elif n == TOAST.start:
                    app.call_later(functools.partial(app.notify, "A notice over the panels", timeout=120))
                elif n == TOAST.stop:
                    app.call_later(app.clear_notifications)
                if n % 5 == 3:
                    app.post_message(ChatLine("Ana", f"chat line {n}"))
            for (_, ch), (_, ch2) in pairs:
                if n == BLOCKED.start:
                    ch.driver.pause_output()
                    ch2.driver.pause_output()
                elif n == BLOCKED.stop:
                    ch.driver.resume_output()
                    ch2.driver.resume_output()
            await settle(apps)
            before = dict(direct_paint.STATS)
            for ((app, _), (app2, _)), (v, ev) in zip(pairs, move):
                app.post_message(ViewUpdate(v, ev))
                app2.post_message(ViewUpdate(v, ev))
            await settle(apps)
            if n in MODAL and n > MODAL.start:
                seen["direct_in_modal"] += direct_paint.STATS["direct"] - before["direct"]
            if n in TOAST and n > TOAST.start:
                seen["fallback_in_toast"] += direct_paint.STATS["fallback_widgets"] - before["fallback_widgets"]
            for seat, ((_, ch), (_, ch2)) in enumerate(pairs):
                if differences(ch.screen, ch2.screen):
                    # the usual path's frame can come later than the queues show (its screen's update timer)
                    await asyncio.sleep(0.3)
                    await settle(apps)
                diff = differences(ch.screen, ch2.screen)
                assert not diff, f"move {n}, seat {seat}:\n" + "\n".join(diff)
                assert ch.screen.sync_depth == 0
            if n % 10 == 9:  # a full repaint of the directly painted screens changes nothing
                before_repaint = [ch.screen.snapshot() for _, ch in direct]
                for app, _ in direct:
                    app.call_later(app.screen.refresh)
                await settle(apps)
                assert [ch.screen.snapshot() for _, ch in direct] == before_repaint, f"move {n}"
        seen["dropped"] = sum(ch.driver.frames_dropped for (_, ch), _ in pairs)
        painted = direct_paint.STATS["direct"] - paints["direct"]
        # the help screen hid the table: nothing painted directly under it; the toast made some widgets fall back
        assert seen["direct_in_modal"] == 0
        assert seen["fallback_in_toast"] > 0 or len(game) <= TOAST.start + 1
        assert seen["dropped"] > 0
        assert painted > len(game) * seats // 2  # most seat updates were painted directly
        assert all(ch.screen.updates > 0 for (_, ch), _ in pairs)  # in synchronized updates
        assert NAMES[0] in direct[0][1].screen.text()
        print(seen, painted)
    finally:
        for app in apps:
            app.exit()
        await asyncio.gather(*tasks, return_exceptions=True)
