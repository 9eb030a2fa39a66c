"""Private tables' join codes: making them, and bounding the guesses.

A code is 5 characters of a 32-letter alphabet (33 million codes). Wrong codes
are counted per identity (a guest is one per session) and per source address
in a sliding window; past either limit the lobby refuses further tries for a
while, so that codes cannot be guessed by trying them.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from server.lobby.errors import LobbyError
from server.lobby.lifetimes import address_of

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


def new_code(used: Iterable[str | None]) -> str:
    taken = set(used)
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def normal_code(text: str) -> str:
    return "".join(text.split()).upper()[:32]


class Attempts:
    """Failures per key in a sliding window; memory bounded (the oldest keys are forgotten first)."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic, max_keys: int = 20000
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._seen: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float] | None:
        times = self._seen.get(key)
        if times is None:
            return None
        cutoff = self.clock() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        if not times:
            del self._seen[key]
            return None
        return times

    def exceeded(self, key: str) -> bool:
        times = self._recent(key)
        return times is not None and len(times) >= self.limit

    def add(self, key: str) -> None:
        times = self._recent(key)
        if times is None:
            if len(self._seen) >= self.max_keys:
                del self._seen[next(iter(self._seen))]
            times = self._seen[key] = deque(maxlen=self.limit)
        times.append(self.clock())


class JoinCodes:
    """A mixin of `server.lobby.lobby.Lobby` (which provides `tables`, `join`, `watch`, `code_tries`,
    `code_tries_by_address`): joining or watching a private table by its code."""

    code_tries: Attempts
    code_tries_by_address: Attempts

    def join_code(self, session: Any, code: str) -> None:
        addr = address_of(session)
        if self.code_tries.exceeded(session.key) or (addr is not None and self.code_tries_by_address.exceeded(addr)):
            raise LobbyError("Too many wrong codes: wait a few minutes before trying again.", "code_guesses")
        code = normal_code(code)
        for t in self.tables.values():  # type: ignore[attr-defined]
            if t.meta.code and t.meta.code == code and t.phase != "closed":
                if t.phase == "waiting":
                    self.join(session, t.id, code=code)  # type: ignore[attr-defined]
                else:
                    self.watch(session, t.id, code=code)  # type: ignore[attr-defined]
                return
        self.code_tries.add(session.key)
        if addr is not None:
            self.code_tries_by_address.add(addr)
        raise LobbyError("No table has this code.", "wrong_code")
