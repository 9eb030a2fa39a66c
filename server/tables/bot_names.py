"""Bots' names at a table: each bot a style no other bot there has (while styles
last) and a name of that style no other seat has, marked " (bot)" once. The
style is found again from the name when a saved game is resumed."""

from __future__ import annotations

import random

from engine.bots.styles import NAMES, STYLES

BOT_MARK = " (bot)"  # added once, to a bot seat's name: the lobby, the game's players and the saves show it
_STYLE_OF_NAME = {n: style for style, names in NAMES.items() for n in names}


def bot_style(seat_name: str) -> str | None:
    """The style of the bot named `seat_name` ("Morgana (bot)": "aggressive"), None if not a bot's name."""
    base = seat_name[: -len(BOT_MARK)] if seat_name.endswith(BOT_MARK) else None
    return _STYLE_OF_NAME.get(base) if base else None


def pick_bot(taken_names: set[str], used_styles: set[str | None], rng: random.Random) -> tuple[str, str] | None:
    """(style, seat name) for a new bot, or None when every name is taken (never with 8 seats)."""
    taken = taken_names | {n[: -len(BOT_MARK)] for n in taken_names if n.endswith(BOT_MARK)}
    styles = list(STYLES)
    rng.shuffle(styles)
    styles.sort(key=lambda st: st in used_styles)  # unused styles first (the sort is stable)
    for style in styles:
        free = [n for n in NAMES[style] if n not in taken]
        if free:
            return style, rng.choice(free) + BOT_MARK
    return None
