"""The players database as the server uses it: opened at start, then reached only off the event loop.

    players = PlayersService.open(config)     # at start, before serving (may refuse: SchemaError)
    await players.start()                     # the outbox sends games left by an earlier run
    players.identify(fingerprint)             # (player id, name) from memory: no query at login
    await players.login(fingerprint, ...)     # the key's player (made on first use), refreshed
    players.record(game_record)               # a finished game: returns at once (the outbox)
    await players.close()

At start the schema must be the program's: a new (empty) database is created, one at an
older revision is refused with one line ("run `citadels db migrate`": the host decides when
to upgrade, and can back it up first), as is one newer than the program. A database that
cannot be reached at start does not stop the server: games go on, logins use what is in
memory (nothing, the first time) and catch up when it comes back, finished games wait in
the outbox (the host is told).

Account changes (`claim_name`, key codes, keys) raise `AccountError` (the player's mistake,
one line) or `PlayersUnavailable` (the database is away or failed: one line too).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, inspect
from sqlalchemy.exc import SQLAlchemyError

from server.logging_setup import log_event
from server.storage.folder_sweep import OUTBOX_FOLDER  # the start-up sweep reads it too

from . import migrate
from .accounts import AccountError
from .aio import AsyncPlayerStore
from .directory import PlayerDirectory
from .game_record import GameRecord
from .outbox import GameOutbox, is_outage, one_line
from .ratings import RatingPolicy
from .records import KeyInfo, Player
from .store import PlayerStore
from .url import database_url, describe, make_engine

log = logging.getLogger("citadels.server.players")

T = TypeVar("T")
DIRECTORY_PRELOAD = 200_000  # keys and names read into memory at start (the most recently used)
LOGIN_RETRY_FIRST_S = 0.5
LOGIN_RETRY_MAX_S = 30.0
UNAVAILABLE = "The players database is unavailable right now: try again in a moment."


class PlayersUnavailable(RuntimeError):
    """The database could not answer; the message is one line for the player."""


SCHEMA_SETTLE_TRIES = 20  # x SCHEMA_SETTLE_SECONDS: how long a half-made schema may take to finish
SCHEMA_SETTLE_SECONDS = 0.25


@contextmanager
def _alembic_quiet() -> Iterator[None]:
    """Alembic says "Context impl SQLiteImpl" at INFO on every look at a revision: not for the host."""
    logger = logging.getLogger("alembic.runtime.migration")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def prepare_schema(engine: Engine) -> str | None:
    """Create the schema in an empty database (returns "created"), else check it is this program's
    (SchemaError, one line, when it is older or newer: the host runs `citadels db migrate`)."""
    with _alembic_quiet():
        empty = migrate.current_revision(engine) is None and not inspect(engine).get_table_names()
    if empty:
        migrate.upgrade(engine)  # its "Running upgrade" lines say what was made
        return "created"
    # Another process sharing the database (a cluster node, a worker) may be creating it right now:
    # Alembic commits each revision on SQLite, so a schema caught half-made is looked at again for a
    # few seconds before it is called older than this program.
    for _ in range(SCHEMA_SETTLE_TRIES):
        try:
            with _alembic_quiet():
                migrate.check_current(engine)
            return None
        except migrate.SchemaError:
            with _alembic_quiet():
                now = migrate.current_revision(engine)
            if now is None or now not in migrate.revisions():
                raise
            time.sleep(SCHEMA_SETTLE_SECONDS)
    with _alembic_quiet():
        migrate.check_current(engine)
    return None


class PlayersService:
    def __init__(
        self,
        store: PlayerStore,
        *,
        outbox_folder: Path | None = None,
        directory: PlayerDirectory | None = None,
        outbox_retry: tuple[float, float] | None = None,
    ) -> None:
        self.store = store
        self.db = AsyncPlayerStore(store)
        self.directory = directory or PlayerDirectory()
        retry = outbox_retry or (0.5, 30.0)
        self.outbox = GameOutbox(self.db, outbox_folder, retry_first=retry[0], retry_max=retry[1])
        self.reachable_at_start = True

    @property
    def where(self) -> str:
        return self.store.where

    @property
    def policy(self) -> RatingPolicy:
        return self.store.policy

    @classmethod
    def open(cls, config: Any, **kw: Any) -> PlayersService:
        """The server's players database (config.database; default: the SQLite file next to the
        saves). Raises DatabaseURLError or SchemaError (one line each) when it cannot be used."""
        url = database_url(config.database or None, config.saves_dir)
        policy = RatingPolicy(rate_bots=config.rate_bots, max_bot_share=config.max_bot_share)
        store = PlayerStore(make_engine(url), policy)
        service = cls(store, outbox_folder=Path(config.saves_dir) / OUTBOX_FOLDER, **kw)
        try:
            if prepare_schema(store.engine) == "created":
                log_event(log, logging.INFO, "players database created", where=describe(url))
            keys, named = store.directory_rows(DIRECTORY_PRELOAD)
        except migrate.SchemaError:
            store.close()
            raise
        except (SQLAlchemyError, OSError) as e:
            service.reachable_at_start = False
            log_event(
                log,
                logging.WARNING,
                "players database unreachable at start: games go on, accounts and records catch up when it is back",
                where=describe(url),
                error=one_line(e),
            )
        else:
            service.directory.load(keys, named)
            log_event(log, logging.INFO, "players database", where=describe(url), keys=len(keys), names=len(named))
        return service

    async def start(self) -> None:
        await self.outbox.start()

    async def close(self) -> None:
        await self.outbox.close()
        await self.db.close()

    # -- logins --------------------------------------------------------------------------------------
    def identify(self, fingerprint: str) -> tuple[int | None, str | None]:
        """What memory says of a key: its player and that player's name (None, None: not known yet)."""
        pid = self.directory.player_of(fingerprint)
        return pid, self.directory.name_of(pid)

    async def login(
        self, fingerprint: str, label: str | None = None, wanted: Callable[[], bool] = lambda: True
    ) -> Player | None:
        """The key's player from the database (made on its first connection), remembered with all its
        keys and its name. While the database is away this tries again, with a growing pause, as long
        as `wanted()` (the session is still there); None when it gave up."""
        pause = LOGIN_RETRY_FIRST_S
        while wanted():
            try:
                player, keys = await self.db.login(fingerprint, label)
            except Exception as e:
                if not is_outage(e):
                    log_event(log, logging.ERROR, "login lookup failed", key=fingerprint, error=one_line(e))
                    return None
                await asyncio.sleep(pause)
                pause = min(pause * 2, LOGIN_RETRY_MAX_S)
                continue
            self.remember(player, keys)
            return player
        return None

    def remember(self, player: Player, keys: list[KeyInfo]) -> None:
        self.directory.learn_keys(player.id, [k.fingerprint for k in keys])
        self.directory.learn_name(player.id, player.name)

    # -- account changes ------------------------------------------------------------------------------
    async def _call(self, what: str, call: Awaitable[T]) -> T:
        try:
            return await call
        except AccountError:
            raise
        except Exception as e:
            if not is_outage(e):
                log_event(log, logging.ERROR, "players database call failed", call=what, error=one_line(e))
            raise PlayersUnavailable(UNAVAILABLE) from None

    async def claim_name(self, player_id: int, name: str) -> str:
        shown = await self._call("claim_name", self.db.claim_name(player_id, name))
        self.directory.learn_name(player_id, shown)
        return shown

    async def new_key_code(self, player_id: int) -> str:
        return await self._call("new_key_code", self.db.new_key_code(player_id))

    async def add_key_with_code(self, code: str, fingerprint: str, label: str | None = None) -> Player:
        """Add this key to the player who made `code`; returns that player (now this key's)."""
        owner = await self._call("add_key", self.db.add_key_with_code(code, fingerprint, label))
        player = await self.login(fingerprint, label)
        if player is None or player.id != owner:
            raise PlayersUnavailable(UNAVAILABLE)
        return player

    async def keys_of(self, player_id: int) -> list[KeyInfo]:
        keys = await self._call("keys_of", self.db.keys_of(player_id))
        self.directory.learn_keys(player_id, [k.fingerprint for k in keys])
        return keys

    async def remove_key(self, player_id: int, fingerprint: str) -> None:
        await self._call("remove_key", self.db.remove_key(player_id, fingerprint))
        self.directory.forget_key(fingerprint)
        log_event(log, logging.INFO, "key removed", player=player_id, key=fingerprint)

    # -- finished games --------------------------------------------------------------------------------
    def record(self, record: GameRecord) -> None:
        """Hand a finished game to the outbox (returns at once; written when the database can)."""
        self.outbox.submit(record)
        log_event(log, logging.INFO, "game handed to the players database", uid=record.uid, seats=len(record.seats))
