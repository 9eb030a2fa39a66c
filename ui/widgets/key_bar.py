"""One line of key hints at the bottom (no Footer: it is many small widgets)."""

from __future__ import annotations

from textual.widgets import Static


class KeyBar(Static):
    def show(self, text: str) -> None:
        if text != getattr(self, "_last", None):
            self._last = text
            self.update(text, layout=False)
