"""A scrollable block of rich text in ONE widget (no container, no scrollbar widgets).

Subclasses provide `lines(width) -> list[Text]` (already wrapped); the panel
shows the rows that fit, scrolled by the mouse wheel or `scroll_rows`.
Changing content calls `changed()`: a repaint of this widget only.
"""

from __future__ import annotations

from rich.text import Text
from textual import events

from .line_widget import LineWidget
from .shared_memo import Memo, text_key

_wrapped = Memo(4096)  # a text's wrapped lines, for every app (menus are wrapped again on each key)


def wrap(text: Text, width: int, console, indent: int = 0) -> list[Text]:
    """Wrap a Text to `width` cells; continuation lines indented by `indent`. The lines are the
    caller's own (copies of the shared ones: callers restyle them)."""
    return [line.copy() for line in wrapped(text, width, console, indent)]


def wrapped(text: Text, width: int, console, indent: int = 0) -> tuple[Text, ...]:
    """`wrap`'s lines as shared by every app: for callers that never change them (no copies: a
    rich `Text.copy` strips the control codes of its text again)."""
    key = (text_key(text), width, indent)
    lines = _wrapped.get(key)
    if lines is None:
        lines = _wrapped.put(key, tuple(_wrap(text, width, console, indent)))
    return lines


def _wrap(text: Text, width: int, console, indent: int) -> list[Text]:
    out: list[Text] = []
    width = max(width, indent + 4)
    for part in text.split("\n", allow_blank=True):
        lines: list[Text] = list(part.wrap(console, width, overflow="fold"))
        if indent and len(lines) > 1:
            # the first line uses the whole width, the rest are wrapped again, indented
            first = lines[0]
            rest = part[len(first.plain) :]
            rest = rest[len(rest.plain) - len(rest.plain.lstrip()) :] if rest.plain[:1] == " " else rest
            lines = [first] + [
                Text(" " * indent, end="") + ln for ln in rest.wrap(console, width - indent, overflow="fold")
            ]
        out.extend(lines)
    return out


class TextPanel(LineWidget):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._offset = 0
        self._cache: tuple[int, list[Text]] | None = None

    def lines(self, width: int) -> list[Text]:  # pragma: no cover - abstract
        return []

    def changed(self, layout: bool = False) -> None:
        self._cache = None
        self.invalidate(layout=layout)

    def _all(self, width: int) -> list[Text]:
        if self._cache is None or self._cache[0] != width:
            self._cache = (width, self.lines(width))
        return self._cache[1]

    def scroll_rows(self, delta: int) -> None:
        width, height = self.content_size
        total = len(self._all(width))
        new = min(max(self._offset + delta, 0), max(total - height, 0))
        if new != self._offset:
            self._offset = new
            self.invalidate()

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_rows(3)

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_rows(-3)

    def build(self, width: int, height: int) -> list[Text]:
        rows = self._all(width)
        self._offset = min(self._offset, max(len(rows) - height, 0))
        shown = rows[self._offset : self._offset + height]
        if self._offset + height < len(rows) and shown:
            shown[-1] = Text("…", style="dim", end="")
        return shown
