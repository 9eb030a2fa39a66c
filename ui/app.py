"""The game screen for one seat: `CitadelsApp(link, options)`.

The app holds the latest view and renders it; it never reads game state.
Views arrive as `ViewUpdate` messages (post them with `app.post_message`);
the player's choices leave through `link.send(command)`. See `ui/README.md`.
"""

from __future__ import annotations

import contextvars
from pathlib import Path
from typing import Any, cast

from textual.app import App
from textual.binding import Binding

from .compat import terminal
from .compat.direct_paint import painting
from .i18n import Catalogue
from .link import ChatLine, CommandRefused, SeatStates, TableLink, TableNotice, UiOptions, ViewUpdate
from .log_text import LogLine, LogWriter
from .notices import NoticeLine, event_row, notice_row
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
        Binding("f5", "switch_palette", show=False),
        Binding("ctrl+q", "quit", show=False, priority=True),
    ]

    # A subclass that shows another screen first (the server's lobby) makes its table screen later.
    TABLE_SCREEN_AT_START = True
    # "Play again" continues on this table screen (a local table); the server's goes to the lobby's room.
    PLAY_AGAIN_HERE = True

    def __init__(self, link: TableLink | None = None, options: UiOptions | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.link = link
        self.options = options or UiOptions()
        self.cat = Catalogue(self.options.lang, palette=self.options.palette)
        self.view: Any = None
        self._log_items: list[Any] = []  # the game log's items: events (redacted for this seat) and NoticeLines
        self._log_bot = bytearray()  # per item: 1 if a bot chose the event's command in a person's stead
        self._writer = LogWriter(self.cat, None)
        self._scores_shown = False
        self._my_move = False  # a decision of this seat is pending (for the turn alert)
        self._title_set = False  # the terminal's title was changed (restored on leaving)
        self.alerts_given = 0  # turn alerts given (BEL + title), for tests
        # the app's task's context (its handlers' context variables), for a driver or server that
        # calls a handler without waking the task (ui/compat/direct_keys.py, direct_messages.py)
        self.own_context: contextvars.Context | None = None
        self.table: TableScreen = (
            TableScreen(self.cat, show_chat=self.options.show_chat)  # type: ignore[assignment]
            if self.TABLE_SCREEN_AT_START
            else None
        )

    # --- life cycle --------------------------------------------------------------------
    def get_default_screen(self) -> TableScreen:
        return self.table

    def on_mount(self) -> None:
        self.own_context = contextvars.copy_context()  # (a handler runs in the app's task's context)
        attach = getattr(self.link, "attach", None)
        if attach is not None:
            attach(self)

    def on_unmount(self) -> None:
        self._restore_title()
        detach = getattr(self.link, "detach", None)
        if detach is not None:
            detach(self)

    # --- from the table ------------------------------------------------------------------
    def on_view_update(self, msg: ViewUpdate) -> None:
        with painting(self.table):  # the view and the turn's clock: one write (ui/compat/direct_paint.py)
            self._take_view(msg)

    def _take_view(self, msg: ViewUpdate) -> None:
        view = msg.view
        # The catalogue follows the rule set in play: its edition's card names, ranks, costs and texts.
        new_edition = self.cat.set_rules(view.rules) and self.view is not None
        self.view = view
        self._writer.seat = view.seat
        names = [p.name for p in view.players]
        rows = []
        for i, ev in enumerate(msg.events):
            by_bot = i < len(msg.by_bot) and msg.by_bot[i]
            self._log_items.append(ev)
            self._log_bot.append(by_bot)
            rows.append(self._row(self._writer.line(ev, names), by_bot))
        self._trim_log()
        mine = view.pending is not None and view.pending.seat == view.seat and view.phase != "over" and bool(view.legal)
        self._turn_alert(mine)  # before the frame: the driver sends the bell and title with it
        # (within `painting(self.table)`, from `on_view_update`: the screen's calls that take no paint of their own)
        if new_edition:  # another game on this screen: everything again, in its edition
            self.table.set_language(self.cat, self.log_rows())
            self.table.take_view(view, [])
        else:
            self.table.take_view(view, rows)
        self.table.take_turn_deadline(msg.turn_deadline if mine else None)
        if view.phase == "over" and not self._scores_shown and self.options.show_scores_at_end:
            self._scores_shown = True
            self.action_scores()

    def on_command_refused(self, msg: CommandRefused) -> None:
        self.table.refused(msg.reason)

    def on_chat_line(self, msg: ChatLine) -> None:
        self.table.chat_line(msg.author, msg.text, msg.watching, own=msg.past or msg.author == self._own_name())

    def on_table_notice(self, msg: TableNotice) -> None:
        line = NoticeLine(msg.key, msg.fields)
        if msg.where == "chat" and self.table.show_chat:
            self.table.chat_notice(line.text(self.cat))
            return
        self._log_items.append(line)
        self._log_bot.append(0)
        self._trim_log()
        self.table.add_log([notice_row(line.text(self.cat))])

    def on_seat_states(self, msg: SeatStates) -> None:
        self.table.set_presence(msg.seats, msg.watchers)

    def _own_name(self) -> str:
        v = self.view
        if v is not None and v.seat is not None and 0 <= v.seat < len(v.players):
            return v.players[v.seat].name
        return self.options.name

    def _trim_log(self) -> None:
        if len(self._log_items) > MAX_EVENTS:
            del self._log_items[: len(self._log_items) - MAX_EVENTS]
            del self._log_bot[: len(self._log_bot) - MAX_EVENTS]

    @property
    def _events(self) -> list[Any]:
        """The events of the log (as this seat was told them)."""
        return [x for x in self._log_items if not isinstance(x, NoticeLine)]

    def reset_log(self) -> None:
        """Another table: no log, no pending decision of ours."""
        self.view = None
        self._log_items = []
        self._log_bot = bytearray()
        self._writer = LogWriter(self.cat, None)
        self._scores_shown = False
        self._turn_alert(False)

    # --- the turn alert: BEL and the terminal's title ----------------------------------------
    def _turn_alert(self, mine: bool) -> None:
        """A decision became this seat's: ring and say so in the window's title (unless switched off);
        the title goes back when the decision is made."""
        if mine and not self._my_move and self.options.alerts:
            self.alerts_given += 1
            terminal.write(self, terminal.BEL)
            self._set_title(self.cat.t("ui.title_your_move"))
        elif not mine and self._my_move:
            self._restore_title()
        self._my_move = mine

    def _set_title(self, title: str) -> None:
        data = terminal.title_sequence(title)
        if not self._title_set:
            data = terminal.SAVE_TITLE + data
        if terminal.write(self, data):
            self._title_set = True

    def _restore_title(self) -> None:
        if self._title_set and terminal.write(self, terminal.RESTORE_TITLE):
            self._title_set = False

    def set_alerts(self, on: bool) -> None:
        """Switch the turn alert (the table menu's setting)."""
        self.options.alerts = on
        if not on:
            self._restore_title()

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
    def _row(self, line: LogLine, by_bot: bool = False) -> Row:
        return event_row(self.cat, line.text, line.quiet, line.private, by_bot)

    def log_rows(self) -> list[Row]:
        """The whole log rendered again (after a language switch)."""
        writer = LogWriter(self.cat, self.view.seat if self.view is not None else None)
        self._writer = writer
        names = [p.name for p in self.view.players] if self.view is not None else []
        rows = []
        for item, by_bot in zip(self._log_items, self._log_bot):
            if isinstance(item, NoticeLine):
                rows.append(notice_row(item.text(self.cat)))
            else:
                rows.append(self._row(writer.line(item, names), bool(by_bot)))
        return rows

    # --- actions -------------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        self.options.lang = lang
        self.cat = Catalogue(lang, self.cat.rules, palette=self.options.palette)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.table.set_language(self.cat, self.log_rows())

    def action_switch_language(self) -> None:
        self.set_language(self.cat.other())

    def action_switch_palette(self) -> None:
        """The card colours: the printed cards' or the colour-blind palette (the letters stay)."""
        from .cards import PALETTES

        palette = PALETTES[(PALETTES.index(self.options.palette) + 1) % len(PALETTES)]
        self.options.palette = palette
        self.set_language(self.cat.lang)  # everything drawn again with the new colours
        self.notify(self.cat.t(f"ui.palette_{palette.replace('-', '_')}"), timeout=3)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen(self.cat, self.view))

    def action_scores(self) -> None:
        if self.view is None or not self.view.scores or isinstance(self.screen, ScoresScreen):
            return
        self.push_screen(ScoresScreen(self.cat, self.view, self.end_choices()), self.end_choice)

    # --- the end of a game: where to go next ---------------------------------------------------
    def end_choices(self) -> list[tuple[str, str]]:
        """(key, label) of what the final scores offer: play again with the same seats (a player),
        the replay from your seat (a player, when the table can give the game), the lobby or quit."""
        cat, link = self.cat, cast(Any, self.link)  # replay_save/play_again: what a table link may offer
        seated = self.view is not None and self.view.seat is not None
        out = []
        if seated and getattr(link, "play_again", None) is not None:
            out.append(("again", cat.t("score.again")))
        if seated and getattr(link, "replay_save", None) is not None and link.replay_save() is not None:
            out.append(("replay", cat.t("score.replay")))
        if getattr(link, "to_lobby", None) is not None:
            out.append(("lobby", cat.t("score.lobby")))
        else:
            out.append(("quit", cat.t("score.quit")))
        return out

    def end_choice(self, key: str | None) -> None:
        """What the player chose on the final scores (None: back to the table)."""
        link: Any = self.link
        if key == "again":
            error = link.play_again()  # a local table posts the new game's view: it comes after the reset
            if error:
                self.notify(error, severity="error")
            elif self.PLAY_AGAIN_HERE:
                self.reset_table()
        elif key == "replay":
            self.watch_replay()
        elif key == "lobby":
            link.to_lobby()
        elif key == "quit":
            self.exit()

    def watch_replay(self) -> None:
        """The finished game move by move, from this seat's point of view only (never every hand)."""
        from .screens.replay import ReplayOptions, ReplayScreen

        link: Any = self.link
        save = link.replay_save() if link is not None else None
        if save is None or self.view is None or self.view.seat is None:
            return
        seat = self.view.seat
        options = ReplayOptions(
            lang=self.cat.lang, seat=seat, seats=[seat], everything=False, palette=self.options.palette
        )
        self.push_screen(ReplayScreen(save, options))

    def reset_table(self) -> None:
        """An empty table screen for the next game at this table (the log and scores too)."""
        self.reset_log()
        while len(self.screen_stack) > 1 and self.screen is not self.table:
            self.pop_screen()
        self.table.reset(self.cat)
