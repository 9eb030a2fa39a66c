"""A player's keys show what Textual's own frames would have shown.

A key that sends a command leaves the prompt's redraw to the table's answer (`PromptPanel`: the
highlight moved to the chosen entry is drawn with the new view, or alone a frame's time later), and
a key that opens or leaves a menu paints the footer with the prompt (`TableKeys._footer_after`).
Two sets of game screens (as served: the SSH driver, a terminal model, as tests/ui/test_direct_paint.py)
play the same game by keys (tests/server/game_helpers.key_path, as the server benchmark presses them):
one as shipped, the other drawing the usual way (`direct_paint.switch_off`, every redraw at once;
`layout_patch.switch_off`, Textual's two reflows for a layout change; `direct_keys.switch_off`,
keys routed through Textual's queues).
After every move each seat's two screens must be the same, cell by cell; every few moves the
answer waits past a frame's time first (the highlight drawn alone), and the screens are compared
before it too.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from term_screen import TermScreen
from test_direct_paint import SYNC_ANSWER, _channel, differences, settle
from ui_helpers import served_info

from engine import GameConfig, apply, new_game, redact_events, view
from server.config import ServerConfig
from server.transport.app_setup import prepare_app
from server.transport.client_env import color_system_for
from server.transport.driver import SSHDriver
from server.transport.input_budget import InputBudget
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.compat import direct_keys, direct_paint, layout_patch
from ui.i18n import Catalogue
from ui.prompt_keys import Numbering
from ui.widgets.prompt import PromptPanel

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.server.game_helpers import key_path

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox"]
# keys at machine speed (as tests/server/game_helpers.machine_speed_config)
LIMITS = ServerConfig(input_cpu_share=1.0, key_rate_per_second=1e6, key_burst=1_000_000)


class Link:
    """The seat's table: the commands its app sends."""

    def __init__(self) -> None:
        self.commands: list[Any] = []

    def send(self, command: Any) -> None:
        self.commands.append(command)


def start_app(seat: int, size: tuple[int, int], tasks: list) -> tuple[CitadelsApp, Any, Link]:
    colours = color_system_for("xterm-256color", None)
    info = served_info(NAMES[seat], seat, size, colours)
    link = Link()
    app = CitadelsApp(link, UiOptions(name=NAMES[seat], show_chat=True, show_scores_at_end=False))
    channel = _channel(TermScreen(*size))
    driver = functools.partial(SSHDriver, link=channel, limits=LIMITS, budget=InputBudget(LIMITS), color_system=colours)
    prepare_app(app, info, driver)
    tasks.append(
        asyncio.get_running_loop().create_task(app.run_async(size=size, mouse=True), context=contextvars.Context())
    )
    return app, channel, link


def app_pairs(seats: int, size: tuple[int, int], tasks: list) -> tuple[list, list]:
    """Two served apps a seat, (shipped, usual): the seats' pairs and all the apps."""
    shipped = [start_app(s, size, tasks) for s in range(seats)]
    usual = [start_app(s, size, tasks) for s in range(seats)]
    return list(zip(shipped, usual)), [a for a, _, _ in shipped + usual]


async def until(predicate, what: str) -> None:
    for _ in range(2000):
        if predicate():
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"{what} never came")


def compare(pairs: list, when: str) -> None:
    for seat, ((_, ch, _), (_, ch2, _)) in enumerate(pairs):
        diff = differences(ch.screen, ch2.screen)
        assert not diff, f"{when}, seat {seat}:\n" + "\n".join(diff)


@pytest.mark.parametrize(
    "size,seats,seed,moves",
    [
        pytest.param((80, 24), 4, 3, 60),  # the fast tier
        pytest.param((120, 40), 6, 7, 10_000, marks=pytest.mark.slow),  # whole games
        pytest.param((80, 24), 5, 11, 10_000, marks=pytest.mark.slow),
    ],
)
async def test_keys_show_what_textual_would(size, seats, seed, moves):
    g, events = new_game(GameConfig(players=NAMES[:seats], preset="first-game", seed=seed))
    cat, rng = Catalogue("en"), random.Random(seed)
    numbers = [Numbering() for _ in range(seats)]  # as each seat's screen numbers its entries
    tasks: list = []
    pairs, apps = app_pairs(seats, size, tasks)
    try:
        await until(lambda: all(a.is_running and a.table.is_mounted for a in apps), "the table screens")
        for _, (app, _, _) in pairs:
            direct_paint.switch_off(app)
            layout_patch.switch_off(app)
            direct_keys.switch_off(app)
            app.table.query_one(PromptPanel).sent_redraw_seconds = 0
        for pair in pairs:
            for _, channel, _ in pair:
                channel.driver.feed_input(SYNC_ANSWER)
        move = [(view(g, s), redact_events(events, s)) for s in range(seats)]
        seen = {"keys": 0, "answered_first": 0, "drawn_alone": 0}
        taken_before = direct_keys.STATS["taken"]
        for n in range(moves + 1):
            for ((app, _, _), (app2, _, _)), (v, ev) in zip(pairs, move):
                app.post_message(ViewUpdate(v, ev))
                app2.post_message(ViewUpdate(v, ev))
            await settle(apps)
            compare(pairs, f"move {n}")
            if g.phase == "over":
                break
            seat = g.pending.seat
            (app, ch, link), (_, ch2, link2) = pairs[seat]
            if not link.commands:  # (else a plan's next command, sent as the view came)
                keys, expected = key_path(view(g, seat), cat, rng, numbers[seat])
                seen["keys"] += 1
                ch.driver.feed_input(keys)
                ch2.driver.feed_input(keys)
                await until(lambda: link.commands and link2.commands, f"move {n}'s command")
                assert link.commands[0] == link2.commands[0] == expected
                if app.table.query_one(PromptPanel)._held:
                    seen["answered_first"] += 1  # the highlight waits for the answer
                if n % 5 == 2:  # the answer comes late: the highlight is drawn alone
                    await asyncio.sleep(0.1)
                    await settle(apps)
                    seen["drawn_alone"] += not app.table.query_one(PromptPanel)._held
                    compare(pairs, f"move {n}, before the answer")
            else:
                await until(lambda: link2.commands, f"move {n}'s plan command")
            command = link.commands.pop(0)
            assert command == link2.commands.pop(0)
            events = apply(g, command)
            move = [(view(g, s), redact_events(events, s)) for s in range(seats)]
        seen["called_directly"] = direct_keys.STATS["taken"] - taken_before  # (the shipped screens' keys)
        assert seen["keys"] > 20 and seen["answered_first"] > 10 and seen["drawn_alone"] > 3, seen
        assert seen["called_directly"] >= seen["keys"], seen
        print(seen)
    finally:
        for app in apps:
            app.exit()
        await asyncio.gather(*tasks, return_exceptions=True)
