"""What a server keeps in memory of the players database, so that a login, a seat lookup or a
name check never waits on it: which player each known key belongs to, and the names claimed.

Filled at start (`load`, the most recently used keys and names), then kept up to date by
this server's own logins, claims and key changes (`learn_*`, `forget_key`). Another node
sharing the database may change an account meanwhile: the next login with a key refreshes
what is known of its player.

Seats and saves name the SSH key that sat there (saves stay readable without the database);
`identity(key)` is what ownership compares: ``"player:<id>"`` for a key whose player is
known, the key itself otherwise (a guest's ``"guest:..."``, or a key not known yet), so a
player's second key finds the seats, saves and tables of the first.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import names

PLAYER_PREFIX = "player:"


class PlayerDirectory:
    def __init__(self) -> None:
        self._player_of: dict[str, int] = {}  # fingerprint -> player id
        self._keys_of: dict[int, set[str]] = {}
        self._name_of: dict[int, str] = {}
        self._owner_of: dict[str, int] = {}  # folded name -> player id

    def load(self, keys: Iterable[tuple[str, int]], named: Iterable[tuple[int, str]]) -> None:
        for fp, pid in keys:
            self._bind(fp, pid)
        for pid, name in named:
            self.learn_name(pid, name)

    # -- lookups (constant time) --------------------------------------------------------------------
    def player_of(self, key: str | None) -> int | None:
        return None if key is None else self._player_of.get(key)

    def identity(self, key: str | None) -> str | None:
        """What ownership compares: the key's player when known, else the key itself."""
        if key is None:
            return None
        pid = self._player_of.get(key)
        return key if pid is None else f"{PLAYER_PREFIX}{pid}"

    def name_of(self, player_id: int | None) -> str | None:
        return None if player_id is None else self._name_of.get(player_id)

    def owner_of_name(self, name: str) -> int | None:
        """The player who claimed `name` (any case), if this server knows of one."""
        return self._owner_of.get(names.fold(name))

    def keys_of(self, player_id: int) -> set[str]:
        return set(self._keys_of.get(player_id, ()))

    def __len__(self) -> int:
        return len(self._player_of)

    # -- what this server learns ----------------------------------------------------------------------
    def learn_keys(self, player_id: int, fingerprints: Iterable[str]) -> None:
        """`fingerprints` are all of the player's keys now (a key no longer listed is forgotten)."""
        fresh = set(fingerprints)
        for fp in self._keys_of.get(player_id, set()) - fresh:
            self.forget_key(fp)
        for fp in fresh:
            self._bind(fp, player_id)

    def learn_some_keys(self, player_id: int, fingerprints: Iterable[str]) -> None:
        """`fingerprints` are some of the player's keys (another node's word: it may not know them all)."""
        for fp in fingerprints:
            self._bind(fp, player_id)

    def learn_name(self, player_id: int, name: str | None) -> None:
        old = self._name_of.pop(player_id, None)
        if old is not None and self._owner_of.get(names.fold(old)) == player_id:
            del self._owner_of[names.fold(old)]
        if name:
            self._name_of[player_id] = name
            self._owner_of[names.fold(name)] = player_id

    def forget_key(self, fingerprint: str) -> None:
        pid = self._player_of.pop(fingerprint, None)
        if pid is not None:
            keys = self._keys_of.get(pid)
            if keys is not None:
                keys.discard(fingerprint)
                if not keys:
                    del self._keys_of[pid]

    def _bind(self, fingerprint: str, player_id: int) -> None:
        old = self._player_of.get(fingerprint)
        if old is not None and old != player_id:
            self.forget_key(fingerprint)
        self._player_of[fingerprint] = player_id
        self._keys_of.setdefault(player_id, set()).add(fingerprint)
