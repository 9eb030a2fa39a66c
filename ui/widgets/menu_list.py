"""A numbered menu in one widget (`MenuList`) and the one `Input` a menu screen shows while a text
is typed (`TextPrompt`). Used by the lobby and the table menu.

Two kinds of page:
- a list (`form=False`): a number chooses its item at once, as do arrows + Enter and the mouse;
- a form (`form=True`): a number only moves to its row and never changes a value. Values change
  with ←/→, or with Enter, which opens a picker: the values listed (each with what it means, e.g.
  a line-up's characters), chosen by number or arrows + Enter; Esc closes it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input

from ..prompt_keys import DIGITS  # one home for the digit keys
from .key_bar import KeyBar
from .line_widget import LineWidget
from .text_panel import wrap


@dataclass
class Choice:
    """A value a form's row may take: its label and, optionally, what it means."""

    label: str
    detail: str = ""


@dataclass
class Item:
    label: str
    value: str | None = None
    enter: Callable[[], Any] | None = None
    left: Callable[[], Any] | None = None
    right: Callable[[], Any] | None = None
    style: str = ""
    detail: str = ""  # a line under the row (what its value means)
    choices: list[Choice] = field(default_factory=list)  # the values, for the picker (Enter)
    current: int = 0  # which of `choices` is the value now
    pick: Callable[[int], Any] | None = None  # set the value to `choices[i]`


