"""Saved games in `saves/exports/`: who may see each one, and writing new ones without losing any.

Every export records the keys of its game's players (its owners, engine/savefile.py);
a session is shown only the exports it owns (a guest: none), newest first. An
export never replaces a file: a name already taken, by anyone, gets the next free
"NAME-2", "NAME-3"... and the player is told the name it was saved under. The
name is claimed by creating the file exclusively before the game is written into
it, so two players saving under one name at once both keep their game.

Listing reads only each file's summary (header, checksum, owners, setup: not its
log or state) and remembers it by size and time. The folder is rescanned when its
own time changed (a file made, renamed or removed, by this process or another one:
`citadels serve --workers N` shares the folder between its workers) and at least
every `RESCAN_SECONDS` otherwise (a file rewritten in place); between two changes a
listing costs one stat of the folder: the lobby asks on every redraw of its main page.
Writers never collide across processes: a name is claimed with O_EXCL, and the game
is written with an atomic rename over the claimed (empty) file, its claimer's alone.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.savefile import SaveError, game_key, read_summary
from server.logging_setup import log_event
from server.storage.folder_sweep import claim_export_name

log = logging.getLogger("citadels.server.lobby.lobby")

EXPORT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,59}\Z")
RESCAN_SECONDS = 2.0
MAX_LISTED = 50
MAX_FILES = 5000  # files looked at in the folder


@dataclass(frozen=True)
class ExportEntry:
    name: str
    owners: tuple[str, ...] | None  # None: made before owners were recorded (only the host may load it)
    game: str  # engine.savefile.game_key
    private: bool
    finished: bool
    stamp: tuple[int, int]  # (mtime_ns, size) when read


class ExportIndex:
    """The exports folder's saves by name, with their owners."""

    def __init__(self, folder: Path | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = folder
        self.clock = clock
        self._entries: dict[str, ExportEntry] = {}
        self._unreadable: dict[str, tuple[int, int]] = {}
        self._scanned: float | None = None
        self._folder_stamp: int | None = None  # the folder's mtime_ns at the last scan

    def invalidate(self) -> None:
        self._scanned = None

    def _stamp(self) -> int | None:
        if self.folder is None:
            return None
        try:
            return os.stat(self.folder).st_mtime_ns
        except OSError:
            return None

    def entries(self) -> dict[str, ExportEntry]:
        now = self.clock()
        folder_stamp = self._stamp()
        if self._scanned is not None and now - self._scanned < RESCAN_SECONDS and folder_stamp == self._folder_stamp:
            return self._entries
        self._scanned = now
        # Taken before the scan: a change during it is seen next time. A stamp under 0.1 s old is not
        # trusted (the folder's time has the kernel's coarse clock: a second change in the same tick
        # would leave it as it is): the next listings scan again until it is older.
        recent = folder_stamp is not None and time.time_ns() - folder_stamp < 100_000_000
        self._folder_stamp = None if recent else folder_stamp
        if self.folder is None:
            return self._entries
        fresh: dict[str, ExportEntry] = {}
        try:
            paths = [p for _, p in zip(range(MAX_FILES), self.folder.iterdir())]
        except OSError:
            paths = []
        for p in paths:
            if not p.name.endswith(".save") or not EXPORT_NAME.match(p.stem):
                continue
            try:
                st = p.stat()
            except OSError:
                continue
            stamp = (st.st_mtime_ns, st.st_size)
            old = self._entries.get(p.stem)
            if old is not None and old.stamp == stamp:
                fresh[p.stem] = old
            elif self._unreadable.get(p.stem) != stamp:
                entry = self._read(p, stamp)
                if entry is None:
                    self._unreadable[p.stem] = stamp
                else:
                    fresh[p.stem] = entry
        self._entries = fresh
        return fresh

    @staticmethod
    def _read(path: Path, stamp: tuple[int, int]) -> ExportEntry | None:
        from server.storage.savelog import read_limited

        try:
            s = read_summary(read_limited(path))
        except (SaveError, OSError):
            return None
        owners = tuple(s.owners) if s.owners is not None else None
        return ExportEntry(path.stem, owners, game_key(s.config, s.created), s.private, s.finished, stamp)

    def owned_by(self, key: str, same: Callable[[str, str], bool] | None = None) -> list[ExportEntry]:
        """The unfinished exports `key` owns (`same`: whether two keys are one player's)."""
        same = same or (lambda a, b: a == b)
        mine = [
            e
            for e in self.entries().values()
            if e.owners is not None and not e.finished and any(same(o, key) for o in e.owners)
        ]
        mine.sort(key=lambda e: e.stamp[0], reverse=True)
        return mine[:MAX_LISTED]

    def get(self, name: str) -> ExportEntry | None:
        return self.entries().get(name)

    def reserve(self, name: str) -> str:
        """Claim `name` or the next free "name-N" by creating the file (empty) exclusively; OSError."""
        assert self.folder is not None
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        claimed = claim_export_name(self.folder, name)
        if claimed is None:
            raise OSError(f"too many saved games called {name}")
        return claimed

    def release(self, name: str) -> None:
        """Give back a name claimed for an export that failed (the empty file goes)."""
        assert self.folder is not None
        path = self.folder / f"{name}.save"
        try:
            if path.stat().st_size == 0:
                path.unlink()
        except OSError:
            pass


class Exports:
    """A mixin of `server.lobby.lobby.Lobby`: the table menu's "Save the game to a file"."""

    store: Any
    exports: ExportIndex

    async def export_game(self, session: Any, name: str) -> str | None:
        """Save `session`'s table to `exports/NAME.save`: None when saved under that name, else one line
        (the name it was saved under, or why it was not)."""
        t = session.table
        if t is None or not self.same(t.meta.creator, session.key) or self.store is None:  # type: ignore[attr-defined]
            return "Only the table's creator can save the game."
        if session.guest:
            return "Guests cannot save games (nobody could load them): connect with an SSH key."
        name = name.strip()
        if name.endswith(".save"):
            name = name[:-5]
        if not EXPORT_NAME.match(name):
            return "A file name is letters, digits, '.', '-' or '_' (up to 60)."
        try:
            final = self.exports.reserve(name)
        except OSError as e:
            return f"Cannot save: {getattr(e, 'strerror', None) or e}"
        assert self.exports.folder is not None
        error = await t.export(str(self.exports.folder / f"{final}.save"))
        if error is not None:
            self.exports.release(final)
            return error
        self.exports.invalidate()
        log_event(log, logging.INFO, "game saved to a file", table=t.id, name=final, key=session.key)
        if final != name:
            return f"Saved as {final}: a saved game called {name} exists already."
        return None
