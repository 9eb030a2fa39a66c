"""The served app: one `ServerApp` per SSH session, starting on the lobby.

`make_app_factory(lobby)` gives the synchronous factory that `server.transport.ssh`
calls in each session's fresh context. The app is the game screen
(`ui.CitadelsApp`) whose first screen is the lobby (`ui/screens/lobby.py`);
it switches to a fresh table screen when its player sits down at a running
game or watches one, and back to the lobby when they leave it. Ctrl+Q at a
table opens the table menu (lobby, the creator's actions, quit) instead of
quitting at once.

`PlayerSession` is the session's side of everything: the `TableLink` the game
screen sends commands through, the `LobbyLink` the lobby screen calls, and the
`Client` the lobby and table actors post to. The table actor posts only its
typed messages (server/tables/messages.py); `PlayerSession.post` adapts each
to the app's own message (`adapt`): views, refusals, chat lines, the table's
notices, the seats' presence (durations become deadlines on this process's
clock). Messages for the app are posted, never awaited; each table message
carries a generation number so that one posted for a table the player has
since left is dropped.

With the players database (`lobby.players`), a session also has a `player_id` (its key's
player, once known) and a `PlayersLink` (server/players/session_link.py) through which the
app opens the profile, leaderboard, "my games" and account screens (ui/players_nav.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec
from textual.binding import Binding
from textual.message import Message

from engine.text import player_name
from server.lobby.lobby import Lobby, LobbyError
from server.logging_setup import log_event
from server.players.session_link import SessionPlayers
from server.tables import messages as tm
from server.tables.table import Table
from server.transport.input_budget import run_metered
from server.transport.screen_wire import Carried
from server.transport.session import ServerStopping, SessionInfo
from server.transport.session_info import InputThrottled
from ui import CitadelsApp, UiOptions
from ui.app import STYLES
from ui.cards import PALETTES
from ui.compat import direct_messages
from ui.compat.served_app import queued_messages
from ui.link import ChatLine, CommandRefused, SeatMark, SeatStates, TableNotice, ViewUpdate
from ui.lobby_link import LobbyOptions, LobbySnapshot, LobbyUpdate, TableMenuInfo, TableSpec
from ui.players_nav import PlayersNavigation
from ui.screens.help import HelpScreen
from ui.screens.lobby import LobbyScreen
from ui.screens.scores import ScoresScreen
from ui.screens.table import TableScreen
from ui.screens.table_menu import TableMenuScreen

if TYPE_CHECKING:
    from server.cluster.front_lobby import FrontLobby

log = logging.getLogger("citadels.server.app")

MAX_QUEUED_MESSAGES = 2000  # an app this far behind is not reading: close the session
CHAT_BURST = 5  # chat lines per CHAT_WINDOW seconds
CHAT_WINDOW = 5.0


class EnterTable(Message):
    def __init__(self, gen: int, spectator: bool) -> None:
        super().__init__()
        self.gen = gen
        self.spectator = spectator


class LeaveTable(Message):
    def __init__(self, gen: int, text: str = "", key: str = "") -> None:
        super().__init__()
        self.gen = gen
        self.text = text
        self.key = key  # a lobby.<key> sentence, said in the session's language (else `text`)


class ShowToast(Message):
    def __init__(self, text: str, error: bool = False, key: str = "", fields: dict | None = None) -> None:
        super().__init__()
        self.text = text
        self.error = error
        self.key = key  # notice.<key>, said in the session's language (else `text`)
        self.fields = fields or {}


TABLE_MESSAGES = (ViewUpdate, CommandRefused, ChatLine, TableNotice, SeatStates)


def adapt(message: tm.ToSession, now: float) -> Message:
    """The app's message for a table's message (`now`: time.monotonic(), for deadlines)."""
    match message:
        case tm.SeatView(view, events, by_bot, turn_left):
            return ViewUpdate(view, events, by_bot, None if turn_left is None else now + turn_left)
        case tm.Refused(reason):
            return CommandRefused(reason)
        case tm.Chat(author, text, watching, past):
            return ChatLine(author, text, watching, past)
        case tm.Notice(key, fields, where):
            return TableNotice(key, fields, where)
        case tm.Presence(seats, watchers):
            marks = [SeatMark(p.state, None if p.bot_in is None else now + p.bot_in) for p in seats]
            return SeatStates(marks, watchers)
        case tm.Toast(text, error, key, fields):
            return ShowToast(text, error, key, fields)
    raise TypeError(f"not a table message: {type(message).__name__}")


class PlayerSession:
    """One connected player (or spectator): TableLink, LobbyLink and table Client at once."""

    def __init__(self, info: SessionInfo, lobby: Lobby | FrontLobby) -> None:
        self.info = info
        self.lobby = lobby
        self.guest = info.key_fingerprint is None
        self.key = info.key_fingerprint or f"guest:{info.session_id}"
        self.name = player_name(info.username)  # "*", "server" and the like are refused: "player"
        if info.carried is not None and info.carried.name:  # renamed on the screen it moved from
            self.name = player_name(info.carried.name)
        self.player_id: int | None = None  # the key's player in the players database, once known
        self.table: Table | None = None
        self.seat: int | None = None
        self.at_table = False
        self.app: Any = None
        self.gen = 0
        self._chat: deque[float] = deque(maxlen=CHAT_BURST)
        self.connected_at = time.time()  # for the host's list of sessions

    # --- Client: the lobby and the table post here -----------------------------------------------
    def post(self, message: Any) -> None:
        """A table's message (adapted for the app) or the lobby's and the session's own app messages."""
        app = self.app
        if app is None:
            return
        if isinstance(message, tm.Displaced):
            self.gen += 1
            self.at_table = False
            self.table, self.seat = None, None
            message = LeaveTable(self.gen, message.text, message.key)
        elif isinstance(message, msgspec.Struct):
            message = adapt(message, time.monotonic())  # type: ignore[arg-type]
        if isinstance(message, TABLE_MESSAGES):
            message.gen = self.gen  # type: ignore[union-attr]
        if queued_messages(app) > MAX_QUEUED_MESSAGES:
            log_event(log, logging.WARNING, "session too far behind; closing", session=self.info.session_id)
            self.info.close("Your connection is too slow to follow the game; please reconnect.")
            return
        if type(message) is ViewUpdate and app.take_now(message):
            return
        app.post_message(message)

    def enter_table(self, table: Table, seat: int | None) -> None:
        self.gen += 1
        self.table, self.seat = table, seat
        self.at_table = True
        self.post(EnterTable(self.gen, seat is None))
        table.attach(self, seat)

    # --- TableLink: the game screen --------------------------------------------------------------
    def attach(self, app: Any) -> None:
        self.app = app
        self.lobby.connect(self)
        log_event(
            log,
            logging.INFO,
            "player connected",
            session=self.info.session_id,
            guest=self.guest,
            key=None if self.guest else self.key,
            peer=self.info.peer_host,
        )

    def detach(self, app: Any) -> None:
        if self.app is app:
            self.lobby.disconnect(self)
            self.app = None
            log_event(log, logging.INFO, "player left", session=self.info.session_id)

    def send(self, command: Any) -> None:
        if self.at_table and self.table is not None and self.seat is not None:
            self.table.submit(self, command)
        elif self.app is not None:
            self.post(CommandRefused("You are watching: spectators do not play."))

    def chat(self, text: str) -> None:
        t = self.table
        if t is None or not self.at_table:
            return
        if self.seat is None and not t.meta.spectator_chat:
            self.post(tm.Notice("spectators_read_only", where="chat"))
            return
        now = time.monotonic()
        if len(self._chat) == CHAT_BURST and now - self._chat[0] < CHAT_WINDOW:
            self.post(tm.Notice("slow_down", where="chat"))
            return
        self._chat.append(now)
        author = self.name if self.seat is None else t.seats[self.seat].name
        t.chat(author, text, watching=self.seat is None)

    # --- LobbyLink: the lobby screen -----------------------------------------------------------------
    def _call(self, fn: Callable[..., Any], *args: Any) -> str | None:
        try:
            fn(self, *args)
        except LobbyError as e:
            self.lobby.note_refusal(self, fn.__name__, e)
            return str(e)
        return None

    def snapshot(self) -> LobbySnapshot:
        return self.lobby.snapshot(self)

    def options(self) -> LobbyOptions:
        return self.lobby.options()

    def rename(self, name: str) -> str | None:
        error = self._call(self.lobby.rename, name)
        if error is None and self.app is not None:
            self.app.options.name = self.name
        return error

    def create(self, spec: TableSpec) -> str | None:
        return self._call(self.lobby.create, spec)

    def join(self, table_id: str, seat: int | None = None) -> str | None:
        return self._call(self.lobby.join, table_id, seat)

    def join_code(self, code: str) -> str | None:
        return self._call(self.lobby.join_code, code)

    def watch(self, table_id: str) -> str | None:
        return self._call(self.lobby.watch, table_id)

    def back_to_table(self) -> str | None:
        return self._call(self.lobby.back_to_table)

    def leave(self) -> str | None:
        return self._call(self.lobby.leave)

    def saved_games(self) -> list[str]:
        return self.lobby.saved_games_for(self)

    def load_saved(self, name: str) -> str | None:
        return self._call(self.lobby.load_saved, name)

    def start(self) -> str | None:
        return self._call(self.lobby.start)

    def add_bot(self, seat: int | None = None) -> str | None:
        return self._call(self.lobby.add_bot, seat)

    def remove(self, seat: int) -> str | None:
        return self._call(self.lobby.remove, seat)

    # --- the table menu ----------------------------------------------------------------------------
    def table_menu(self) -> TableMenuInfo:
        t = self.table
        if t is None:
            return TableMenuInfo(creator=False, spectator=True, absent=[], spectator_chat=False, saving=False)
        creator = self.lobby.same(t.meta.creator, self.key) and self.seat is not None
        absent = [
            (i, s.name) for i, s in enumerate(t.seats) if s.bot is None and s.client is None and t.phase == "playing"
        ]
        return TableMenuInfo(
            creator=creator,
            spectator=self.seat is None or t.phase == "over",  # after the end no seat waits for anyone
            absent=absent,
            spectator_chat=t.meta.spectator_chat,
            saving=t.save is not None and t.phase == "playing",
            profiles=self.lobby.profile_seats(t, self.seat),
        )

    def replace_with_bot(self, seat: int) -> str | None:
        return self._call(self.lobby.replace_with_bot, seat)

    def set_spectator_chat(self, allowed: bool) -> str | None:
        return self._call(self.lobby.set_spectator_chat, allowed)

    async def save_as(self, name: str) -> str | None:
        return await self.lobby.export_game(self, name)

    def to_lobby(self) -> None:
        self.gen += 1
        self.lobby.to_lobby(self)
        self.lobby.kept_seat(self)  # after a game: the room of its new game, if one keeps a seat
        if self.app is not None:
            self.app.post_message(LeaveTable(self.gen))

    # --- the end of a game -----------------------------------------------------------------------------
    def play_again(self) -> str | None:
        """The same seats again: to the new game's room in the lobby (or its table, once started)."""
        error = self._call(self.lobby.play_again)
        if error is None and not self.at_table:
            self.gen += 1
            if self.app is not None:
                self.app.post_message(LeaveTable(self.gen))
        return error

    def replay_save(self) -> Any:
        """The finished game (config and every command) when the table keeps it, for the replay."""
        t = self.table
        if t is None or t.phase != "over" or t.save is None or self.seat is None:
            return None
        return t.save.save