@dataclass
class _Picker:
    item: Item
    highlighted: int


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

    class PickerChanged(Message):
        """A picker opened or closed (the keys that work changed: the key bar)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.header: list[Text] = []
        self.items: list[Item] = []
        self.form = False
        self.numbered = True  # False: rows carry their own number (a place, a rank): no key numbers
        self.highlighted = 0
        self._picker: _Picker | None = None
        self._scroll = 0
        self._row_map: dict[int, int] = {}
        self.picker_hint = ""  # the line above a picker's values ("Esc: back, unchanged")

    def set(
        self, header: list[Text], items: list[Item], keep: bool = True, form: bool = False, numbered: bool = True
    ) -> None:
        old, at = self.items, self.highlighted
        self.header = header
        self.items = items
        self.form = form
        self.numbered = numbered
        if not keep:
            self.highlighted = 0
            self._scroll = 0
        elif old and 0 <= at < len(old):
            self.highlighted = self._same_item(old, at)
        self.highlighted = min(self.highlighted, max(len(items) - 1, 0))
        if self._picker is not None:  # the row it edits, rebuilt
            label = self._picker.item.label
            item = next((i for i in items if i.label == label and i.choices), None)
            self._picker = _Picker(item, self._picker.highlighted) if item is not None else None
        self.invalidate()

    def _same_item(self, old: list[Item], at: int) -> int:
        """Where the highlight goes when the items are rebuilt (someone sat down, a bot left): the same
        item, else the nearest one above it still there, never the row that took its number (which
        could be "Remove bruno")."""
        labels = {item.label: i for i, item in reversed(list(enumerate(self.items)))}
        for item in reversed(old[: at + 1]):
            if item.label in labels:
                return labels[item.label]
        return 0

    # --- the picker ------------------------------------------------------------------------
    @property
    def picking(self) -> bool:
        return self._picker is not None

    def open_picker(self, index: int) -> bool:
        if not 0 <= index < len(self.items) or not self.items[index].choices:
            return False
        item = self.items[index]
        self._picker = _Picker(item, min(item.current, len(item.choices) - 1))
        self._scroll = 0
        self.invalidate()
        self.post_message(self.PickerChanged())
        return True

    def close_picker(self) -> bool:
        """Esc: close the picker, the value unchanged (False: none was open)."""
        if self._picker is None:
            return False
        self._picker = None
        self._scroll = 0
        self.invalidate()
        self.post_message(self.PickerChanged())
        return True

    def _picked(self, index: int) -> None:
        picker = self._picker
        if picker is None or not 0 <= index < len(picker.item.choices):
            return
        self._picker = None
        self._scroll = 0
        if picker.item.pick is not None:
            picker.item.pick(index)
        self.invalidate()
        self.post_message(self.PickerChanged())

    # --- keys --------------------------------------------------------------------------------
    def _count(self) -> int:
        return len(self._picker.item.choices) if self._picker is not None else len(self.items)

    def _move_to(self, index: int) -> None:
        if self._picker is not None:
            self._picker.highlighted = index
        else:
            self.highlighted = index
        self.invalidate()

    def _at(self) -> int:
        return self._picker.highlighted if self._picker is not None else self.highlighted

    def action_move(self, delta: int) -> None:
        n = self._count()
        if n:
            self._move_to((self._at() + delta) % n)

    def action_move_to(self, index: int) -> None:
        n = self._count()
        if n:
            self._move_to(index % n)

    def action_select(self) -> None:
        if self._picker is not None:
            self._picked(self._picker.highlighted)
        else:
            self._activate(self.highlighted)

    def action_digit(self, digit: str) -> None:
        i = DIGITS.find(digit)
        if not 0 <= i < self._count() or (self._picker is None and not self.numbered):
            return
        self._move_to(i)
        if self._picker is not None:
            self._picked(i)  # a picker is a list: its number chooses
        elif not self.form:
            self._activate(i)  # in a form a number only moves to its row

    def action_change(self, delta: int) -> None:
        if self._picker is None and 0 <= self.highlighted < len(self.items):
            item = self.items[self.highlighted]
            fn = item.left if delta < 0 else item.right
            if fn is not None:
                fn()

    def _activate(self, index: int) -> None:
        if 0 <= index < len(self.items):
            item = self.items[index]
            if item.enter is not None:
                item.enter()
            elif item.choices:
                self.open_picker(index)
            elif item.right is not None:
                item.right()

    async def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self._row_map.get(offset.y)
        if index is not None:
            event.stop()
            self._move_to(index)
            if self._picker is not None:
                self._picked(index)
            else:
                self._activate(index)

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_move(1)

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_move(-1)

    # --- rendering -------------------------------------------------------------------------------
    def _rows(self, width: int, console: Any) -> list[tuple[int, Text]]:
        rows: list[tuple[int, Text]] = []
        picker = self._picker
        if picker is not None:
            for i, c in enumerate(picker.item.choices):
                label = Text(end="")
                label.append(f"{DIGITS[i]} " if i < len(DIGITS) else "  ", style="bold")
                label.append(c.label, style="bold" if i == picker.item.current else "")
                if i == picker.item.current:
                    label.append(" •", style="bold")
                lines = wrap(label, width, console, indent=2)
                if c.detail:
                    lines += wrap(Text("  " + c.detail, style="dim italic", end=""), width, console, indent=4)
                rows += [(i, line) for line in lines]
            return rows
        for i, item in enumerate(self.items):
            label = Text(end="")
            label.append(f"{DIGITS[i]} " if i < len(DIGITS) and self.numbered else "  ", style="bold")
            label.append(item.label, style=item.style)
            if item.value is not None:
                label.append(": ")
                label.append(("‹ " if item.left else "") + item.value + (" ›" if item.right else ""), style="bold")
            lines = wrap(label, width, console, indent=2)
            if item.detail:
                lines += wrap(Text("    " + item.detail, style="dim italic", end=""), width, console, indent=4)
            rows += [(i, line) for line in lines]
        return rows

    def build(self, width: int, height: int) -> list[Text]:
        console = self.app.console
        top: list[Text] = []
        for line in self.header:
            top += wrap(line, width, console, indent=1)
        picker = self._picker
        if picker is not None:
            title = Text(end="")
            title.append(picker.item.label, style="bold reverse")
            if self.picker_hint:
                title.append("  " + self.picker_hint, style="dim")
            top += wrap(title, width, console, indent=1)
        top = top[: max(height - 3, 1)]
        room = max(height - len(top), 0)
        at = self._at()
        rows = self._rows(width, console)
        for i, line in rows:
            if i == at:
                line.pad_right(width - line.cell_len)
                line.stylize("reverse")
        if rows:
            first = next((r for r, (i, _) in enumerate(rows) if i == at), 0)
            last = max((r for r, (i, _) in enumerate(rows) if i == at), default=0)
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
        self._bar_before: str | None = None  # the key bar's words while a text is typed

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
        self._bar_before = self._bar_say(self._typing_keys())  # not the menu's digits: they would type

    def _typing_keys(self) -> str:
        cat = getattr(self.screen, "cat", None)
        return cat.t("lobby.keys_typing") if cat is not None else "Enter ⏎ · Esc"

    def _bar_say(self, text: str | None) -> str | None:
        """Show `text` on the screen's key bar (if it has one); what it said before."""
        bars = self.screen.query(KeyBar)
        if not bars or text is None:
            return None
        bar = bars.first()
        before = bar.plain
        bar.show(text)
        return before

    def done(self, value: str | None) -> None:
        fn, self.on_done = self.on_done, None
        inp = self.input
        inp.display = False
        self._bar_say(self._bar_before)
        self._bar_before = None
        self.screen.query_one(MenuList).focus()
        if fn is not None and value is not None:
            fn(value)

    @property
    def active(self) -> bool:
        return self.on_done is not None
