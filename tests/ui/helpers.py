"""Helpers for the UI tests: a deterministic local table and the screen as text."""
from __future__ import annotations

import io

from rich.console import Console

from engine import GameConfig
from ui import CitadelsApp, UiOptions
from ui.local_game import LocalTable

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox", "Gus", "Hal"]


def make_app(players: int = 4, seed: int = 1, lang: str = "en", preset: str = "first-game",
             human: int = 0, **opts) -> tuple[CitadelsApp, LocalTable]:
    table = LocalTable(GameConfig(players=NAMES[:players], preset=preset, seed=seed), human_seat=human,
                       bot_delay=0)
    app = CitadelsApp(table, UiOptions(lang=lang, name=NAMES[human], **opts))
    return app, table


def screen_text(app: CitadelsApp) -> str:
    """What the terminal shows now, as plain text (the whole screen stack)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system=None,
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
