"""The lobby's saved games: resuming the saves folder's unfinished games at start,
loading a save file as a new table (`citadels serve --load`, the lobby's "Load a
saved game"), and the table meta files written next to the saves.

A mixin of `server.lobby.lobby.Lobby` (which provides `store`, `tables`, `settings`,
`pool`, `clock`, `default_bot`, `problems`, `seat_of` and `_changed`).
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import Any

import msgspec

from engine.savefile import SaveError
from server.logging_setup import log_event
from server.tables.bot_names import bot_style
from server.tables.table import SeatSlot, Table, TableMeta

log = logging.getLogger("citadels.server.lobby.lobby")


class LobbyError(Exception):
    """A lobby request that cannot be done; the message is one sentence for the player."""


class SavedGames:
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
        """A table for a game in progress from the saves folder (resumed, or loaded from a file)."""
        save = ts.save
        meta = self._read_meta(ts.id) or TableMeta(
            name=ts.id, creator=next((s.key for s in save.seats if s.key), None), bot_kind=self.default_bot
        )
        seats = []
        for s in save.seats:
            slot = SeatSlot(name=s.name, key=s.key, bot=s.bot, style=bot_style(s.name) if s.bot else None)
            if slot.bot is None and slot.key is None:  # a guest's seat: nobody can reclaim it
                slot.bot = meta.bot_kind
            seats.append(slot)
        table = Table(
            ts.id,
            meta,
            seats,
            self.settings,
            store=self.store,
            pool=self.pool,
            on_change=self._table_changed,
            clock=self.clock,
        )
        table.resume(ts, save.config)
        self.tables[table.id] = table
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
        return table

    def load_file(self, path: str | Path, creator: str | None = None) -> Table:
        """`citadels serve --load FILE` or the lobby's "Load a saved game": the game as a new table.

        Its seats keep their keys: each player finds their seat by reconnecting (or from the lobby)."""
        from server.storage.persistence import read_save_file

        save = read_save_file(path)
        table_id = "t" + secrets.token_hex(4)
        ts = self.store.adopt(save, table_id)
        if creator is not None:
            meta = TableMeta(
                name=Path(path).stem, creator=creator, bot_kind=self.default_bot, lineup_label="saved game"
            )
            t = Table(ts.id, meta, [], self.settings)  # only to write the meta next to the save
            t.store = self.store
            t.write_meta()
        table = self.adopt(ts)
        log_event(log, logging.INFO, "game loaded", table=table.id, file=str(path))
        self._changed()
        return table

    def exports_dir(self) -> Path | None:
        return None if self.store is None else Path(self.store.root) / "exports"

    def saved_games(self) -> list[str]:
        folder = self.exports_dir()
        try:
            return sorted(p.stem for p in folder.glob("*.save"))[:50] if folder is not None else []
        except OSError:
            return []

    def load_saved(self, session: Any, name: str) -> None:
        if name not in self.saved_games():
            raise LobbyError("No saved game has this name.")
        try:
            table = self.load_file(self.exports_dir() / f"{name}.save", creator=session.key)
        except (SaveError, ValueError, OSError) as e:
            raise LobbyError(f"Cannot load it: {e}") from None
        own = table.seat_of(session.key)
        if own is not None and self.seat_of(session.key)[0] is table:
            session.table, session.seat = table, own
            session.enter_table(table, own)

    def _read_meta(self, table_id: str) -> TableMeta | None:
        if self.store is None:
            return None
        path = Path(self.store.root) / f"{table_id}.meta.json"
        try:
            data = path.read_bytes()
            if len(data) > 65536:
                return None
            return msgspec.json.decode(data, type=TableMeta)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            return None
