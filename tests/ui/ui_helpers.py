"""Helpers for the UI tests: a deterministic local table and the screen as text."""

from __future__ import annotations

import io
import random
from collections.abc import Awaitable, Callable
from typing import Any

from rich.console import Console

from engine import GameConfig
from engine.commands import Build, Unselect
from server.transport.session_info import SessionInfo
from ui import CitadelsApp, UiOptions
from ui.local_game import LocalTable
from ui.prompt_keys import DIGITS, END_TURN
from ui.widgets.prompt import PromptPanel

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox", "Gus", "Hal"]


def make_app(
    players: int = 4, seed: int = 1, lang: str = "en", preset: str = "first-game", human: int = 0, **opts
) -> tuple[CitadelsApp, LocalTable]:
    table = LocalTable(GameConfig(players=NAMES[:players], preset=preset, seed=seed), human_seat=human, bot_delay=0)
    app = CitadelsApp(table, UiOptions(lang=lang, name=NAMES[human], **opts))
    return app, table


def screen_text(app: CitadelsApp) -> str:
    """What the terminal shows now, as plain text (the whole screen stack)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def _inert(e) -> bool:
    return e.command is None and e.submenu is None and e.toggle is None and not e.plan


def choose(rng: random.Random, entries) -> int:
    """A random choice that keeps games short: builds often, rarely puts cards back."""
    # not Back, and not a row that cannot be chosen now (a card a multi-card choice cannot take: shown dim)
    real = [i for i, e in enumerate(entries) if not e.back and not e.disabled and not _inert(e)]
    builds = [
        i
        for i in real
        if isinstance(entries[i].command, Build)
        or (entries[i].submenu is not None and entries[i].label.plain.startswith(("Build", "Constru")))
    ]
    if builds and rng.random() < 0.7:
        return rng.choice(builds)
    keep = [i for i in real if not isinstance(entries[i].command, Unselect)] or real
    return rng.choice(keep)


async def play_by_keys(
    app,
    table,
    pilot,
    seed: int,
    max_presses: int = 4000,
    before_key: Callable[[], Awaitable[None] | None] | None = None,
) -> int:
    """Answer every decision of the human seat with keys: the entry's key (a digit, a rank, `e`),
    arrows + Enter, Esc."""
    rng = random.Random(seed)
    prompt = app.table.query_one(PromptPanel)
    presses = 0
    idle = 0
    while not table.over and presses < max_presses:
        menu = prompt.menu
        entries = menu.entries if menu is not None else []
        if not entries or prompt.sent:
            idle += 1
            assert idle < 200, "no choice offered and the game does not move"
            await pilot.pause()
            continue
        idle = 0
        if before_key is not None:
            r = before_key()
            if r is not None:
                await r
        i = choose(rng, entries)
        key = prompt.key_for(i)  # a digit (a rank in a list of characters), "e", or Enter for a confirmation
        r = rng.random()
        if r < 0.05 and prompt.depth > 1:
            await pilot.press("escape")
        elif r < 0.25 or not (key in DIGITS or key == END_TURN):  # arrows then Enter
            await pilot.press("home", *["down"] * i, "enter")
        else:
            await pilot.press(key)
        presses += 1
    await pilot.pause()
    print("key presses:", presses)
    return presses


def reference_side_by_side(group, colw):
    """The join as it was made before it skipped copies (each cell copied, truncated and padded by Rich)."""
    from rich.text import Text

    rows = []
    for j in range(max(len(g) for g in group)):
        line = Text(end="")
        for k, g in enumerate(group):
            cell = g[j].copy() if j < len(g) else Text(end="")
            if k < len(group) - 1:
                cell.truncate(colw, pad=True)
                cell.append(" ")
            line.append_text(cell)
        rows.append(line)
    return rows


def served_info(name: str, seat: int, size: tuple[int, int], colours: Any) -> SessionInfo:
    """The session an in-process served screen stands for (xterm-256color, a guest on localhost)."""
    return SessionInfo(
        session_id=f"s{seat}",
        username=name,
        key_fingerprint=None,
        is_guest=True,
        peer_host="127.0.0.1",
        peer_port=0,
        term="xterm-256color",
        color_system=colours,
        size=size,
    )
