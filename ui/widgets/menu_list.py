"""A numbered menu in one widget (`MenuList`: header lines and items chosen by digits, arrows +
Enter or the mouse; ←/→ change a form's value) and the one `Input` a menu screen shows while a text
is typed (`TextPrompt`). Used by the lobby and the table menu."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from .line_widget import LineWidget
from .prompt import DIGITS  # one home for the digit keys
from .text_panel import wrap


@dataclass
class Item:
    label: str
    value: str | None = None
    enter: Callable[[], Any] | None = None
    left: Callable[[], Any] | None = None
    right: Callable[[], Any] | None = None
    style: str = ""


class MenuList(LineWidget):
    """Header lines and a numbered list of items, the highlighted one reversed."""

    can_focus = True
    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("home", "move_to(0)", show=False),
        Binding("end", "move_to(-1)", show=False),
        Binding("enter", "select", show=False),
        Binding("left", "change(-1)", show=False),
        Binding("right", "change(1)", show=False),
        *[Binding(d, f"digit('{d}')", show=False) for d in DIGITS],
    ]

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.header: list[Text] = []
        self.items: list[Item] = []
        self.highlighted = 0
        self._scroll = 0
        self._row_map: dict[int, int] = {}

    def set(self, header: list[Text], items: list[Item], keep: bool = True) -> None:
        self.header = header
        self.items = items
        if not keep:
            self.highlighted = 0
            self._scroll = 0
        self.highlighted = min(self.highlighted, max(len(items) - 1, 0))
        self.invalidate()

    def action_move(self, delta: int) -> None:
        if self.items:
            self.highlighted = (self.highlighted + delta) % len(self.items)
            self.invalidate()

    def action_move_to(self, index: int) -> None:
        if self.items:
            self.highlighted = index % len(self.items)
            self.invalidate()

    def action_select(self) -> None:
        self._activate(self.highlighted)

    def action_digit(self, digit: str) -> None:
        i = DIGITS.find(digit)
        if 0 <= i < len(self.items):
            self.highlighted = i
            self.invalidate()
            self._activate(i)

    def action_change(self, delta: int) -> None:
        if 0 <= self.highlighted < len(self.items):
            item = self.items[self.highlighted]
            fn = item.left if delta < 0 else item.right
            if fn is not None:
                fn()

    def _activate(self, index: int) -> None:
        if 0 <= index < len(self.items):
            item = self.items[index]
            if item.enter is not None:
                item.enter()
            elif item.right is not None:
                item.right()

    def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self._row_map.get(offset.y)
        if index is not None:
            event.stop()
            self.highlighted = index
            self.invalidate()
            self._activate(index)

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_move(1)

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_move(-1)

    def build(self, width: int, height: int) -> list[Text]:
        console = self.app.console
        top: list[Text] = []
        for line in self.header:
            top += wrap(line, width, console, indent=1)
        top = top[: max(height - 3, 1)]
        room = max(height - len(top), 0)
        rows: list[tuple[int, Text]] = []
        for i, item in enumerate(self.items):
            label = Text(f"{DIGITS[i]} " if i < len(DIGITS) else "  ", style="bold", end="")
            label.append(item.label, style=item.style)
            if item.value is not None:
                label.append(": ")
                label.append(("‹ " if item.left else "") + item.value + (" ›" if item.right else ""), style="bold")
            for line in wrap(label, width, console, indent=2):
                if i == self.highlighted:
                    line.pad_right(width - line.cell_len)
                    line.stylize("reverse")
                rows.append((i, line))
        if rows:
            first = next(r for r, (i, _) in enumerate(rows) if i == self.highlighted)
            last = max(r for r, (i, _) in enumerate(rows) if i == self.highlighted)
            if first < self._scroll:
                self._scroll = first
            elif last >= self._scroll + room:
                self._scroll = max(last - room + 1, 0)
            self._scroll = min(self._scroll, max(len(rows) - room, 0))
        shown = rows[self._scroll : self._scroll + room]
        self._row_map = {len(top) + r: i for r, (i, _) in enumerate(shown)}
        lines = [line for _, line in shown]
        if self._scroll > 0 and lines:
            lines[0] = Text("  ↑ …", style="dim", end="")
        if self._scroll + room < len(rows) and lines:
            lines[-1] = Text("  ↓ …", style="dim", end="")
        return top + lines


class TextPrompt:
    """The one Input of a screen, shown while a text is asked for."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.on_done: Callable[[str], Any] | None = None

    @property
    def input(self) -> Input:
        return self.screen.query_one(Input)

    def ask(self, prompt: str, value: str, on_done: Callable[[str], Any]) -> None:
        self.on_done = on_done
        inp = self.input
        inp.value = value
        inp.placeholder = prompt
        inp.border_title = prompt
        inp.display = True
        inp.focus()

    def done(self, value: str | None) -> None:
        fn, self.on_done = self.on_done, None
        inp = self.input
        inp.display = False
        self.screen.query_one(MenuList).focus()
        if fn is not None and value is not None:
            fn(value)

    @property
    def active(self) -> bool:
        return self.on_done is not None
