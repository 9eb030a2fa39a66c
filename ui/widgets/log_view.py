"""A scrollable list of sentences that costs one render per change.

Not Textual's `Log` (each append relayouts the screen): a fixed-size widget
that renders only the rows that fit, wrapped to its width, following the tail
unless the player scrolled up (mouse wheel, PgUp/PgDn, Home/End). Appending
or scrolling refreshes this widget only, without layout.

Following the tail, new lines are written below the last ones; only when the
panel is full does it move up, by a third of its height at once (a "page
turn"), leaving room for the next lines. Where the pages turn depends only on
the number of lines and the panel's height (`_window`), not on when the panel
was drawn: two screens given the same rows show the same lines, whether a
frame came between two rows or not. A log that scrolled by one line per
new line would redraw (and send over SSH) every line of the panel for every
event, on every seat's screen; this way a new line costs one line, and a
page turn a whole panel once per third of a page.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from rich.text import Text
from textual import events

from .line_widget import LineWidget
from .shared_memo import Memo

_wrapped = Memo(8192)  # (tag, text, width) -> wrapped lines, for every app
_drawn = Memo(8192)  # (wrapped line, style, tag, tag style) -> its Text, for every app (never changed once made)


@dataclass(frozen=True)
class Row:
    text: str
    style: str = ""
    tag: str = ""  # a prefix shown in its own style ("[only you]")
    tag_style: str = ""


class LogView(LineWidget):
    """Sentences, newest at the bottom; `max_lines` are kept."""

    can_focus = False

    def __init__(self, max_lines: int = 400, **kw) -> None:
        super().__init__(**kw)
        self.max_lines = max_lines
        self._rows: list[Row] = []
        self._wrapped: list[tuple[Row, tuple[str, ...]]] = []
        self._lines_total = 0  # wrapped lines in `_wrapped` (kept, not summed on every build)
        self._wrap_width = 0
        self._offset = 0  # rows scrolled up from the bottom
        # (width, first, last, lines) of the last build following the tail: the next build with the same
        # first line only adds the lines below (the lines at an index stay the same until rows are dropped)
        self._shown: tuple[int, int, int, list[Text]] | None = None

    # --- content ----------------------------------------------------------------
    def set_rows(self, rows: list[Row]) -> None:
        self._rows = rows[-self.max_lines :]
        self._wrap_width = 0
        self._shown = None
        self._offset = 0
        self.invalidate()

    def add_rows(self, rows: list[Row]) -> None:
        if not rows:
            return
        self._rows.extend(rows)
        if self._wrap_width:
            added = [(r, self._wrap(r, self._wrap_width)) for r in rows]
            self._wrapped.extend(added)
            self._lines_total += sum(len(w) for _, w in added)
            if self._offset:
                self._offset += sum(len(w) for _, w in added)
        drop = len(self._rows) - self.max_lines
        if drop >= max(self.max_lines // 8, 1) or (drop > 0 and not self._wrap_width):
            # Forget the oldest rows in batches (not one per new row: the shown lines' indexes move).
            del self._rows[:drop]
            self._shown = None  # the lines' indexes moved
            if self._wrap_width:
                gone = sum(len(w) for _, w in self._wrapped[:drop])
                del self._wrapped[:drop]
                self._lines_total -= gone
        self.invalidate()

    @property
    def rows(self) -> list[Row]:
        return self._rows

    # --- scrolling --------------------------------------------------------------
    def scroll_rows(self, delta: int) -> None:
        """Positive: back in time (up)."""
        total = self._total(self.content_size.width)
        limit = max(total - self.content_size.height, 0)
        new = min(max(self._offset + delta, 0), limit)
        if new != self._offset:
            self._offset = new
            self.invalidate()

    def page(self, direction: int) -> None:
        self.scroll_rows(direction * max(self.content_size.height - 1, 1))

    def to_end(self) -> None:
        if self._offset:
            self._offset = 0
            self.invalidate()

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_rows(3)

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_rows(-3)

    # --- rendering --------------------------------------------------------------
    @staticmethod
    def _wrap(r: Row, width: int) -> tuple[str, ...]:
        key = (r.tag, r.text, width)
        lines = _wrapped.get(key)
        if lines is None:
            text = (r.tag + " " if r.tag else "") + r.text
            lines = _wrapped.put(key, tuple(textwrap.wrap(text, width=max(width, 8), subsequent_indent="  ") or [""]))
        return lines

    def _ensure(self, width: int) -> None:
        if width != self._wrap_width:
            self._wrap_width = width
            self._wrapped = [(r, self._wrap(r, width)) for r in self._rows]
            self._lines_total = sum(len(w) for _, w in self._wrapped)
            self._shown = None

    def _total(self, width: int) -> int:
        self._ensure(width)
        return self._lines_total

    def _window(self, height: int, total: int) -> tuple[int, int]:
        """Lines [first, last) of the `total` wrapped lines to show."""
        if self._offset:  # scrolled back: a full panel ending `offset` lines before the end
            last = max(total - self._offset, 0)
            return max(last - height, 0), last
        # Following the tail: the first `height` lines, then a turn by a third of a page each time the
        # lines overflow (one line past a full panel leaves a third of it free): the turns fall at
        # multiples of `turn` lines past a full panel, the same whenever the panel was drawn.
        if total <= height:
            return 0, total
        turn = max(height // 3, 1) + 1
        top = -(-(total - height) // turn) * turn
        return top, min(top + height, total)

    def build(self, width: int, height: int) -> list[Text]:
        self._ensure(width)
        total = self._total(width)
        first, last = self._window(height, total)
        shown = self._shown
        if self._offset:  # scrolled back: the whole window (not kept: scrolling moves it)
            self._shown = None
            return self._lines_back(total - last, last - first)
        if shown is not None and shown[0] == width and shown[1] == first and first <= shown[2] <= last:
            # following the tail, no page turned: the lines shown, and the new ones below them
            lines = shown[3] + self._lines_back(total - last, last - shown[2])
        else:
            lines = self._lines_back(total - last, last - first)
        self._shown = (width, first, last, lines)
        return lines

    def _lines_back(self, skip: int, count: int) -> list[Text]:
        """`count` lines ending `skip` lines before the last one."""
        out: list[tuple[str, Row, bool]] = []
        if count <= 0:
            return []
        for r, wrapped in reversed(self._wrapped):
            for i in range(len(wrapped) - 1, -1, -1):
                if skip:
                    skip -= 1
                    continue
                out.append((wrapped[i], r, i == 0))
                if len(out) >= count:
                    break
            if len(out) >= count:
                break
        out.reverse()
        # The same line is the same Text on every build and in every app: a line already on screen
        # compares by identity, and no Text is made again for the rows that only moved.
        return [_line(line, r, first) for line, r, first in out]


def _line(line: str, r: Row, first: bool) -> Text:
    tag = r.tag if first and r.tag and line.startswith(r.tag) else ""
    key = (line, r.style, tag, r.tag_style if tag else "")
    t = _drawn.get(key)
    if t is None:
        # Styles as spans: Rich draws a Text's own style only when it has spans, so a row's style
        # given as the Text's style alone would not show (and the tag's would cover the whole line).
        t = Text(end="")
        if tag:
            t.append(tag, style=r.tag_style or None)
            line = line[len(tag) :]
        t.append(line, style=r.style or None)
        _drawn.put(key, t)
    return t
