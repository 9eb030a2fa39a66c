"""The lobby: the index of tables and of the players connected to this server.

Identity is the SSH key's fingerprint (guests get a per-session identity and
cannot come back to a seat), and with the players database the key's player:
a seat is bound to its player, so the same key, or another key of the same
player, reconnecting is put back at its seat (and screen); nobody else can take
it (accounts.py: `same`).

Before a table starts, the lobby manages its seats itself (no game state
exists yet): join, leave, bots in open seats, the creator removing a player.
Once started, everything about the game goes through the table's actor
(server/tables/table.py). Sessions in the lobby get a fresh `LobbyUpdate` after
changes, coalesced (at most one every `BROADCAST_DELAY` seconds), so a busy
lobby costs one small message per idle session, not one per change.

Its parts: players, names and keys (accounts.py), tables' owners, limits and lifetimes (lifetimes.py), join codes
(join_codes.py), saved games and their owners (saved_games.py, exports.py),
what the lobby screen is sent (snapshots.py). Every name and table name a
person types goes through the one sanitiser (engine/text.py).

The sessions it talks to are `server.app.PlayerSession`s: `key`, `name`,
`guest`, `info` (peer address, `close`), `table`, `seat`, `post(msg)`,
`enter_table(table, seat)`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from typing import Any

from engine import SetupError, new_game
from engine.savefile import Save
from engine.text import MAX_NAME, MAX_TABLE_NAME, clean_name, clean_text, name_problem
from server.admin.bans import Bans
from server.config import ServerConfig
from server.lobby import rematch
from server.lobby.accounts import Accounts
from server.lobby.errors import LobbyError
from server.lobby.exports import ExportIndex, Exports
from server.lobby.join_codes import Attempts, JoinCodes
from server.lobby.lifetimes import OPEN_PHASES, TableLifetimes, TableOrigin, address_of, first_seat
from server.lobby.saved_games import SavedGames
from server.lobby.seating import Seating
from server.lobby.snapshots import LobbyViews
from server.logging_setup import log_event
from server.tables.bot_names import BOT_MARK, bot_style
from server.tables.seats import lineup_label
from server.tables.table import SeatSlot, Table, TableMeta, TableSettings
from ui.lobby_link import LobbyUpdate, TableSpec

log = logging.getLogger("citadels.server.lobby.lobby")

__all__ = ["BOT_MARK", "MAX_NAME", "Lobby", "LobbyError", "TableSpec", "bot_style", "clean_name"]


class Lobby(Accounts, SavedGames, Exports, TableLifetimes, JoinCodes, Seating, LobbyViews):
    def __init__(
        self,
        config: ServerConfig,
        store: Any = None,
        pool: Any = None,
        clock: Any = time.monotonic,
        bans: Bans | None = None,
        players: Any = None,
    ) -> None:
        self.config = config
        self.players = players  # server.players.service.PlayersService, or None: keys are identities
        self.store = store
        self.pool = pool
        self.clock = clock
        self.bans = bans or Bans(None)
        self.default_bot = config.bot_kind
        self.settings = TableSettings(
            idle_wait=config.idle_wait_seconds,
            bot_delay=config.bot_delay_seconds,
            timers={
                "off": None,
                "relaxed": config.turn_timer_relaxed_seconds,
                "blitz": config.turn_timer_blitz_seconds,
            },
            queue_size=config.table_queue_size,
        )
        self.tables: dict[str, Table] = {}
        self.sessions: set[Any] = set()
        self.names: dict[str, str] = {}  # identity -> the name chosen in the lobby (this run)
        self.origins: dict[str, TableOrigin] = {}
        self.loaded: dict[str, Save] = {}
        self.games: dict[str, str] = {}
        self.exports = ExportIndex(None if store is None else store.root / "exports", clock)
        self.code_tries = Attempts(config.join_code_attempts_per_identity, config.join_code_window_seconds, clock)
        self.code_tries_by_address = Attempts(
            config.join_code_attempts_per_address, config.join_code_window_seconds, clock
        )
        self.refusals: Counter[str] = Counter()  # refused requests by cause, for the host
        self._broadcast_handle: asyncio.TimerHandle | None = None
        self._abandon_timers: dict[str, asyncio.TimerHandle] = {}
        self.problems: list[str] = []  # saved games that cannot be resumed (stderr at start)
        self.warnings: list[str] = []  # saved games resumed or loaded with something to say (stderr at start)
        self._stopping: set[asyncio.Task] = set()  # closed tables' stop tasks, kept until done
        self._account_tasks: set[asyncio.Task] = set()  # logins and name claims waiting on the database

    # --- sessions ---------------------------------------------------------------------------------
    def connect(self, session: Any) -> None:
        """A session arrives: back to its seat if its key has one in a game, else the lobby."""
        banned = self.bans.banned(None if session.guest else session.key, address_of(session))
        if banned is not None:
            self.refusals["banned"] += 1
            log_event(log, logging.INFO, "session refused", cause="banned", key=session.key, peer=address_of(session))
            session.info.close(banned)
            return
        self.sessions.add(session)
        if not session.guest and session.key in self.names:
            session.name = self.names[session.key]
        self.account_arrives(session)  # the player and their name from memory; the database catches up
        self.back_to_seat(session)
        self._changed()

    def disconnect(self, session: Any) -> None:
        if session not in self.sessions:
            return
        self.sessions.discard(session)
        table = session.table
        if table is not None:
            if table.phase == "waiting" and session.seat is not None:
                if session.guest:  # a guest's seat is freed: they cannot come back to it
                    self._free_seat(table, session.seat)
                if self.same(table.meta.creator, session.key) and not self.connected(session.key):
                    self.creator_left(table)
            elif session.at_table:
                table.detach(session)
            self.maybe_drop(table)
        self._changed()

    def seat_of(self, key: str) -> tuple[Table | None, int | None]:
        """The table where `key` has a seat (a saved game waiting for it only if it has no other)."""
        seats = ((t, s) for t in self.tables.values() if t.phase in OPEN_PHASES and (s := t.seat_of(key)) is not None)
        return first_seat(seats, lambda ts: ts[0].id in self.loaded) or (None, None)

    def connected(self, key: str | None) -> bool:
        return key is not None and any(self.same(s.key, key) for s in self.sessions)

    def present(self, t: Table, key: str | None) -> bool:
        """A session of `key` is at table `t` (in its room, or playing)."""
        return key is not None and any(s.table is t and self.same(s.key, key) for s in self.sessions)

    def note_refusal(self, session: Any, request: str, error: LobbyError) -> None:
        """Count and log a refused request (the host's view of what is being refused, and why)."""
        self.refusals[error.cause] += 1
        log_event(log, logging.INFO, "request refused", request=request, cause=error.cause, session=_sid(session))

    # --- requests from sessions (all synchronous) ----------------------------------------------------
    def rename(self, session: Any, name: str) -> None:
        name = clean_name(name)
        problem = name_problem(name)
        if problem is not None:
            raise LobbyError(problem, "bad_name")
        t = session.table
        if t is not None and t.phase == "playing" and session.seat is not None:
            raise LobbyError("You cannot change your name during a game.", "renaming")
        if t is not None and t.phase == "waiting" and session.seat is not None and self.loaded_game(t) is not None:
            raise LobbyError("A saved game keeps its players' names.", "renaming")
        self.check_name_free(session, name)  # another player's claimed name is theirs alone
        if self.claims_names(session):
            self.claim_later(session, name)  # used once the players database says it is theirs
            return
        self.apply_name(session, name)

    def create(self, session: Any, spec: TableSpec) -> Table:
        self._not_seated(session)
        self.check_capacity(session)
        kind = self._checked_spec(spec)
        table_id = "t" + secrets.token_hex(4)
        while table_id in self.tables:
            table_id = "t" + secrets.token_hex(4)
        name = clean_text(spec.name, MAX_TABLE_NAME) or clean_text(f"{session.name}'s table", MAX_TABLE_NAME)
        meta = TableMeta(
            name=name,
            creator=session.key,
            timer=spec.timer,
            private=spec.private,
            code=self._code() if spec.private else None,
            spectator_chat=spec.spectator_chat,
            bot_kind=kind,
            lineup_label=lineup_label(spec.lineup, spec.rules),
        )
        seats = [SeatSlot(name="") for _ in range(spec.players)]
        table = self._new_table(table_id, meta, seats)
        table.spec = spec  # type: ignore[attr-defined]
        self._take_seat(table, 0, session)
        for i in range(spec.players - spec.bots, spec.players):
            self._bot_in(table, i, kind)
        self.tables[table_id] = table
        self.note_origin(table, session)
        table.start_actor()
        log_event(
            log,
            logging.INFO,
            "table created",
            table=table_id,
            players=spec.players,
            bots=spec.bots,
            rules=spec.rules,
            lineup=meta.lineup_label,
            private=spec.private,
            timer=spec.timer,
            session=_sid(session),
            guest=session.guest,
        )
        self._changed()
        return table

    def join(self, session: Any, table_id: str, seat: int | None = None, code: str | None = None) -> None:
        t = self._table(table_id)
        if session.table is t and session.seat is not None:
            return
        own = t.seat_of(session.key)
        if own is not None and t.phase == "waiting":  # your seat at a saved game waiting for you
            self._not_seated(session, but=t)
            self._leave_watching(session)
            session.table, session.seat = t, own
            log_event(log, logging.INFO, "player joined", table=t.id, seat=own, session=_sid(session))
            self._changed()
            return
        self._not_seated(session)
        if t.meta.private and code != t.meta.code:
            raise LobbyError("This table is private: join it with its code.", "private")
        if t.phase != "waiting":
            raise LobbyError("This game has started: you can watch it.", "started")
        if self.loaded_game(t) is not None:
            raise LobbyError("This is a saved game: only its own players sit at it.", "saved_game")
        open_seats = [i for i, s in enumerate(t.seats) if self._open(s)]
        if not open_seats:
            raise LobbyError("This table is full.", "full")
        if seat is None:
            seat = open_seats[0]
        elif seat not in open_seats:
            raise LobbyError("That seat is taken.", "seat_taken")
        self._leave_watching(session)
        self._take_seat(t, seat, session)
        log_event(log, logging.INFO, "player joined", table=t.id, seat=seat, session=_sid(session), guest=session.guest)
        self._changed()

    def watch(self, session: Any, table_id: str, code: str | None = None) -> None:
        t = self._table(table_id)
        if t.meta.private and code != t.meta.code and t.seat_of(session.key) is None:
            raise LobbyError("This table is private: watch it with its code.", "private")
        if t.phase == "waiting":
            raise LobbyError("This game has not started yet.", "not_started")
        own = t.seat_of(session.key)
        if own is not None and t.phase == "playing":
            session.table, session.seat = t, own
            session.enter_table(t, own)
            return
        self._leave_watching(session)
        if session.table is not None and session.seat is not None and session.table.phase == "waiting":
            raise LobbyError("Leave your table before watching another.", "seated")
        session.table, session.seat = t, None
        session.enter_table(t, None)
        log_event(log, logging.INFO, "watching", table=t.id, session=_sid(session), guest=session.guest)
        self._changed()

    def back_to_table(self, session: Any) -> None:
        t, seat = self.seat_of(session.key)
        if t is None or t.phase != "playing":
            raise LobbyError("You have no game to return to.", "no_game")
        session.table, session.seat = t, seat
        session.enter_table(t, seat)

    def to_lobby(self, session: Any) -> None:
        """From the table screen back to the lobby; a player keeps their seat (away)."""
        t = session.table
        if t is not None and session.at_table:
            t.detach(session)
        session.at_table = False
        if t is not None and (session.seat is None or t.phase == "over"):
            session.table, session.seat = None, None
            self.maybe_drop(t)
        self._changed()

    def leave(self, session: Any) -> None:
        """Leave the table you sit at before it starts (its creator closes it)."""
        t = session.table
        if t is None:
            return
        if t.phase != "waiting" or session.seat is None:
            self.to_lobby(session)
            return
        if self.same(t.meta.creator, session.key):
            self.close_table(t, "The table's creator closed it.")
        else:
            if self.loaded_game(t) is None:  # a saved game's seat stays its player's
                self._free_seat(t, session.seat)
            session.table, session.seat = None, None
            log_event(log, logging.INFO, "player left the table", table=t.id, session=_sid(session))
        self._changed()

    def start(self, session: Any) -> None:
        t = self._own_waiting(session)
        if self.loaded_game(t) is not None:
            self.start_loaded(t)
            self._changed()
            return
        missing = [i for i, s in enumerate(t.seats) if self._open(s)]
        if missing:
            raise LobbyError(f"{len(missing)} seat(s) still open: wait for players or add bots.", "seats_open")
        names = [s.name for s in t.seats]
        spec: TableSpec = t.spec  # type: ignore[attr-defined]
        cfg = self._game_config(spec, names, seed=secrets.randbits(31))
        try:
            new_game(cfg)
        except SetupError as e:
            raise LobbyError(str(e), "bad_spec") from None
        for i, s in enumerate(t.seats):
            if s.human:
                player = self._session_of(s.key)
                if player is not None and player.table is t:
                    player.enter_table(t, i)
                else:
                    s.away_since = self.clock()
        t.write_meta()
        t.begin(cfg)
        self._changed()

    def add_bot(self, session: Any, seat: int | None = None) -> None:
        t = self._own_waiting(session)
        open_seats = [i for i, s in enumerate(t.seats) if self._open(s)]
        if not open_seats:
            raise LobbyError("No open seat.", "no_open_seat")
        if seat is None:
            seat = open_seats[0]
        if seat not in open_seats:
            raise LobbyError("That seat is not open.", "seat_taken")
        self._bot_in(t, seat, t.meta.bot_kind)
        self._changed()

    def remove(self, session: Any, seat: int) -> None:
        """The creator removes a player before the start (at a saved game: a bot will play their seat)."""
        t = self._own_waiting(session)
        if not 0 <= seat < len(t.seats):
            raise LobbyError("No such seat.", "no_seat")
        if self.same(t.seats[seat].key, session.key):
            raise LobbyError("You cannot remove yourself: leave the table to close it.", "own_seat")
        gone = t.seats[seat].key
        saved = self.loaded_game(t) is not None
        if saved:
            self._bot_in(t, seat, t.meta.bot_kind)
            why = "The creator of this saved game chose a bot to play your seat."
        else:
            self._free_seat(t, seat)
            why = "The table's creator removed you from the table."
        for s in list(self.sessions):
            if s.table is t and self.same(s.key, gone):
                s.table, s.seat = None, None
                s.post(LobbyUpdate(self.snapshot(s), notice=why))
        self._changed()

    def replace_with_bot(self, session: Any, seat: int) -> None:
        t = session.table
        if t is None or not self.same(t.meta.creator, session.key):
            raise LobbyError("Only the table's creator can do that.", "not_creator")
        if t.phase != "playing":
            raise LobbyError("The game is not running.", "not_running")
        if not 0 <= seat < len(t.seats) or t.seats[seat].bot is not None:
            raise LobbyError("No player at that seat.", "no_seat")
        if t.seats[seat].client is not None or (self.connected(t.seats[seat].key) and t.seats[seat].away_since is None):
            raise LobbyError("That player is here: only an absent player can be replaced.", "player_here")
        t.replace_with_bot(seat)

    def play_again(self, session: Any) -> None:
        """The same seats again (server/lobby/rematch.py)."""
        rematch.play_again(self, session)

    def kept_seat(self, session: Any) -> None:
        """Back in the lobby after a game: the room of its new game, if one keeps a seat (rematch.py)."""
        rematch.kept_seat(self, session)

    def set_spectator_chat(self, session: Any, allowed: bool) -> None:
        t = session.table
        if t is None or not self.same(t.meta.creator, session.key):
            raise LobbyError("Only the table's creator can do that.", "not_creator")
        t.meta.spectator_chat = allowed
        t.write_meta()
        t.notice("spectator_chat_on" if allowed else "spectator_chat_off")

    async def close(self) -> None:
        for handle in self._abandon_timers.values():
            handle.cancel()
        self._abandon_timers.clear()
        for t in list(self.tables.values()):
            await t.stop()
        if self._broadcast_handle is not None:
            self._broadcast_handle.cancel()
        await self.close_accounts()

    # --- helpers ----------------------------------------------------------------------------------------
    def _table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None or t.phase == "closed":
            raise LobbyError("This table no longer exists.", "no_table")
        return t

    def _not_seated(self, session: Any, but: Table | None = None) -> None:
        for t in self.tables.values():
            if t is not but and t.phase in ("waiting", "playing") and t.seat_of(session.key) is not None:
                if t.phase == "waiting" and self.loaded_game(t) is not None and not self.present(t, session.key):
                    continue  # a saved game waiting for you does not hold you
                what = "a game" if t.phase == "playing" else "a table"
                raise LobbyError(f"You already have a seat at {what} ({t.meta.name}): leave it first.", "seated")

    def _own_waiting(self, session: Any) -> Table:
        t = session.table
        if t is None or t.phase != "waiting" or not self.same(t.meta.creator, session.key):
            raise LobbyError("Only the table's creator can do that, before the start.", "not_creator")
        return t

    def _session_of(self, key: str | None) -> Any:
        best = None
        for s in self.sessions:
            if self.same(s.key, key):
                best = s
        return best

    def _leave_watching(self, session: Any) -> None:
        t = session.table
        if t is not None and session.seat is None:
            if session.at_table:
                t.detach(session)
            session.table = None
            self.maybe_drop(t)

    def _table_changed(self, t: Table) -> None:
        self._changed()


def _sid(session: Any) -> str | None:
    info = getattr(session, "info", None)
    return getattr(info, "session_id", None)
