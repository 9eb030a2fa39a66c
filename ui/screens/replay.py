"""The replay screen: a saved game watched move by move.

    from ui.screens.replay import ReplayApp, ReplayOptions, ReplayScreen
    ReplayApp(save, ReplayOptions(lang="es", seat=None)).run()        # locally (`citadels save replay FILE`)
    app.push_screen(ReplayScreen(save, ReplayOptions(seats=[2], everything=False)))   # inside another app

Both take an `engine.savefile.Save` already loaded (no file I/O here) or a
`ui.replay.Replay`. A log that is not from its game raises `SaveError` in the
constructor. `ReplayOptions.seats` / `everything` limit the points of view
offered (e.g. a player watching an unfinished game: only their own seat).

Keys: → / n next move, ← / p previous, PgDn / r next round, PgUp / R this
round's start (again: the previous round's), Home / End, 1-8 a seat's view,
0 / a everything revealed (when offered), Tab / Shift+Tab the next / previous
point of view, ↑ ↓ scroll the log, F1 help, F2 language, F3 scores, Esc / q
leave (back to the screen below, or quit when alone).

The layout reuses the table's widgets (status bar, players, log) with two of
its own: `ReplayBar` (the move, the round, what happened, the points of view)
and `ReplayHands` (the hands the point of view may see; the scores at the end).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from engine.savefile import Save

from ..i18n import Catalogue
from ..replay import EVERYTHING, Frame, Replay
from ..widgets.key_bar import KeyBar
from ..widgets.log_view import LogView
from ..widgets.players import PlayersPanel
from ..widgets.replay_bar import ReplayBar
from ..widgets.replay_hands import ReplayHands
from ..widgets.status_bar import StatusBar
from .help import HelpScreen
from .scores import ScoresScreen

STYLES = Path(__file__).resolve().parent.parent / "styles"
COMPACT_WIDTH = 110
COMPACT_HEIGHT = 34


@dataclass
class ReplayOptions:
    lang: str = "en"  # "en" or "es"; F2 switches
    seat: int | None = None  # the first point of view: a seat, or None for everything revealed
    seats: list[int] | None = None  # the seats whose view may be chosen (None: every seat)
    everything: bool = True  # "everything revealed" may be chosen
    position: int = 0  # the first position shown (0: the deal; -1: the end)
    palette: str = "printed"  # card colours (ui/cards.py)


class ReplayScreen(Screen):
    CSS_PATH = [STYLES / "replay.tcss"]
    BINDINGS = [
        Binding("right,n", "step(1)", show=False),
        Binding("left,p", "step(-1)", show=False),
        Binding("pagedown,r", "round(1)", show=False),
        Binding("pageup,R", "round(-1)", show=False),
        Binding("home", "jump('start')", show=False),
        Binding("end", "jump('end')", show=False),
        *[Binding(str(d), f"seat({d - 1})", show=False) for d in range(1, 9)],
        Binding("0,a", f"seat({EVERYTHING})", show=False),
        Binding("tab", "cycle(1)", show=False, priority=True),
        Binding("shift+tab", "cycle(-1)", show=False, priority=True),
        Binding("up", "log_scroll(1)", show=False),
        Binding("down", "log_scroll(-1)", show=False),
        Binding("f1,question_mark", "help", show=False),
        Binding("f2", "switch_language", show=False),
        Binding("f3", "scores", show=False),
        Binding("escape,q", "leave", show=False),
    ]

    def __init__(self, save: Save | Replay, options: ReplayOptions | None = None, **kw: Any) -> None:
        super().__init__(id=kw.pop("id", "replay"), **kw)
        self.options = options or ReplayOptions()
        self.replay = save if isinstance(save, Replay) else Replay(save)
        self.cat = Catalogue(self.options.lang, self.replay.save.config.rules, palette=self.options.palette)
        n = len(self.replay.names)
        allowed = self.options.seats if self.options.seats is not None else list(range(n))
        self.seats = [s for s in allowed if 0 <= s < n]
        self.everything = self.options.everything or not self.seats
        self.views = self.seats + ([EVERYTHING] if self.everything else [])
        want = EVERYTHING if self.options.seat is None else self.options.seat
        self.seat = want if want in self.views else self.views[0]
        pos = self.options.position
        self.position = self.replay.total if pos < 0 else min(pos, self.replay.total)
        self.frame: Frame | None = None
        self.compact = True

    def compose(self):
        yield ReplayBar(id="rbar")
        yield StatusBar(id="status")
        yield PlayersPanel(id="players")
        yield ReplayHands(id="hands")
        yield LogView(id="log")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self._set_compact(self.app.size.width, self.app.size.height)
        self.show(self.position, full=True)

    def on_resize(self, event: events.Resize) -> None:
        self._set_compact(event.size.width, event.size.height)
        if self.frame is not None:
            self.show(self.position, full=True)

    def _set_compact(self, width: int, height: int) -> None:
        self.compact = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        self.set_class(self.compact, "-compact")
        self.set_class(not self.compact, "-roomy")
        self._titles()

    def _titles(self) -> None:
        cat = self.cat
        self.query_one("#players").border_title = cat.t("ui.table")
        self.query_one("#log").border_title = cat.t("ui.log")
        self.query_one(KeyBar).show(cat.t("replay.keybar" if self.compact else "replay.keybar_wide"))
        self._hands_title()

    def _hands_title(self) -> None:
        cat = self.cat
        if self.frame is not None and self._at_scores():
            title = cat.t("ui.scores")
        elif self.seat == EVERYTHING:
            title = cat.t("replay.every_hand")
        else:
            title = cat.t("replay.hand_of", name=self.replay.names[self.seat])
        self.query_one("#hands").border_title = title

    def _at_scores(self) -> bool:
        return self.position == self.replay.total and bool(self.frame and self.frame.view.scores)

    # --- showing a position ------------------------------------------------------------------
    def show(self, position: int, full: bool = False) -> None:
        """Show `position` (clamped) from the current point of view; the log is rebuilt
        unless this is the step right after the one on screen."""
        position = max(0, min(position, self.replay.total))
        before = self.frame
        frame = self.replay.frame(position, self.seat, self.cat)
        self.frame = frame
        self.position = position
        cat = self.cat
        view = frame.view
        self.query_one(ReplayBar).show(
            cat,
            position,
            frame.total,
            frame.round,
            frame.headline,
            self.replay.names,
            self.seats,
            self.seat,
            self.everything,
            self.replay.finished,
        )
        self.query_one(StatusBar).show(view, cat)
        self.query_one(PlayersPanel).show(view, cat, self.compact)
        self.query_one(ReplayHands).show(view, cat, self.seat, self._at_scores())
        self._hands_title()
        log = self.query_one(LogView)
        if not full and before is not None and before.seat == frame.seat and before.position + 1 == position:
            log.add_rows(frame.new_rows)
        else:
            log.set_rows(list(frame.rows))

    # --- keys ----------------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        self.show(self.position + delta)

    def action_round(self, direction: int) -> None:
        r = self.replay
        self.show(r.next_round(self.position) if direction > 0 else r.prev_round(self.position), full=True)

    def action_jump(self, where: str) -> None:
        self.show(0 if where == "start" else self.replay.total, full=True)

    def action_seat(self, seat: int) -> None:
        if seat in self.views and seat != self.seat:
            self.seat = seat
            self.show(self.position, full=True)

    def action_cycle(self, direction: int) -> None:
        i = self.views.index(self.seat)
        self.action_seat(self.views[(i + direction) % len(self.views)])

    def action_log_scroll(self, lines: int) -> None:
        self.query_one(LogView).scroll_rows(lines)

    def set_language(self, lang: str) -> None:
        self.options.lang = lang
        self.cat = Catalogue(lang, self.replay.save.config.rules, palette=self.options.palette)
        self._titles()
        self.show(self.position, full=True)

    def action_switch_language(self) -> None:
        self.set_language(self.cat.other())

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.cat, self.frame.view if self.frame else None))

    def action_scores(self) -> None:
        if self.frame is not None and self.frame.view.scores:
            self.app.push_screen(ScoresScreen(self.cat, self.frame.view))

    def action_leave(self) -> None:
        if len(self.app.screen_stack) > 1 and self.app.screen_stack[0] is not self:
            self.dismiss()
        else:
            self.app.exit()


class ReplayApp(App):
    """A replay on its own (locally: `citadels save replay FILE`)."""

    # the default screen's CSS_PATH is not loaded by Textual (only pushed screens' are): listed here too
    CSS_PATH = [STYLES / "app.tcss", STYLES / "modals.tcss", STYLES / "replay.tcss"]
    TITLE = "Citadels"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", show=False, priority=True)]

    def __init__(self, save: Save | Replay, options: ReplayOptions | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.replay_screen = ReplayScreen(save, options)

    def get_default_screen(self) -> ReplayScreen:
        return self.replay_screen
