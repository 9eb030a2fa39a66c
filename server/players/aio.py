"""`AsyncPlayerStore`: the players database for the event loop. Every call runs in a worker thread.

Threads rather than an async driver: one code path for SQLite (whose only driver is the
blocking standard library module) and PostgreSQL, and the queries are short. What a
call costs the loop is one hand-over to a thread and back (benchmarks/db_queries.py
measures it next to the query itself); the loop never waits on the database.

The threads are the store's own (not the loop's default executor), so a slow database
holds up only database work; the outbox writes its files on other threads.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from engine.savefile import Save

from .game_record import GameRecord
from .records import GameSummary, KeyInfo, Leaderboard, Player, Profile, RecordResult
from .store import PlayerStore

T = TypeVar("T")
WORKERS = 2  # SQLite: one writer at a time anyway; a reader beside it (WAL)


class AsyncPlayerStore:
    def __init__(self, store: PlayerStore, workers: int = WORKERS) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="players-db")

    async def _run(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kw))

    async def close(self) -> None:
        """Wait for the calls under way, then close the database."""
        await asyncio.get_running_loop().run_in_executor(None, self._pool.shutdown, True)
        self.store.close()

    # -- accounts -----------------------------------------------------------------------------------
    async def player_for_key(self, fingerprint: str, label: str | None = None) -> Player:
        return await self._run(self.store.player_for_key, fingerprint, label)

    async def get_player(self, player_id: int) -> Player | None:
        return await self._run(self.store.get_player, player_id)

    async def find_player(self, name: str) -> Player | None:
        return await self._run(self.store.find_player, name)

    async def claim_name(self, player_id: int, name: str) -> str:
        return await self._run(self.store.claim_name, player_id, name)

    async def new_key_code(self, player_id: int) -> str:
        return await self._run(self.store.new_key_code, player_id)

    async def add_key_with_code(self, code: str, fingerprint: str, label: str | None = None) -> int:
        return await self._run(self.store.add_key_with_code, code, fingerprint, label)

    async def keys_of(self, player_id: int) -> list[KeyInfo]:
        return await self._run(self.store.keys_of, player_id)

    async def key_owner(self, fingerprint: str) -> int | None:
        return await self._run(self.store.key_owner, fingerprint)

    async def remove_key(self, player_id: int, fingerprint: str) -> None:
        await self._run(self.store.remove_key, player_id, fingerprint)

    async def login(self, fingerprint: str, label: str | None = None) -> tuple[Player, list[KeyInfo]]:
        return await self._run(self.store.login, fingerprint, label)

    # -- history and ratings ------------------------------------------------------------------------
    async def record_game(self, record: GameRecord) -> RecordResult:
        return await self._run(self.store.record_game, record)

    async def games(self, player_id: int | None = None, limit: int = 50, offset: int = 0) -> list[GameSummary]:
        return await self._run(self.store.games, player_id, limit, offset)

    async def game(self, game_id: int, you: int | None = None) -> GameSummary | None:
        return await self._run(self.store.game, game_id, you)

    async def export_save(self, game_id: int) -> Save | None:
        return await self._run(self.store.export_save, game_id)

    async def profile(self, player_id: int) -> Profile | None:
        return await self._run(self.store.profile, player_id)

    async def leaderboard(self, family: str, limit: int = 20, you: int | None = None) -> Leaderboard:
        return await self._run(self.store.leaderboard, family, limit, you)
