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
from textual.binding import Binding
from textual.screen import Screen

from ..feedback import TableFeedback
from ..i18n import Catalogue
from ..link import SeatMark
from ..notices import chat_row, notice_row
from ..widgets.chat import ChatPanel
from ..widgets.hand import HandPanel
from ..widgets.key_bar import KeyBar
from ..widgets.log_view import LogView, Row
from ..widgets.players import PlayersPanel
from ..widgets.prompt import DIGITS, PromptPanel
from ..widgets.status_bar import StatusBar

COMPACT_WIDTH = 110
COMPACT_HEIGHT = 34
LOWER = ("hand", "log", "chat")


class TableScreen(Screen):
    BINDINGS = [
        *[Binding(d, f"digit('{d}')", show=False) for d in DIGITS],
        Binding("escape", "back", show=False),
        Binding("tab", "cycle_lower", show=False, priority=True),
        Binding("pageup", "log_page(1)", show=False),
        Binding("pagedown", "log_page(-1)", show=False),
        Binding("end", "log_end", show=False),
    ]

    def __init__(self, cat: Catalogue, show_chat: bool = False) -> None:
        super().__init__(id="table")
        self.cat = cat
        self.show_chat = show_chat
        self.lower = "hand"
        self.compact = True
        self._view: Any = None
        self._ready = False
        self._early_rows: list[Row] = []
        self._chat_title_shown: str | None = None
        # Seats' presence, the turn timer, watchers, unread chat (ui/feedback.py): marks on the widgets.
        self.feedback = TableFeedback(self.set_timer)

    def compose(self):
        self.set_class(self.show_chat, "-chat")
        yield StatusBar(id="status")
        yield PlayersPanel(id="players")
        yield PromptPanel(id="prompt")
        yield HandPanel(id="hand", classes="lower")
        yield LogView(id="log", classes="lower")
        if self.show_chat:
            yield ChatPanel(self.cat.t("ui.chat_placeholder"), id="chat", classes="lower")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self._set_compact(self.app.size.width, self.app.size.height)
        self._set_lower(self.lower)
        self.query_one(PromptPanel).focus()
        self._titles()
        self._ready = True
        if self._view is not None:  # a view that arrived before the screen was composed
            rows, self._early_rows = self._early_rows, []
            self.show(self._view, rows)
        self.refresh_feedback()

    def on_resize(self, event: events.Resize) -> None:
        self._set_compact(event.size.width, event.size.height)

    def _set_compact(self, width: int, height: int) -> None:
        compact = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        changed = compact != self.compact
        self.compact = compact
        self.set_class(compact, "-compact")
        self.set_class(not compact, "-roomy")
        self.query_one(KeyBar).show(self.cat.t("ui.keybar" if compact else "ui.keybar_wide"))
        if changed and self._view is not None:
            self.show(self._view, [])
        elif changed:
            self.refresh_feedback()

    def _titles(self) -> None:
        cat = self.cat
        self.query_one("#players").border_title = cat.t("ui.table")
        self.query_one("#hand").border_title = cat.t("ui.your_hand")
        self.query_one("#log").border_title = cat.t("ui.log")
        self.query_one("#prompt").border_title = cat.t("ui.prompt")
        self._chat_title()

    def _chat_title(self) -> None:
        """The chat's title, with the count of unread lines on large screens (small ones: the status bar)."""
        if not self.show_chat:
            return
        title = self.cat.t("ui.chat")
        if self.feedback.unread and not self.compact:
            title = self.cat.t("ui.chat_title_unread", n=self.feedback.unread)
        if title != self._chat_title_shown:
            self._chat_title_shown = title
            self.query_one("#chat").border_title = title

    # --- from the app ------------------------------------------------------------
    def set_language(self, cat: Catalogue, rows: list[Row]) -> None:
        self.cat = cat
        self._titles()
        self.query_one(KeyBar).show(cat.t("ui.keybar" if self.compact else "ui.keybar_wide"))
        if self.show_chat:
            self.query_one(ChatPanel).set_placeholder(cat.t("ui.chat_placeholder"))
        self.query_one(LogView).set_rows(rows)
        if self._view is not None:
            self.show(self._view, [])

    def reset(self, cat: Catalogue) -> None:
        """Empty the screen for another table: no view, no log, no chat (a server reuses one
        table screen per session rather than leaving a widget tree behind after every game)."""
        self._view = None
        self._early_rows = []
        self.feedback.clear()
        if not self._ready:
            self.cat = cat
            return
        self.query_one(PromptPanel).reset()
        if self.show_chat:
            self.query_one(ChatPanel).clear()
        self.set_language(cat, [])
        self.refresh_feedback()

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
        self.query_one(PromptPanel).show(view, cat, roomy=not self.compact)
        if rows:
            self.query_one(LogView).add_rows(rows)
        self.refresh_feedback()

    def refused(self, reason: str) -> None:
        self.query_one(PromptPanel).refused(reason)

    def add_log(self, rows: list[Row]) -> None:
        """Rows for the log that come without a view (the table's notices)."""
        if not self._ready:
            self._early_rows.extend(rows)
            return
        self.query_one(LogView).add_rows(rows)

    def chat_line(self, author: str, text: str, watching: bool = False, own: bool = False) -> None:
        if not self.show_chat:
            return
        self.query_one(ChatPanel).add_row(chat_row(self.cat, author, text, watching))
        if not own and not self._reading_chat():
            self.feedback.unread += 1
            self.refresh_feedback()

    def chat_notice(self, text: str) -> None:
        """The table's answer about the chat (slow down, spectators may not write): in the chat."""
        if self.show_chat:
            self.query_one(ChatPanel).add_row(notice_row(text))

    # --- presence, timers, watchers, unread chat ---------------------------------------------------
    def set_presence(self, marks: list[SeatMark], watchers: int) -> None:
        self.feedback.marks, self.feedback.watchers = list(marks), watchers
        self.refresh_feedback()

    def set_turn_deadline(self, deadline: float | None) -> None:
        if deadline != self.feedback.turn_deadline:
            self.feedback.turn_deadline = deadline
            self.refresh_feedback()

    def _reading_chat(self) -> bool:
        if not self._ready:
            return False
        if self.compact:
            return self.lower == "chat"
        return self.focused is not None and self.focused.id == "chat-input"

    def _chat_read(self) -> None:
        if self.feedback.unread:
            self.feedback.unread = 0
            self.refresh_feedback()

    def refresh_feedback(self) -> None:
        """Write the marks as they are now; wake up again when a countdown's label changes."""
        fb = self.feedback
        if not self._ready:
            return
        now = fb.now()
        view = self._view
        names = {p.seat: p.name for p in view.players} if view is not None else {}
        self.query_one(PlayersPanel).set_marks(fb.seat_labels(self.cat, names, self.compact, now))
        self.query_one(PromptPanel).set_clock(fb.turn_clock(self.cat, now))
        spectator = view is not None and view.seat is None
        self.query_one(StatusBar).set_badges(*fb.badges(self.cat, spectator, chat_hidden=self.compact))
        self._chat_title()
        fb.schedule(self.refresh_feedback, now)

    # --- keys ----------------------------------------------------------------------
    def action_digit(self, digit: str) -> None:
        self.query_one(PromptPanel).press_digit(digit)

    def action_back(self) -> None:
        if self.focused is not None and self.focused.id == "chat-input":
            self.query_one(PromptPanel).focus()
            return
        self.query_one(PromptPanel).back()

    def action_cycle_lower(self) -> None:
        panels = [p for p in LOWER if p != "chat" or self.show_chat]
        nxt = panels[(panels.index(self.lower) + 1) % len(panels)] if self.lower in panels else panels[0]
        self._set_lower(nxt)
        if nxt == "chat":
            self.query_one("#chat-input").focus()
            self._chat_read()
        else:
            self.query_one(PromptPanel).focus()

    def _set_lower(self, which: str) -> None:
        self.lower = which
        for p in LOWER:
            self.set_class(p == which, f"-show-{p}")

    def action_log_page(self, direction: int) -> None:
        self.query_one(LogView).page(direction)

    def action_log_end(self) -> None:
        self.query_one(LogView).to_end()

    @on(PromptPanel.Chosen)
    def _chosen(self, event: PromptPanel.Chosen) -> None:
        event.stop()
        if not self.compact:  # the chat was in view while the player chose: its lines count as read
            self._chat_read()
        self.app.send_command(event.command)

    @on(ChatPanel.Said)
    def _said(self, event: ChatPanel.Said) -> None:
        event.stop()
        self.app.send_chat(event.text)
