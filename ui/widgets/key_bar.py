"""One line of key hints at the bottom (no Footer: it is many small widgets).

`show(text)` shows a sentence as it is; `show_keys([(key, words), ...])` shows
the keys that work now, most useful first, and leaves out from the end what
does not fit the width (the first always shows). A line widget: a new footer is
a repaint of its one line, from strips shared by every app (the few footers
there are look alike at every seat).
"""

from __future__ import annotations

from rich.text import Text

from .line_widget import LineWidget
from .shared_memo import Memo

SEP = " · "
_lines = Memo(1024)  # (sentence, keys, width) -> the bar's line, for every app (footers look alike at every seat)


class KeyBar(LineWidget):
    DEFAULT_CSS = "KeyBar { height: 1; width: 1fr; }"

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._text: str | None = None
        self._keys: tuple[tuple[str, str], ...] = ()

    def show(self, text: str) -> None:
        if text != self._text or self._keys:
            self._text, self._keys = text, ()
            self.invalidate()

    def show_keys(self, keys: list[tuple[str, str]]) -> None:
        keys_t = tuple(keys)
        if keys_t != self._keys or self._text is not None:
            self._text, self._keys = None, keys_t
            self.invalidate()

    @property
    def plain(self) -> str:
        """What the bar says, whatever the width (tests)."""
        if self._text is not None:
            return self._text
        return SEP.join(f"{k} {w}".strip() for k, w in self._keys)

    def build(self, width: int, height: int) -> list[Text]:
        key = (self._text, self._keys, width)
        lines = _lines.get(key)
        if lines is None:
            lines = _lines.put(key, self._make(width))
        return lines

    def _make(self, width: int) -> list[Text]:
        if self._text is not None:
            line = Text(self._text, end="")
            line.truncate(width, overflow="ellipsis")
            return [line]
        out = Text(end="")
        for i, (key, words) in enumerate(self._keys):
            piece = (SEP if i else "") + key + (" " + words if words else "")
            if i and out.cell_len + len(piece) > width:
                break
            if i:
                out.append(SEP)
            out.append(key, style="bold")
            if words:
                out.append(" " + words)
        out.truncate(width, overflow="ellipsis")
        return [out]