class ServerApp(PlayersNavigation, CitadelsApp):
    """The game screen behind SSH: the lobby first, a table screen while at a table."""

    CSS_PATH = [*CitadelsApp.CSS_PATH, STYLES / "lobby.tcss"]
    BINDINGS = [Binding("ctrl+q", "menu", show=False, priority=True)]
    TABLE_SCREEN_AT_START = False
    PLAY_AGAIN_HERE = False  # the session goes to the new game's room in the lobby

    def __init__(self, info: SessionInfo, lobby: Lobby | FrontLobby) -> None:
        session = PlayerSession(info, lobby)
        lang = "es" if (info.lang or "").lower().startswith("es") else "en"
        options = UiOptions(lang=lang, name=session.name, show_chat=True, chat_send=session.chat)
        kept = info.carried  # a screen moved from another worker: what the player had set there
        if kept is not None:
            options.lang = kept.lang if kept.lang in ("en", "es") else lang
            options.alerts = kept.alerts
            options.palette = kept.palette if kept.palette in PALETTES else options.palette
        super().__init__(session, options)
        self.session = session
        self.players_link = None if lobby.players is None else SessionPlayers(session, lobby, lobby.players)
        self.lobby_screen = LobbyScreen(self.cat, session)
        self._gen = 0
        self.at_table = False

    def take_now(self, message: ViewUpdate) -> bool:
        """A table's view for an app waiting for a message (nothing queued before it): dispatched in
        the loop's next step without waking the app's task (ui/compat/direct_messages.py), in the
        app's context, its time charged to the session's input budget as its task's would be.

        Not at once: the poster's step finishes first, as when the app's task took the view (the
        end screen reads the table's phase, set after its last view is posted). Nothing the app
        takes can come between: a message posted meanwhile wakes its task after this step, and
        another view posted meanwhile is scheduled after this one."""
        context = self.own_context
        if context is None or not direct_messages.takes(self, message):
            return False
        asyncio.get_running_loop().call_soon(run_metered, context, direct_messages.dispatch, self, message)
        return True

    def carried(self) -> Carried:
        """What a move to another worker keeps of this screen (server/transport/screen_moves.py)."""
        o = self.options
        return Carried(name=self.session.name, lang=o.lang, alerts=o.alerts, palette=o.palette)

    def get_default_screen(self) -> LobbyScreen:  # type: ignore[override]
        return self.lobby_screen

    # --- lobby and table ---------------------------------------------------------------------------
    def on_lobby_update(self, msg: LobbyUpdate) -> None:
        self.lobby_screen.update(msg.snapshot, msg.notice)

    def on_enter_table(self, msg: EnterTable) -> None:
        self._gen = msg.gen
        self.reset_log()
        self.options.name = self.session.name
        self._pop_to_base()
        if self.at_table:
            self.pop_screen()
        # One table screen per session, installed (kept when popped) and emptied for each table: a
        # new screen per game would leave its widget tree behind in reference cycles, which with
        # many sessions live only a full collection (a pause of seconds) would free.
        if self.table is None:
            self.table = TableScreen(self.cat, show_chat=True)
            self.install_screen(self.table, name="table")
        else:
            self.table.reset(self.cat)
        self.push_screen("table")
        self.at_table = True

    def on_leave_table(self, msg: LeaveTable) -> None:
        if msg.gen < self._gen:
            return
        self._gen = msg.gen
        self._turn_alert(False)
        if self.table is not None:
            self.table.feedback.clear()  # no countdown runs for a table left behind
        self._pop_to_base()
        if self.at_table:
            self.pop_screen()
            self.at_table = False
        text = self.cat.t(f"lobby.{msg.key}") if msg.key else msg.text
        self.lobby_screen.update(self.session.snapshot(), text or None)

    def _pop_to_base(self) -> None:
        base = 2 if self.at_table else 1
        while len(self.screen_stack) > base:
            self.pop_screen()

    def on_show_toast(self, msg: ShowToast) -> None:
        text = self.cat.t(f"notice.{msg.key}", **msg.fields) if msg.key else msg.text
        self.notify(text, severity="error" if msg.error else "information", timeout=8)

    def on_server_stopping(self, msg: ServerStopping) -> None:
        self.notify(msg.text, severity="warning")

    def on_input_throttled(self, msg: InputThrottled) -> None:
        # Posted at most once every few seconds (server/transport/driver.py): one toast is cheap.
        text = self.cat.t(f"notice.{msg.key}") if msg.key else msg.text
        self.notify(text, severity="warning", timeout=4)

    # --- messages from the table: only those of the current table ----------------------------------------
    def _stale(self, msg: Message) -> bool:
        if not self.at_table or getattr(msg, "gen", None) != self._gen:
            msg.prevent_default()
            return True
        return False

    def on_view_update(self, msg: ViewUpdate) -> None:
        self._stale(msg)

    def on_command_refused(self, msg: CommandRefused) -> None:
        self._stale(msg)

    def on_chat_line(self, msg: ChatLine) -> None:
        self._stale(msg)

    def on_table_notice(self, msg: TableNotice) -> None:
        self._stale(msg)

    def on_seat_states(self, msg: SeatStates) -> None:
        self._stale(msg)

    # --- actions -----------------------------------------------------------------------------------
    def action_menu(self) -> None:
        if not self.at_table:
            self.exit()
        elif isinstance(self.screen, TableMenuScreen):
            self.pop_screen()
        else:
            self.push_screen(TableMenuScreen(self.cat, self.session))

    def set_language(self, lang: str) -> None:
        from ui.i18n import Catalogue

        self.options.lang = lang
        self.cat = Catalogue(lang, self.cat.rules, palette=self.options.palette)
        self._pop_to_base()
        if self.at_table:
            self.table.set_language(self.cat, self.log_rows())
        self.lobby_screen.set_language(self.cat)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        if isinstance(self.screen, TableMenuScreen):
            return
        self.push_screen(HelpScreen(self.cat, self.view if self.at_table else None))

    def action_scores(self) -> None:
        if self.at_table:
            super().action_scores()


def make_app_factory(lobby: Lobby | FrontLobby) -> Callable[[SessionInfo], ServerApp]:
    def factory(info: SessionInfo) -> ServerApp:
        return ServerApp(info, lobby)

    return factory


__all__ = ["PlayerSession", "ScoresScreen", "ServerApp", "make_app_factory"]
