"""`PlayerStore`: the players database behind one object (synchronous; `AsyncPlayerStore` runs it off the loop).

    store = PlayerStore.open("sqlite:///saves/players.sqlite3", migrate=True)
    me = store.player_for_key("SHA256:...")
    store.claim_name(me.id, "Ana")
    store.record_game(record)            # a finished game: history + ratings, one transaction
    store.profile(me.id); store.leaderboard("2016", you=me.id); store.games(player_id=me.id)

Each call is one transaction: writes begin with the write lock held (SQLite: BEGIN
IMMEDIATE), reads see one consistent snapshot. A write that loses a race on a unique
key (two first connections with one key, two games creating one rating row) is tried
again from the start; a refusal for the player is an `AccountError`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError, OperationalError

from engine.savefile import Save

from . import accounts, history, migrate, profiles
from .game_record import GameRecord
from .ratings import RatingPolicy
from .records import GameSummary, KeyInfo, Leaderboard, Player, Profile, RecordResult
from .url import WRITE, database_url, describe, make_engine

T = TypeVar("T")
WRITE_TRIES = 3


def _busy(e: OperationalError) -> bool:
    """SQLite's "database is locked" / "busy": another writer had the lock (PostgreSQL never says this)."""
    text = str(e.orig).lower()
    return "locked" in text or "busy" in text


def utcnow() -> datetime:
    return datetime.now(UTC)


class PlayerStore:
    def __init__(
        self, engine: Engine, policy: RatingPolicy | None = None, clock: Callable[[], datetime] = utcnow
    ) -> None:
        self.engine = engine
        self.policy = policy or RatingPolicy()
        self.clock = clock
        self.places = profiles.PlaceCache()  # a profile's places: refetched at most every 30 s

    @classmethod
    def open(
        cls,
        url: str | URL | None = None,
        *,
        saves_dir: str | Path = "saves",
        migrate_schema: bool = False,
        policy: RatingPolicy | None = None,
        **engine_kw,
    ) -> PlayerStore:
        """Open the database at `url` (None: the SQLite file next to the saves). With
        `migrate_schema` an empty or older database is brought up to date, else it must be
        (`migrate.SchemaError`)."""
        engine = make_engine(url if isinstance(url, URL) else database_url(url, saves_dir), **engine_kw)
        if migrate_schema:
            migrate.upgrade(engine)
        else:
            migrate.check_current(engine)
        return cls(engine, policy)

    @property
    def where(self) -> str:
        return describe(self.engine.url)

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions -------------------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def _write(self, fn: Callable[[Connection], T]) -> T:
        for attempt in range(WRITE_TRIES):
            try:
                with self.engine.connect() as conn:
                    conn = conn.execution_options(**{WRITE: True})
                    with conn.begin():
                        return fn(conn)
            except IntegrityError:
                if attempt == WRITE_TRIES - 1:
                    raise
            except OperationalError as e:
                # SQLite can answer "locked" at once rather than waiting out its busy timeout (a lock taken
                # while another connection checkpoints the WAL, or a machine so loaded the wait ran out):
                # the write is whole or not at all, so try it again a little later.
                if attempt == WRITE_TRIES - 1 or not _busy(e):
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    # -- accounts -----------------------------------------------------------------------------------
    def player_for_key(self, fingerprint: str, label: str | None = None) -> Player:
        return self._write(lambda c: accounts.player_for_key(c, fingerprint, self.clock(), label))

    def get_player(self, player_id: int) -> Player | None:
        with self.reading() as c:
            return accounts.get_player(c, player_id)

    def find_player(self, name: str) -> Player | None:
        with self.reading() as c:
            return accounts.find_player(c, name)

    def claim_name(self, player_id: int, name: str) -> str:
        return self._write(lambda c: accounts.claim_name(c, player_id, name))

    def new_key_code(self, player_id: int) -> str:
        return self._write(lambda c: accounts.new_key_code(c, player_id, self.clock()))

    def add_key_with_code(self, code: str, fingerprint: str, label: str | None = None) -> int:
        return self._write(lambda c: accounts.add_key_with_code(c, code, fingerprint, self.clock(), label))

    def keys_of(self, player_id: int) -> list[KeyInfo]:
        with self.reading() as c:
            return accounts.keys_of(c, player_id)

    def key_owner(self, fingerprint: str) -> int | None:
        with self.reading() as c:
            return accounts.key_owner(c, fingerprint)

    def remove_key(self, player_id: int, fingerprint: str) -> None:
        self._write(lambda c: accounts.remove_key(c, player_id, fingerprint))

    def login(self, fingerprint: str, label: str | None = None) -> tuple[Player, list[KeyInfo]]:
        """The key's player (made on its first connection) and all of that player's keys."""

        def run(c: Connection) -> tuple[Player, list[KeyInfo]]:
            player = accounts.player_for_key(c, fingerprint, self.clock(), label)
            return player, accounts.keys_of(c, player.id)

        return self._write(run)

    def directory_rows(self, limit: int) -> tuple[list[tuple[str, int]], list[tuple[int, str]]]:
        with self.reading() as c:
            return accounts.directory_rows(c, limit)

    def bot_player(self, kind: str) -> int:
        return self._write(lambda c: accounts.bot_player(c, kind, self.clock()))

    # -- history and ratings ------------------------------------------------------------------------
    def record_game(self, record: GameRecord) -> RecordResult:
        result = self._write(lambda c: history.record_game(c, record, self.policy, self.clock()))
        if result.rated and result.new:
            self.places.clear()  # this node's players see their new place at once; others' within 30 s
        return result

    def games(self, player_id: int | None = None, limit: int = 50, offset: int = 0) -> list[GameSummary]:
        with self.reading() as c:
            return history.list_games(c, player_id, limit, offset)

    def game(self, game_id: int, you: int | None = None) -> GameSummary | None:
        with self.reading() as c:
            return history.game_summary(c, game_id, you)

    def export_save(self, game_id: int) -> Save | None:
        with self.reading() as c:
            return history.export_save(c, game_id)

    def profile(self, player_id: int) -> Profile | None:
        with self.reading() as c:
            return profiles.profile(c, player_id, places=self.places)

    def leaderboard(self, family: str, limit: int = 20, you: int | None = None) -> Leaderboard:
        with self.reading() as c:
            return profiles.leaderboard(c, family, limit, you)
