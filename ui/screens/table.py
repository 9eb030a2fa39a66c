"""The table screen: everything a player sees while playing.

Layout (a grid, see `ui/styles/table.tcss`): the status bar on top; the
players on the left with, below them, your hand and the log (and the chat);
the prompt on the right; key hints at the bottom. Under 110x34 the screen is
"compact": the lower panel shows one of hand / log / chat (Tab switches).
Few widgets, no nested containers (Textual renders every visible widget of a
frame): each one redraws only when its own part of the view changed.
"""

from __future__ import annotations

from typing import Any

from textual import events, on

from ..i18n import Catalogue
from ..widgets.chat import ChatPanel
from ..widgets.hand import HandPanel
from ..widgets.key_bar import KeyBar
from ..widgets.log_view import LogView, Row
from ..widgets.players import PlayersPanel
from ..widgets.prompt import PromptPanel
from ..widgets.status_bar import StatusBar
from .table_keys import TableKeys

COMPACT_WIDTH = 110
COMPACT_HEIGHT = 34
LOWER = ("hand", "log", "chat")


class TableScreen(TableKeys):
    """Keys, focus and the footer: `TableKeys` (ui/screens/table_keys.py)."""

    def __init__(self, cat: Catalogue, show_chat: bool = False) -> None:
        super().__init__(id="table")
        self.cat = cat
        self.show_chat = show_chat
        self.lower = "hand"
        self.compact = True
        self._view: Any = None
        self._ready = False
        self._early_rows: list[Row] = []

    def compose(self):
        self.set_class(self.show_chat, "-chat")
        yield StatusBar(id="status")
        yield PlayersPanel(id="players")
        yield PromptPanel(id="prompt")
        yield HandPanel(id="hand", classes="lower")
        yield LogView(id="log", classes="lower")
        if self.show_chat:
            yield ChatPanel(self.cat.t("ui.chat_placeholder"), self.cat.t("ui.chat_typing"), id="chat", classes="lower")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self._set_compact(self.app.size.width, self.app.size.height)
        self._set_lower(self.lower)
        self.setup_keys()
        self._titles()
        self._ready = True
        if self._view is not None:  # a view that arrived before the screen was composed
            rows, self._early_rows = self._early_rows, []
            self.show(self._view, rows)

    def on_resize(self, event: events.Resize) -> None:
        self._set_compact(event.size.width, event.size.height)

    def _set_compact(self, width: int, height: int) -> None:
        compact = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        changed = compact != self.compact
        self.compact = compact
        self.set_class(compact, "-compact")
        self.set_class(not compact, "-roomy")
        self.update_keys()
        if changed and self._view is not None:
            self.show(self._view, [])

    def _titles(self) -> None:
        cat = self.cat
        self.query_one("#players").border_title = cat.t("ui.table")
        self.query_one("#hand").border_title = cat.t("ui.your_hand")
        self.query_one("#log").border_title = cat.t("ui.log")
        self.query_one("#prompt").border_title = cat.t("ui.prompt")
        if self.show_chat:
            self.query_one("#chat").border_title = cat.t("ui.chat")

    # --- from the app ------------------------------------------------------------
    def set_language(self, cat: Catalogue, rows: list[Row]) -> None:
        self.cat = cat
        self._titles()
        self.update_keys()
        if self.show_chat:
            self.query_one(ChatPanel).set_placeholder(cat.t("ui.chat_placeholder"), cat.t("ui.chat_typing"))
        self.query_one(LogView).set_rows(rows)
        if self._view is not None:
            self.show(self._view, [])

    def reset(self, cat: Catalogue) -> None:
        """Empty the screen for another table: no view, no log, no chat (a server reuses one
        table screen per session rather than leaving a widget tree behind after every game)."""
        self._view = None
        self._early_rows = []
        if not self._ready:
            self.cat = cat
            return
        self.query_one(PromptPanel).reset()
        if self.show_chat:
            self.query_one(ChatPanel).clear()
        self.set_language(cat, [])

    def show(self, view: Any, rows: list[Row]) -> None:
        """A new view (and new log rows): update only what changed."""
        self._view = view
        if not self._ready:
            self._early_rows.extend(rows)
            return
        cat = self.cat
        self.query_one(StatusBar).show(view, cat)
        self.query_one(PlayersPanel).show(view, cat, self.compact)
        self.query_one(HandPanel).show(view, cat)
        if self.query_one(PromptPanel).show(view, cat, roomy=not self.compact):
            self.update_keys()
        if rows:
            self.query_one(LogView).add_rows(rows)

    def refused(self, reason: str) -> None:
        self.query_one(PromptPanel).refused(reason)

    def chat_line(self, author: str, text: str) -> None:
        if self.show_chat:
            self.query_one(ChatPanel).add(author, text)

    def _set_lower(self, which: str) -> None:
        self.lower = which
        for p in LOWER:
            self.set_class(p == which, f"-show-{p}")

    @on(PromptPanel.Chosen)
    def _chosen(self, event: PromptPanel.Chosen) -> None:
        event.stop()
        self.app.send_command(event.command)

    @on(ChatPanel.Said)
    def _said(self, event: ChatPanel.Said) -> None:
        event.stop()
        self.app.send_chat(event.text)
