"""The test helper that plays by keys (game_helpers.key_path) reaches the Magician's last step when
ten cards take every digit (1-9, 0): Enter then, not a digit (a whole game over SSH once stopped
there, the last step never pressed)."""

from __future__ import annotations

import random

from game_helpers import DOWN, ENTER, HOME, key_path

from engine import GameConfig
from engine.scenario.format import load
from engine.scenario.runner import build_state
from ui import CitadelsApp, UiOptions
from ui.i18n import Catalogue
from ui.local_game import LocalTable
from ui.widgets.prompt import PromptPanel

TEN_CARDS = """
title = "Ana, the Magician, with ten cards"
[setup]
crown = "Ana"
turn = "Magician"
[[players]]
name = "Ana"
gold = 2
hand = ["Temple", "Manor", "Castle", "Docks", "Market", "Watchtower", "Church", "Tavern", "Prison", "Harbor"]
characters = ["Magician"]
[[players]]
name = "Ben"
hand = ["Docks", "Market"]
characters = ["King"]
[[players]]
name = "Cid"
characters = ["Warlord"]
"""

NAMES = {HOME: "home", DOWN: "down", ENTER: "enter"}


def _keys(data: bytes) -> list[str]:
    out: list[str] = []
    while data:
        for seq, name in NAMES.items():
            if data.startswith(seq):
                out.append(name)
                data = data[len(seq) :]
                break
        else:
            out.append(chr(data[0]))
            data = data[1:]
    return out


async def test_ten_cards_the_last_step_is_reached_by_enter():
    sc = load(TEN_CARDS, "<test>")
    g, events = build_state(sc)
    table = LocalTable(GameConfig(players=[p.name for p in g.players], seed=1), human_seat=0, bot_delay=0)
    table.state = g
    table._unsent = list(events)
    app = CitadelsApp(table, UiOptions(lang="en", name="Ana"))
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.table.query_one(PromptPanel)
        for _ in range(100):
            await pilot.pause()
            if prompt.menu is not None and prompt.menu.entries and not prompt.sent:
                break
        cat = Catalogue("en")
        for seed in range(200):  # a path through the Magician's cards (the helper chooses at random)
            keys, command = key_path(app.view, cat, random.Random(seed), prompt.numbers)
            if getattr(command, "option", None) == "redraw":
                break
        assert keys.endswith(ENTER), keys  # ten rows take the digits: the last step by Enter
        seq = table.state.seq
        await pilot.press(*_keys(keys))
        for _ in range(100):
            await pilot.pause()
            if table.state.seq != seq:
                break
        assert table.state.seq != seq, [(e.key, e.label.plain) for e in prompt.menu.entries]
