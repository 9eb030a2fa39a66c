"""The game screen for one seat: `CitadelsApp(link, options)`.

The app holds the latest view and renders it; it never reads game state.
Views arrive as `ViewUpdate` messages (post them with `app.post_message`);
the player's choices leave through `link.send(command)`. See `ui/README.md`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding

from .i18n import Catalogue
from .link import ChatLine, CommandRefused, TableLink, UiOptions, ViewUpdate
from .log_text import LogLine, LogWriter
from .screens.help import HelpScreen
from .screens.scores import ScoresScreen
from .screens.table import TableScreen
from .widgets.log_view import Row

STYLES = Path(__file__).parent / "styles"
MAX_EVENTS = 2000


class CitadelsApp(App):
    """One player's view of one table."""

    CSS_PATH = [
        STYLES / "app.tcss",
        STYLES / "table.tcss",
        STYLES / "widgets.tcss",
        STYLES / "modals.tcss",
        STYLES / "focus.tcss",  # the focused panel (ui/screens/table_keys.py)
    ]
    TITLE = "Citadels"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("f1", "help", show=False),
        Binding("question_mark", "help", show=False),
        Binding("f2", "switch_language", show=False),
        Binding("f3", "scores", show=False),
        Binding("ctrl+q", "quit", show=False, priority=True),
    ]

    # A subclass that shows another screen first (the server's lobby) makes its table screen later.
    TABLE_SCREEN_AT_START = True

    def __init__(self, link: TableLink | None = None, options: UiOptions | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.link = link
        self.options = options or UiOptions()
        self.cat = Catalogue(self.options.lang)
        self.view: Any = None
        self._events: list[Any] = []
        self._writer = LogWriter(self.cat, None)
        self._scores_shown = False
        self.table: TableScreen = (
            TableScreen(self.cat, show_chat=self.options.show_chat) if self.TABLE_SCREEN_AT_START else None
        )  # type: ignore[assignment]

    # --- life cycle --------------------------------------------------------------------
    def get_default_screen(self) -> TableScreen:
        return self.table

    def on_mount(self) -> None:
        attach = getattr(self.link, "attach", None)
        if attach is not None:
            attach(self)

    def on_unmount(self) -> None:
        detach = getattr(self.link, "detach", None)
        if detach is not None:
            detach(self)

    # --- from the table ------------------------------------------------------------------
    def on_view_update(self, msg: ViewUpdate) -> None:
        view = msg.view
        # The catalogue follows the rule set in play: its edition's card names, ranks, costs and texts.
        new_edition = self.cat.set_rules(view.rules) and self.view is not None
        self.view = view
        self._writer.seat = view.seat
        names = [p.name for p in view.players]
        rows = []
        for ev in msg.events:
            self._events.append(ev)
            rows.append(self._row(self._writer.line(ev, names)))
        if len(self._events) > MAX_EVENTS:
            del self._events[: len(self._events) - MAX_EVENTS]
        if new_edition:  # another game on this screen: everything again, in its edition
            self.table.set_language(self.cat, self.log_rows())
            self.table.show(view, [])
        else:
            self.table.show(view, rows)
        if view.phase == "over" and not self._scores_shown and self.options.show_scores_at_end:
            self._scores_shown = True
            self.action_scores()

    def on_command_refused(self, msg: CommandRefused) -> None:
        self.table.refused(msg.reason)

    def on_chat_line(self, msg: ChatLine) -> None:
        self.table.chat_line(msg.author, msg.text)

    # --- to the table ----------------------------------------------------------------------
    def send_command(self, command: Any) -> None:
        if self.link is not None:
            self.link.send(command)

    def send_chat(self, text: str) -> None:
        if self.options.chat_send is not None:
            self.options.chat_send(text)
        else:
            self.table.chat_line(self.options.name or self.cat.t("ui.you"), text)

    # --- log rows ----------------------------------------------------------------------------
    def _row(self, line: LogLine) -> Row:
        style = "dim" if line.quiet else ""
        if line.private:
            return Row(line.text, style=style, tag=f"[{self.cat.t('ui.private')}]", tag_style="bold reverse")
        return Row(line.text, style=style)

    def log_rows(self) -> list[Row]:
        """The whole log rendered again (after a language switch)."""
        writer = LogWriter(self.cat, self.view.seat if self.view is not None else None)
        self._writer = writer
        names = [p.name for p in self.view.players] if self.view is not None else []
        return [self._row(writer.line(ev, names)) for ev in self._events]

    # --- actions -------------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        self.options.lang = lang
        self.cat = Catalogue(lang, self.cat.rules)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.table.set_language(self.cat, self.log_rows())

    def action_switch_language(self) -> None:
        self.set_language(self.cat.other())

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen(self.cat, self.view))

    def action_scores(self) -> None:
        if self.view is None or not self.view.scores or isinstance(self.screen, ScoresScreen):
            return
        self.push_screen(ScoresScreen(self.cat, self.view))
