"""What the table screen tells besides the game: who plays each seat (away with the time before a bot
takes over, a bot playing for someone), the turn timer, who watches, and chat lines not yet read.

`TableFeedback` keeps those facts and turns them into small marks on the table's widgets: a label
on a seat's line (`PlayersPanel.set_marks`), a clock line in the prompt (`PromptPanel.set_clock`),
badges on the status bar (`StatusBar.set_badges`) and the chat panel's title.

Countdowns cost nothing when none runs: there is no periodic timer. While a deadline is ahead, one
one-shot timer wakes the screen when a shown label would change, and labels change at a modest
rate: every 5 seconds down to 10 seconds left, then every second (`shown_seconds`). Each widget
repaints only the line whose text changed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from rich.text import Text

from .i18n import Catalogue
from .link import SeatMark

FINE_BELOW = 10  # seconds: from here on a countdown shows every second
COARSE_STEP = 5  # above it, in steps of this many seconds


def shown_seconds(left: float) -> int:
    """The seconds a countdown shows with `left` seconds to go (rounded up to its step)."""
    s = max(math.ceil(left - 1e-6), 0)
    return s if s <= FINE_BELOW else COARSE_STEP * math.ceil(s / COARSE_STEP)


def next_change(left: float) -> float | None:
    """Seconds from now until `shown_seconds` changes (None: the countdown has ended)."""
    s = shown_seconds(left)
    if s <= 0:
        return None
    below = s - 1 if s <= FINE_BELOW else s - COARSE_STEP  # the next value shown
    return max(left - below, 0.01)


def clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


class TableFeedback:
    """The facts behind the marks; `render()` writes the marks and schedules the next change."""

    def __init__(
        self, set_timer: Callable[[float, Callable[[], None]], Any], now: Callable[[], float] = time.monotonic
    ):
        self._set_timer = set_timer
        self.now = now
        self._timer: Any = None
        self.marks: list[SeatMark] = []
        self.watchers = 0
        self.turn_deadline: float | None = None
        self.unread = 0

    def clear(self) -> None:
        self.marks, self.watchers, self.turn_deadline, self.unread = [], 0, None, 0
        self.stop()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # --- what the marks say ------------------------------------------------------------------
    def seat_labels(self, cat: Catalogue, names: dict[int, str], short: bool, now: float) -> dict[int, Text]:
        labels: dict[int, Text] = {}
        for seat, m in enumerate(self.marks):
            if m.state == "away":
                if m.bot_at is None:
                    text = cat.t("ui.seat_away_plain")
                else:
                    left = clock(shown_seconds(m.bot_at - now))
                    text = cat.t("ui.seat_away_short" if short else "ui.seat_away", time=left)
            elif m.state in ("bot_for", "replaced"):
                name = names.get(seat, "")
                text = cat.t("ui.seat_bot_for_short") if short else cat.t("ui.seat_bot_for", name=name)
            else:
                continue
            labels[seat] = Text(f"[{text}]", style="bold reverse", end="")
        return labels

    def turn_clock(self, cat: Catalogue, now: float) -> Text | None:
        if self.turn_deadline is None:
            return None
        left = shown_seconds(self.turn_deadline - now)
        style = "bold reverse" if left <= FINE_BELOW else "bold"
        return Text(" " + cat.t("ui.turn_clock", time=clock(left)), style=style, end="")

    def badges(self, cat: Catalogue, spectator: bool, chat_hidden: bool) -> tuple[Text | None, Text | None]:
        """(the status bar's first-line prefix, its suffix)."""
        prefix = Text(f" {cat.t('ui.watching_you')} ", style="bold reverse", end="") if spectator else None
        parts = []
        if self.unread and chat_hidden:
            parts.append(Text(cat.t("ui.chat_unread", n=self.unread), style="bold reverse", end=""))
        if self.watchers and not spectator:
            parts.append(Text(cat.t("ui.watchers", n=self.watchers), style="dim", end=""))
        suffix = Text(" · ", end="").join(parts) if parts else None
        return prefix, suffix

    # --- when the marks change by themselves -----------------------------------------------------
    def deadlines(self) -> list[float]:
        times = [m.bot_at for m in self.marks if m.state == "away" and m.bot_at is not None]
        if self.turn_deadline is not None:
            times.append(self.turn_deadline)
        return times

    def schedule(self, callback: Callable[[], None], now: float) -> None:
        """One timer for the next label change of any countdown; none when no countdown runs."""
        self.stop()
        waits = [w for w in (next_change(t - now) for t in self.deadlines()) if w is not None]
        if waits:
            self._timer = self._set_timer(min(waits), callback)
