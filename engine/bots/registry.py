"""`make_bot(kind, seed, style=None)`: a bot of a kind, with a style and a name.

Kinds: random, easy, normal, hard, expert. Every bot has `kind`, `name`, `style` and
`choose(legal, view)`; it decides from the view (and its legal commands) only.
A style left out is chosen from the seed, so a table of bots differs.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

from .styles import NAMES, STYLES

if TYPE_CHECKING:
    from ..commands import Command
    from ..view import View


class Bot(Protocol):
    """What every bot offers: it decides from its legal commands and its seat's view only."""

    kind: str
    name: str

    def choose(self, legal: list[Command], view: View | None = None) -> Command: ...


KINDS = ("random", "easy", "normal", "hard", "expert")
SEARCHING = ("hard", "expert")  # the kinds that take options (budget_ms, iterations, ...)


def pick_style(seed: int, style: str | None = None) -> str:
    if style is not None:
        if style not in STYLES:
            raise ValueError(f"Unknown bot style {style!r}; known: {', '.join(STYLES)}.")
        return style
    return random.Random(seed * 7919 + 17).choice(list(STYLES))


def bot_name(seed: int, style: str) -> str:
    return random.Random(seed * 104729 + 3).choice(NAMES[style])


def make_bot(kind: str, seed: int = 0, style: str | None = None, **options: Any) -> Bot:
    """A new bot. `options` go to the searching bots, hard and expert (budget_ms, iterations, ...)."""
    st = pick_style(seed, style)
    name = bot_name(seed, st)
    if kind == "random":
        from .random_bot import RandomBot

        b = RandomBot(seed)
        b.name, b.style = name, None
        return b
    if kind == "easy":
        from .easy import EasyBot

        return EasyBot(seed, st, name)
    if kind == "normal":
        from .normal import NormalBot

        return NormalBot(seed, st, name)
    if kind == "hard":
        from .hard import HardBot

        return HardBot(seed, st, name, **options)
    if kind == "expert":
        from .expert import ExpertBot

        return ExpertBot(seed, st, name, **options)
    raise ValueError(f"Unknown bot kind {kind!r}; known: {', '.join(KINDS)}.")
