"""The lobby's saved games: resuming the saves folder's unfinished games at start, the host's
`citadels serve --load FILE`, a player loading one of their exports, and the table meta files.

- **Owners**: a player sees and loads only the exports they own (exports.py); a
  stranger asking for one by name is told none has that name, as if it did not exist.
- **Live at most once**: every table knows its game (`engine.savefile.game_key`);
  loading a game that is already open takes the player to it (their seat, or
  watching) instead of opening a second copy.
- **A loaded game waits in its room** for its players, with its privacy (a fresh
  join code) and its seats bound to their keys; its loader starts it once every
  player is there, or after choosing bots for the seats of those who will not
  come (and for its guests' seats, which nobody can reclaim). Until it starts
  nothing is written: a table closed before its start leaves no trace.
- **Recovery**: a resumed game whose log was damaged is reported on stderr (via
  `warnings`), in the log at WARNING, and to its players when they sit down.

A mixin of `server.lobby.lobby.Lobby` (which provides `store`, `tables`, `settings`,
`pool`, `clock`, `default_bot`, `problems`, `warnings`, `exports`, `sessions`,
`seat_of`, `present`, `check_capacity`, `note_origin`, `watch` and `_changed`).
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import Any

import msgspec

from engine.savefile import Save, SaveError, Seat, clean_names, game_key
from engine.text import MAX_TABLE_NAME, clean_text
from server.lobby.errors import LobbyError
from server.lobby.join_codes import new_code
from server.logging_setup import log_event
from server.tables.bot_names import bot_style
from server.tables.table import SeatSlot, Table, TableMeta
from ui.lobby_link import LobbyUpdate

log = logging.getLogger("citadels.server.lobby.lobby")

NO_SUCH_SAVE = "No saved game of yours has this name."


class SavedGames:
    store: Any
    tables: dict[str, Table]
    loaded: dict[str, Save]  # table id -> the saved game waiting in its room (not started yet)
    games: dict[str, str]  # table id -> its game's key
    problems: list[str]
    warnings: list[str]

    # --- the saves folder at start ----------------------------------------------------------------
    def resume_saved(self) -> list[Table]:
        """Reload every unfinished game of the saves folder (call once, at start)."""
        from server.storage.persistence import PersistenceError

        store = self.store
        if store is None:
            return []
        store.cleanup()
        tables = []
        for table_id in store.unfinished():
            try:
                ts = store.open(table_id)
            except SaveError as e:
                # A log that no longer replays (the rules changed since): the snapshot is what the
                # players saw, so resume from it rather than refusing the game.
                try:
                    ts = store.open(table_id, check=False)
                except (SaveError, PersistenceError) as e2:
                    self.problems.append(str(e2))
                    log_event(log, logging.ERROR, "cannot resume a saved game", table=table_id, error=str(e2))
                    continue
                log_event(
                    log,
                    logging.WARNING,
                    "resumed from the snapshot: its log no longer replays",
                    table=table_id,
                    error=str(e),
                )
            except PersistenceError as e:
                self.problems.append(str(e))
                log_event(log, logging.ERROR, "cannot resume a saved game", table=table_id, error=str(e))
                continue
            if ts.finished:
                continue
            tables.append(self.adopt(ts))
        return tables

    def adopt(self, ts: Any) -> Table:
        """A table for a game in progress from the saves folder (resumed, or loaded by the host)."""
        save = ts.save
        meta = self._read_meta(ts.id) or TableMeta(
            name=ts.id,
            creator=next((s.key for s in save.seats if s.key), None),
            bot_kind=self.default_bot,  # type: ignore[attr-defined]
            private=save.private,
            code=self._code() if save.private else None,
        )
        seats = []
        for s in save.seats:
            slot = SeatSlot(name=s.name, key=s.key, bot=s.bot, style=bot_style(s.name) if s.bot else None)
            if slot.bot is None and slot.key is None:  # a guest's seat: nobody can reclaim it
                slot.bot = meta.bot_kind
            seats.append(slot)
        table = self._new_table(ts.id, meta, seats)
        table.resume(ts, save.config)
        self.tables[table.id] = table
        self.games[table.id] = game_key(save.config, save.created)
        table.start_actor()
        rec = ts.recovery
        log_event(
            log,
            logging.INFO,
            "table resumed",
            table=ts.id,
            commands=len(save.log),
            recovered=rec.log_commands if rec else 0,
            dropped=rec.dropped if rec else None,
        )
        if rec is not None and rec.damaged:
            line = rec.for_host()
            self.warnings.append(line)
            log_event(log, logging.WARNING, "a damaged save was recovered", table=ts.id, detail=line, lost=rec.lost)
            table.notes.append(rec.player_notice())
        return table

    def load_file(self, path: str | Path) -> Table:
        """`citadels serve --load FILE`: the game as a running table (its players find their seats by key;
        a bot plays for those who do not come, after the idle wait). SaveError/ValueError if it cannot be."""
        from server.storage.savelog import atomic_write, read_save_file

        save = read_save_file(path)
        live = self.live_table(game_key(save.config, save.created))
        if live is not None:
            raise SaveError(f"{path}: this game is already running here (table {live.id})")
        if save.owners is None:
            self.warnings.append(
                f"{path}: a save made before saves recorded their players: loaded for the host; its players "
                "find their seats by key, and later saves of it record them"
            )
        clean_names(save)
        table_id = "t" + secrets.token_hex(4)
        ts = self.store.adopt(save, table_id)
        meta = TableMeta(
            name=clean_text(Path(path).stem, MAX_TABLE_NAME) or table_id,
            creator=None,
            bot_kind=self.default_bot,  # type: ignore[attr-defined]
            lineup_label="saved game",
            private=save.private,
            code=self._code() if save.private else None,
        )
        atomic_write(Path(self.store.root) / f"{table_id}.meta.json", msgspec.json.encode(meta), durable=False)
        table = self.adopt(ts)
        log_event(log, logging.INFO, "game loaded", table=table.id, file=str(path), by="host", private=save.private)
        self._changed()  # type: ignore[attr-defined]
        return table

    # --- players' saved games -------------------------------------------------------------------
    def saved_games_for(self, session: Any) -> list[str]:
        if session.guest or self.store is None:
            return []
        return [e.name for e in self.exports.owned_by(session.key, self.same)]  # type: ignore[attr-defined]

    def load_saved(self, session: Any, name: str) -> None:
        """Load one of `session`'s exports: into its room, or to the table where it is already open."""
        entry = None if session.guest else self.exports.get(name)  # type: ignore[attr-defined]
        if entry is None or not self.owns(entry.owners, session.key):
            raise LobbyError(NO_SUCH_SAVE, "not_owner")
        live = self.live_table(entry.game)
        if live is not None:
            self._take_to(session, live)
            return
        self._not_seated(session)  # type: ignore[attr-defined]
        self.check_capacity(session)  # type: ignore[attr-defined]
        from server.storage.savelog import read_save_file

        try:
            save = read_save_file(self.exports.folder / f"{name}.save")  # type: ignore[attr-defined]
        except (SaveError, OSError) as e:
            raise LobbyError(f"Cannot load it: {clean_text(str(e).split(': ')[-1], 200)}", "bad_save") from None
        if not self.owns(save.owners, session.key):
            raise LobbyError(NO_SUCH_SAVE, "not_owner")
        if save.finished:
            raise LobbyError("This game is over: it can be watched as a replay, not continued.", "finished")
        seat = next((i for i, s in enumerate(save.seats) if s.bot is None and self.same(s.key, session.key)), None)  # type: ignore[attr-defined]
        if seat is None:
            raise LobbyError(
                "A bot plays your seat in this game now: a player who still has a seat can load it.", "no_seat"
            )
        clean_names(save)
        meta = TableMeta(
            name=clean_text(name, MAX_TABLE_NAME),
            creator=session.key,
            bot_kind=self.default_bot,  # type: ignore[attr-defined]
            lineup_label="saved game",
            private=save.private,
            code=self._code() if save.private else None,
        )
        seats = [
            SeatSlot(name=s.name, key=s.key, bot=s.bot, style=bot_style(s.name) if s.bot else None) for s in save.seats
        ]
        table = self._new_table("t" + secrets.token_hex(4), meta, seats)
        self.tables[table.id] = table
        self.loaded[table.id] = save
        self.games[table.id] = entry.game
        self.note_origin(table, session)  # type: ignore[attr-defined]
        table.start_actor()
        session.table, session.seat = table, seat
        for other in list(self.sessions):  # type: ignore[attr-defined]
            i = table.seat_of(other.key)
            if other is not session and i is not None and other.table is None and self.seat_of(other.key)[0] is table:  # type: ignore[attr-defined]
                other.table, other.seat = table, i
                other.post(LobbyUpdate(self.snapshot(other), notice=f"{session.name} loaded a saved game of yours."))  # type: ignore[attr-defined]
        log_event(log, logging.INFO, "game loaded", table=table.id, name=name, by=session.key, private=save.private)
        self._changed()  # type: ignore[attr-defined]

    def owns(self, owners: Any, key: str) -> bool:
        """`key` (or another key of its player) is one of a save's owners (None: nobody's but the host's)."""
        return owners is not None and any(self.same(o, key) for o in owners)  # type: ignore[attr-defined]

    def loaded_game(self, t: Table) -> Save | None:
        return self.loaded.get(t.id)

    def live_table(self, game: str) -> Table | None:
        """The open table (waiting or playing) of this game, if any."""
        for t in self.tables.values():
            if t.phase in ("waiting", "playing") and self._game_of(t) == game:
                return t
        return None

    def _game_of(self, t: Table) -> str | None:
        key = self.games.get(t.id)
        if key is None and t.save is not None:
            s = t.save.save
            key = self.games[t.id] = game_key(s.config, s.created)
        return key

    def _take_to(self, session: Any, t: Table) -> None:
        """Loading a game that is already open: its player goes to their seat, another owner watches."""
        own = t.seat_of(session.key)
        if own is not None and t.phase == "playing":
            session.table, session.seat = t, own
            session.enter_table(t, own)
        elif own is not None:
            if session.table is not t:
                self._not_seated(session)  # type: ignore[attr-defined]
                session.table, session.seat = t, own
            session.post(LobbyUpdate(self.snapshot(session), notice="This game is already open: here is its room."))  # type: ignore[attr-defined]
        elif t.phase == "playing":
            self.watch(session, t.id, code=t.meta.code)  # type: ignore[attr-defined]
        else:
            raise LobbyError("This game is already open and waits for its players.", "already_open")
        log_event(log, logging.INFO, "load of an open game: taken to it", table=t.id, key=session.key)
        self._changed()  # type: ignore[attr-defined]

    def start_loaded(self, t: Table) -> None:
        """Start a loaded game from its room: every seat a present player or a bot the creator chose."""
        save = self.loaded[t.id]
        open_seats = [s.name for s in t.seats if s.bot is None and s.key is None]
        if open_seats:
            raise LobbyError(f"Nobody can reclaim {', '.join(open_seats)}'s seat: put a bot there.", "seats_open")
        away = [s.name for s in t.seats if s.bot is None and not self.present(t, s.key)]  # type: ignore[attr-defined]
        if away:
            raise LobbyError(
                f"Waiting for {', '.join(away)}: or remove them to let bots play their seats.", "players_away"
            )
        save.seats = [Seat(name=s.name, key=s.key if s.bot is None else None, bot=s.bot) for s in t.seats]
        try:
            ts = self.store.adopt(save, t.id)
        except (SaveError, OSError, ValueError) as e:
            raise LobbyError(f"Cannot start it: {e}", "bad_save") from None
        del self.loaded[t.id]
        t.resume(ts, save.config)
        t.write_meta()
        for i, s in enumerate(t.seats):
            if s.bot is None:
                player = self._session_of(s.key)  # type: ignore[attr-defined]
                if player is not None and player.table is t:
                    player.enter_table(t, i)
        log_event(log, logging.INFO, "table started", table=t.id, loaded=True, players=len(t.seats))

    # --- helpers ----------------------------------------------------------------------------------
    def _new_table(self, table_id: str, meta: TableMeta, seats: list[SeatSlot]) -> Table:
        table = Table(
            table_id,
            meta,
            seats,
            self.settings,  # type: ignore[attr-defined]
            store=self.store,
            pool=self.pool,  # type: ignore[attr-defined]
            on_change=self._table_changed,  # type: ignore[attr-defined]
            clock=self.clock,  # type: ignore[attr-defined]
        )
        self.wire_table(table)  # type: ignore[attr-defined]  # accounts.py: seats by player, the game recorded
        return table

    def _code(self) -> str:
        return new_code(t.meta.code for t in self.tables.values())

    def _read_meta(self, table_id: str) -> TableMeta | None:
        if self.store is None:
            return None
        path = Path(self.store.root) / f"{table_id}.meta.json"
        try:
            data = path.read_bytes()
            if len(data) > 65536:
                return None
            meta = msgspec.json.decode(data, type=TableMeta)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            return None
        meta.name = clean_text(meta.name, MAX_TABLE_NAME) or table_id
        return meta
