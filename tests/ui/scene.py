"""A table at a chosen moment, for Pilot tests: a scenario's set-up (engine/scenario format) played by
one person and bots, so a test starts at a Warlord's turn, a Magician's, an Architect's..."""

from __future__ import annotations

from engine import GameConfig
from engine.scenario.format import load
from engine.scenario.runner import build_state
from ui import CitadelsApp, UiOptions
from ui.local_game import LocalTable
from ui.widgets.prompt import PromptPanel


def scene_app(text: str, human: str, lang: str = "en", **opts) -> tuple[CitadelsApp, LocalTable]:
    """The app of the player named `human` at the state the scenario `text` sets up."""
    sc = load(text, "<test scene>")
    g, events = build_state(sc)
    names = [p.name for p in g.players]
    seat = names.index(human)
    table = LocalTable(GameConfig(players=names, seed=1), human_seat=seat, bot_delay=0)
    table.state = g
    table._unsent = list(events)
    app = CitadelsApp(table, UiOptions(lang=lang, name=human, **opts))
    return app, table


async def choices(pilot, tries: int = 100) -> PromptPanel:
    """The prompt, once it offers a choice."""
    prompt = pilot.app.table.query_one(PromptPanel)
    for _ in range(tries):
        await pilot.pause()
        if prompt.menu is not None and prompt.menu.entries and not prompt.sent:
            return prompt
    raise AssertionError("no choice offered")


def labels(prompt: PromptPanel) -> list[tuple[str, str]]:
    """(key, label) of each entry shown."""
    return [(e.key, e.label.plain) for e in prompt.menu.entries]


def _players(*rows: str) -> str:
    return "\n".join(rows)


WARLORD = """
title = "Ben, the Warlord, may destroy in Ana's city (a Great Wall there) or Cid's"
[setup]
crown = "Ana"
turn = "Warlord"
[[players]]
name = "Ana"
gold = 3
city = ["Temple", "Great Wall", "Market+"]
characters = ["King"]
revealed = ["King"]
[[players]]
name = "Ben"
gold = 9
hand = ["Manor", "Castle"]
city = ["Watchtower"]
characters = ["Warlord"]
[[players]]
name = "Cid"
city = ["Docks"]
characters = ["Magician"]
revealed = ["Magician"]
[[players]]
name = "Dee"
characters = ["Merchant"]
revealed = ["Merchant"]
"""

MAGICIAN = """
title = "Ana, the Magician, with three cards; Ben holds two"
[setup]
crown = "Ana"
turn = "Magician"
[[players]]
name = "Ana"
gold = 2
hand = ["Temple", "Manor", "Castle"]
characters = ["Magician"]
[[players]]
name = "Ben"
hand = ["Docks", "Market"]
characters = ["King"]
[[players]]
name = "Cid"
characters = ["Warlord"]
[[players]]
name = "Dee"
characters = ["Merchant"]
"""

ARCHITECT = """
title = "Ana, the Architect, with gold to build"
[setup]
crown = "Ana"
turn = "Architect"
[[players]]
name = "Ana"
gold = 6
hand = ["Temple", "Manor"]
characters = ["Architect"]
[[players]]
name = "Ben"
characters = ["King"]
[[players]]
name = "Cid"
characters = ["Warlord"]
[[players]]
name = "Dee"
characters = ["Merchant"]
"""

MARSHAL = """
title = "Ana, the Marshal, may seize from Ben (a Great Wall there)"
[setup]
crown = "Ana"
preset = "ambitious-aristocrats"
turn = "Marshal"
[[players]]
name = "Ana"
gold = 9
characters = ["Marshal"]
[[players]]
name = "Ben"
city = ["Temple", "Great Wall"]
characters = ["Patrician"]
revealed = ["Patrician"]
[[players]]
name = "Cid"
city = ["Tavern"]
characters = ["Wizard"]
revealed = ["Wizard"]
[[players]]
name = "Dee"
characters = ["Trader"]
revealed = ["Trader"]
"""

DIPLOMAT = """
title = "Ana, the Diplomat, may exchange her Temple for Ben's Castle"
[setup]
crown = "Ana"
preset = "illustrious-emissaries"
turn = "Diplomat"
[[players]]
name = "Ana"
gold = 9
city = ["Temple"]
characters = ["Diplomat"]
[[players]]
name = "Ben"
city = ["Castle"]
characters = ["Emperor"]
revealed = ["Emperor"]
[[players]]
name = "Cid"
characters = ["Spy"]
revealed = ["Spy"]
[[players]]
name = "Dee"
characters = ["Seer"]
revealed = ["Seer"]
"""

ASSASSIN = """
title = "Ana, the Assassin: the targets by rank"
[setup]
crown = "Ana"
turn = "Assassin"
[[players]]
name = "Ana"
characters = ["Assassin"]
[[players]]
name = "Ben"
characters = ["King"]
[[players]]
name = "Cid"
characters = ["Warlord"]
[[players]]
name = "Dee"
characters = ["Merchant"]
"""

MERCHANT = """
title = "Ana, the Merchant"
[setup]
crown = "Ana"
turn = "Merchant"
[[players]]
name = "Ana"
gold = 1
city = ["Market"]
characters = ["Merchant"]
[[players]]
name = "Ben"
characters = ["King"]
[[players]]
name = "Cid"
characters = ["Warlord"]
[[players]]
name = "Dee"
characters = ["Architect"]
"""
