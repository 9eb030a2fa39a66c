"""The table screen: everything a player sees while playing.

Where each panel goes is worked out in Python (`table_layout.plan`) from the
window's size and what the panels need to show whole: the status bar on top,
the prompt in a column on the right, the players, your hand and the log (and
the chat) on the left, key hints at the bottom. Each widget is placed at its
box (absolute position, `ui/styles/table.tcss`); a new box only when the plan
changes. On small windows ("compact") the lower left shows the hand (and the
log when it fits); Tab shows the log or the chat instead, F4 the players' whole cities.
Below 80x24 the screen says it is too small. Few widgets, no nested
containers (Textual renders every visible widget of a frame): each one redraws
only when its own part of the view changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual import events, on
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from ..compat.direct_paint import painted
from ..feedback import TableFeedback
from ..i18n import Catalogue
from ..link import SeatMark
from ..notices import chat_row, notice_row
from ..widgets.chat import ChatPanel
from ..widgets.hand import HandPanel
from ..widgets.key_bar import KeyBar
from ..widgets.log_view import LogView, Row
from ..widgets.players import PlayersPanel
from ..widgets.prompt import PromptPanel
from ..widgets.status_bar import StatusBar
from .table_keys import TableKeys
from .table_layout import MIN_HEIGHT, MIN_WIDTH, Box, Plan, Planned, plan, prompt_width, replan

if TYPE_CHECKING:
    from ..app import CitadelsApp

LOWER = ("hand", "log", "chat")
PANELS = ("status", "players", "prompt", "hand", "log", "chat", "keys", "small")


class _Needs:
    """What the panels need, asked by the layout (`table_layout.Needs`)."""

    def __init__(self, screen: TableScreen) -> None:
        view = screen._view
        self.seats = len(view.players) if view is not None else 0
        self.has_hand = view is not None and view.seat is not None
        self._status = screen.status_bar
        self._players = screen.players
        self._hand = screen.hand
        self._prompt = screen.prompt

    def status(self, width: int) -> int:
        return self._status.height_for(width)

    def players(self, width: int, form: str, cols: int) -> int:
        return self._players.height_for(width, form, cols) if self.seats else 1

    def players_at_least(self, width: int, form: str, cols: int) -> int:
        return self._players.rows_at_least(width, form, cols) if self.seats else 1

    def hand(self, width: int, form: str) -> int:
        return self._hand.height_for(width, form) if self.has_hand else 0

    def prompt_fits(self, width: int, height: int, roomy: bool) -> bool:
        return self._prompt.fits(width, height, roomy)


class TableScreen(TableKeys):
    """The layout and the widgets; keys, focus and the footer: `TableKeys` (ui/screens/table_keys.py)."""

    BINDINGS = [Binding("f4", "cities", show=False)]  # merged with TableKeys' bindings

    def __init__(self, cat: Catalogue, show_chat: bool = False) -> None:
        super().__init__(id="table")
        self.cat = cat
        self.show_chat = show_chat
        self.lower = "hand"
        self.cities = False  # F4 on a compact screen: the players' whole cities instead of the rest
        self._footer_mode: tuple | None = None  # the layout the footer was made for
        self.compact = True
        self.plan: Plan | None = None
        self._planned: Planned | None = None  # the plan with the answers it was made from
        self._laying_out = False
        self._refocus: Widget | None = None  # the focused panel while the window is too small
        self._view: Any = None
        self._ready = False
        self._early_rows: list[Row] = []
        self._chat_title_shown: str | None = None
        self._chat_title_of: tuple | None = None  # what the chat's title was made from
        self._prompt_title_of: tuple | None = None  # what the prompt's title was made from
        self._feedback_of: tuple | None = None  # what the marks were last written from (`_feedback`)
        # Seats' presence, the turn timer, watchers, unread chat (ui/feedback.py): marks on the widgets.
        self.feedback = TableFeedback(self.set_timer)
        self._win = (0, 0)

    @property
    def game_app(self) -> CitadelsApp:
        """The app the table is shown in (ui/app.py's, or the served game's subclass of it)."""
        # Textual types a screen's `app` as App[Any], whichever App subclass runs it
        return cast("CitadelsApp", self.app)

    def compose(self):
        self.set_class(self.show_chat, "-chat")
        yield StatusBar(id="status")
        players = PlayersPanel(id="players")
        players.fixed = True
        yield players
        yield PromptPanel(id="prompt")
        yield HandPanel(id="hand", classes="lower")
        yield LogView(id="log", classes="lower")
        if self.show_chat:
            yield ChatPanel(self.cat.t("ui.chat_placeholder"), self.cat.t("ui.chat_typing"), id="chat", classes="lower")
        yield KeyBar(id="keys")
        yield Static(id="small")

    def on_mount(self) -> None:
        # the panels a view updates, found once (a look-up per panel per view cost 3 % of a move)
        self.status_bar = self.query_one(StatusBar)
        self.players = self.query_one(PlayersPanel)
        self.hand = self.query_one(HandPanel)
        self.prompt = self.query_one(PromptPanel)
        self.log_view = self.query_one(LogView)
        self._win = (self.app.size.width, self.app.size.height)
        self.setup_keys()
        self._titles()
        self._ready = True
        self._layout()
        if self._view is not None:  # a view that arrived before the screen was composed
            rows, self._early_rows = self._early_rows, []
            self.show(self._view, rows)
        self.refresh_feedback()

    def on_resize(self, event: events.Resize) -> None:
        self._win = (event.size.width, event.size.height)
        self._layout()

    def on_screen_resume(self) -> None:
        # a resize while another screen was on top reached only that screen
        size = (self.app.size.width, self.app.size.height)
        if size != self._win:
            self._win = size
            self._layout()

    # --- layout ------------------------------------------------------------------------
    def _layout(self) -> None:
        """Work out the plan for the current size and content; move the panels if it changed."""
        if not self._ready or self._laying_out:
            return
        width, height = self._win
        lower = "cities" if self.cities else self.lower
        self._planned = replan(self._planned, width, height, _Needs(self), self.show_chat, lower, plan)
        new = self._planned.plan
        if new is self.plan:  # the plan kept (most views): not compared box by box
            return
        if new == self.plan:  # made again, the same: kept as this one, found by identity on the next views
            self.plan = new
            return
        self._laying_out = True
        try:
            self._apply(new)
        finally:
            self._laying_out = False

    def _apply(self, new: Plan) -> None:
        width, height = self._win
        old, self.plan = self.plan, new
        compact = new.compact
        mode_changed = old is None or old.mode != new.mode
        self.compact = compact
        self.set_class(new.mode == "small", "-small")
        self.set_class(new.mode == "compact", "-compact")
        self.set_class(new.mode == "roomy", "-roomy")
        if new.mode == "small":
            self.query_one("#small", Static).update(self._small_text(width, height))
        players = self.query_one(PlayersPanel)
        players.set_form(new.players_form, new.players_cols)
        self.query_one(HandPanel).set_form(new.hand_form)
        for name in PANELS:
            if name == "chat" and not self.show_chat:
                continue
            widget = self.query_one(f"#{name}")
            box = new.boxes.get(name)
            before = old.boxes.get(name) if old is not None else None
            if box is None:
                widget.display = False
                continue
            if box != before or not widget.display:
                _place(widget, box)
                widget.display = True
        self._keep_focus(new)
        self.update_keys()
        if mode_changed and self._view is not None and old is not None:
            self.show(self._view, [])
        elif mode_changed:
            self.refresh_feedback()

    def _keep_focus(self, new: Plan) -> None:
        """The "too small" notice hides every panel, and the focus with them: when the window grows
        again, the panel that had it gets it back (else the prompt), so that arrows and Enter work."""
        if new.mode == "small":
            self._refocus = self.focused or self._refocus
        elif self.focused is None or not self.focused.display:
            back = self._refocus if self._refocus is not None and self._refocus.display else None
            self.set_focus(back or self.query_one(PromptPanel))
            self._refocus = None

    def _small_text(self, width: int, height: int) -> str:
        cat = self.cat
        return (
            cat.t("ui.too_small", need=f"{MIN_WIDTH}x{MIN_HEIGHT}", have=f"{width}x{height}")
            + "\n\n"
            + cat.t("ui.too_small_hint")
        )

    def _titles(self) -> None:
        cat = self.cat
        self.query_one("#players").border_title = cat.t("ui.table")
        self.query_one("#hand").border_title = cat.t("ui.your_hand")
        self.query_one("#log").border_title = cat.t("ui.log")
        self._prompt_title_of = self._chat_title_of = None
        self._prompt_title()
        self._chat_title()

    def _prompt_title(self) -> None:
        """ "Your move" for a player; a spectator has none to make: what the game is at now."""
        watching = self._view is not None and self._view.seat is None
        made_of = (watching, self.cat.key)  # a title looked up again only when these change
        if made_of == self._prompt_title_of and self.cat.audit is None:  # (an audit sees every lookup)
            return
        self._prompt_title_of = made_of
        title = self.cat.t("ui.prompt_watching" if watching else "ui.prompt")
        prompt = self.query_one("#prompt")
        if prompt.border_title != title:
            prompt.border_title = title

    def _chat_title(self) -> None:
        """The chat's title, with the count of unread lines on large screens (small ones: the status bar)."""
        if not self.show_chat:
            return
        made_of = (self.feedback.unread if not self.compact else 0, self.cat.key)
        if made_of == self._chat_title_of and self.cat.audit is None:  # (on every view: the feedback's refresh)
            return
        self._chat_title_of = made_of
        title = self.cat.t("ui.chat")
        if self.feedback.unread and not self.compact:
            title = self.cat.t("ui.chat_title_unread", n=self.feedback.unread)
        if title != self._chat_title_shown:
            self._chat_title_shown = title
            self.query_one("#chat").border_title = title

    # --- from the app ------------------------------------------------------------------
    def set_language(self, cat: Catalogue, rows: list[Row]) -> None:
        self.cat = cat
        self._titles()
        self.update_keys()
        if self.show_chat:
            self.query_one(ChatPanel).set_placeholder(cat.t("ui.chat_placeholder"), cat.t("ui.chat_typing"))
        self.query_one(LogView).set_rows(rows)
        if self.plan is not None and self.plan.mode == "small":
            self.query_one("#small", Static).update(self._small_text(*self._win))
        if self._view is not None:
            self.show(self._view, [])

    def reset(self, cat: Catalogue) -> None:
        """Empty the screen for another table: no view, no log, no chat (a server reuses one
        table screen per session rather than leaving a widget tree behind after every game)."""
        self._view = None
        self._early_rows = []
        self.feedback.clear()
        self._feedback_of = None
        if not self._ready:
            self.cat = cat
            return
        self.query_one(PromptPanel).reset()
        self.query_one(HandPanel).clear()
        if self.show_chat:
            self.query_one(ChatPanel).clear()
        self.set_language(cat, [])
        self.refresh_feedback()
        self._layout()

    @painted  # its panels' changed lines painted at once (ui/compat/direct_paint.py)
    def show(self, view: Any, rows: list[Row]) -> None:
        """A new view (and new log rows): update only what changed."""
        self.take_view(view, rows)

    def take_view(self, view: Any, rows: list[Row]) -> None:
        """`show` for a caller already within `painting(self)` (the app's view update, with the turn's
        clock): the same, without a paint context of its own, nested, that would paint nothing."""
        self._view = view
        if not self._ready:
            self._early_rows.extend(rows)
            return
        cat = self.cat
        self.status_bar.show(view, cat)
        self.players.show(view, cat, self.compact)
        self.hand.show(view, cat)
        # `_layout()` below plans with the new menu; inside `_apply` it is skipped: let the prompt announce it
        if self.prompt.show(view, cat, roomy=not self.compact, announce=self._laying_out):
            self.update_keys()
            self._prompt_title()
        if rows:
            self.log_view.add_rows(rows)
        self._feedback()  # (within this update's paint)
        self._layout()

    @painted
    def refused(self, reason: str) -> None:
        self.query_one(PromptPanel).refused(reason)
        self.update_keys()  # the choices are the player's again

    @painted
    def add_log(self, rows: list[Row]) -> None:
        """Rows for the log that come without a view (the table's notices)."""
        if not self._ready:
            self._early_rows.extend(rows)
            return
        self.log_view.add_rows(rows)

    @painted
    def chat_line(self, author: str, text: str, watching: bool = False, own: bool = False) -> None:
        if not self.show_chat:
            return
        self.query_one(ChatPanel).add_row(chat_row(self.cat, author, text, watching))
        if not own and not self._reading_chat():
            self.feedback.unread += 1
            self.refresh_feedback()

    @painted
    def chat_notice(self, text: str) -> None:
        """The table's answer about the chat (slow down, spectators may not write): in the chat."""
        if self.show_chat:
            self.query_one(ChatPanel).add_row(notice_row(text))

    # --- presence, timers, watchers, unread chat ---------------------------------------------------
    @painted
    def set_presence(self, marks: list[SeatMark], watchers: int) -> None:
        self.feedback.marks, self.feedback.watchers = list(marks), watchers
        self.refresh_feedback()

    @painted
    def set_turn_deadline(self, deadline: float | None) -> None:
        self.take_turn_deadline(deadline)

    def take_turn_deadline(self, deadline: float | None) -> None:
        """`set_turn_deadline` within `painting(self)` (the app's view update)."""
        if deadline != self.feedback.turn_deadline:
            self.feedback.turn_deadline = deadline
            self._feedback()

    def _reading_chat(self) -> bool:
        if not self._ready:
            return False
        if self.compact:
            return self.lower == "chat"
        return self.focused_panel() in ("chat", "chat-input")

    def _chat_read(self) -> None:
        if self.feedback.unread:
            self.feedback.unread = 0
            self.refresh_feedback()

    @painted
    def refresh_feedback(self) -> None:
        """Write the marks as they are now; wake up again when a countdown's label changes."""
        self._feedback()

    def _feedback(self) -> None:
        """`refresh_feedback` within a paint context already (a view's update)."""
        fb = self.feedback
        if not self._ready:
            return
        view = self._view
        spectator = view is not None and view.seat is None
        # Without a countdown the marks are a function of these (the list of marks compares by identity
        # first): the same as last time, the widgets hold them already and no timer runs. On most views.
        made_of = (
            self.cat.key,
            self.compact,
            spectator,
            fb.watchers,
            fb.unread,
            fb.turn_deadline,
            fb.marks,
            tuple([p.name for p in view.players]) if view is not None else None,
        )
        if made_of == self._feedback_of and not fb.deadlines() and self.cat.audit is None:
            return
        self._feedback_of = made_of
        now = fb.now()
        names = {p.seat: p.name for p in view.players} if view is not None else {}
        self.players.set_marks(fb.seat_labels(self.cat, names, self.compact, now))
        self.prompt.set_clock(fb.turn_clock(self.cat, now))
        self.status_bar.set_badges(*fb.badges(self.cat, spectator, chat_hidden=self.compact))
        self._chat_title()
        fb.schedule(self.refresh_feedback, now)

    # --- keys ----------------------------------------------------------------------------
    def _leave_cities(self) -> bool:
        """Back from the whole cities when they hide the prompt (a key meant for it only brings it back)."""
        if self.cities and self.plan is not None and "prompt" not in self.plan.boxes:
            self.cities = False
            self._layout()
            self.query_one(PromptPanel).focus()
            return True
        return False

    def action_digit(self, digit: str) -> None:
        if not self._leave_cities():
            super().action_digit(digit)

    def action_back(self) -> None:
        if not self._leave_cities():
            super().action_back()

    def action_focus_panel(self, step: int) -> None:
        if self.cities:  # Tab leaves the cities
            self.cities = False
            self._layout()
            self.update_keys()
            return
        super().action_focus_panel(step)

    def action_cities(self) -> None:
        """Every player's whole city (type, cost and name of each district), or back."""
        self.cities = not self.cities
        self._layout()
        self.update_keys()

    def keys_now(self) -> list[tuple[str, str]]:
        if self.cities and self.plan is not None and "prompt" not in self.plan.boxes:
            k = lambda name: self.cat.t(f"keys.{name}")
            return [("F4 Tab Esc", k("back_to_game")), ("F1", k("help")), ("F2", k("language"))]
        out = super().keys_now()
        helps = [i for i, (key, _) in enumerate(out) if key == "F1"]
        if helps and self.compact and self.plan is not None and self.plan.mode != "small":
            out.insert(helps[0], ("F4", self.cat.t("keys.cities")))  # before help, menu and language
        return out

    def update_keys(self) -> None:
        mode = (self.cities, self.compact, self.plan.mode if self.plan is not None else None)
        if mode != self._footer_mode:  # the footer depends on these too (F4, the cities' own keys)
            self._keys_shown = None
            self._footer_mode = mode
        super().update_keys()

    @on(events.DescendantFocus)
    def _focus_reads_chat(self, event: events.DescendantFocus) -> None:
        if self.focused_panel() in ("chat", "chat-input"):
            self._chat_read()

    def _set_lower(self, which: str) -> None:
        """What the lower left of a compact screen shows: "hand" (and the log if it fits), "log" or
        "chat"; on a roomy screen everything is shown already."""
        self.lower = which
        self.cities = False
        for p in LOWER:
            self.set_class(p == which, f"-show-{p}")
        self._layout()
        if which == "chat":
            self._chat_read()

    @on(PromptPanel.Chosen)
    def _chosen(self, event: PromptPanel.Chosen) -> None:
        event.stop()
        if not self.compact:  # the chat was in view while the player chose: its lines count as read
            self._chat_read()
        self.game_app.send_command(event.command)

    @on(PromptPanel.MenuChanged)
    def _menu_changed(self, event: PromptPanel.MenuChanged) -> None:
        event.stop()
        # A long list may need a wider prompt; a menu that fits the usual prompt changes nothing.
        plan = self.plan
        prompt = self.query_one(PromptPanel)
        box = plan.boxes.get("prompt") if plan is not None else None
        if plan is not None and box is not None and box.w == prompt_width(self._win[0], plan.mode == "roomy"):
            size = prompt.drawn_size
            if prompt.fits(size.width, size.height):
                return
        self._layout()

    @on(ChatPanel.Said)
    def _said(self, event: ChatPanel.Said) -> None:
        event.stop()
        self.game_app.send_chat(event.text)


def _place(widget: Any, box: Box) -> None:
    widget.fixed_box = True  # its size is the plan's: one reflow when it changes (ui/compat/layout_patch.py)
    styles = widget.styles
    styles.offset = (box.x, box.y)
    styles.width = box.w
    styles.height = box.h
