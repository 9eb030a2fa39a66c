"""What a server of another shape left in the saves folder, moved to where this one reads it.

A single process keeps its files in `saves/`; `citadels serve --workers N` keeps each worker's in
`saves/wK/` and the shared ones (exports, bans, finished games) in `saves/`. A host may switch
between the two or change N. Two things would then wait for ever in a folder nobody reads:
- finished games on their way to the players database (`db-outbox/`, one file per game named by the
  game's unique id: a record moved twice or found twice is written once, recording is idempotent);
- exports written by the first versions of `--workers` under `saves/wK/exports/` (they now live in
  `saves/exports/` for every process).

Called once at start, with the saves folder locked (one server per folder) and before any worker
runs: nothing else writes these folders meanwhile. Only pathlib and os: the `--workers` parent
imports no engine or database.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

OUTBOX_FOLDER = "db-outbox"
RECORD_SUFFIX = ".record"
EXPORTS_FOLDER = "exports"
_WORKER = re.compile(r"w([1-9][0-9]{0,3})\Z")


def worker_folders(saves: Path) -> dict[int, Path]:
    """The `saves/wK` folders there are, by K."""
    found: dict[int, Path] = {}
    try:
        children = list(saves.iterdir())
    except OSError:
        return found
    for child in children:
        m = _WORKER.match(child.name)
        if m and child.is_dir():
            found[int(m.group(1))] = child
    return found


def sweep_outboxes(saves: Path, workers: int) -> int:
    """Move the records of outboxes this shape does not read into the one it does: with `workers` 1,
    `saves/db-outbox`; else `saves/w1/db-outbox` (from `saves/db-outbox` and from workers past N).
    Returns how many records moved."""
    into = saves / OUTBOX_FOLDER if workers <= 1 else saves / "w1" / OUTBOX_FOLDER
    sources = [
        folder / OUTBOX_FOLDER for k, folder in sorted(worker_folders(saves).items()) if workers <= 1 or k > workers
    ]
    if workers > 1:
        sources.insert(0, saves / OUTBOX_FOLDER)
    moved = 0
    for source in sources:
        records = sorted(source.glob("*" + RECORD_SUFFIX)) if source.is_dir() else []
        if not records:
            continue
        into.mkdir(mode=0o700, parents=True, exist_ok=True)
        for record in records:
            target = into / record.name
            if target.exists():  # the same game's record (its uid names the file): one is enough
                record.unlink()
            else:
                os.replace(record, target)
            moved += 1
    return moved


def sweep_old_exports(saves: Path) -> int:
    """Move exports from `saves/wK/exports/` (and `saves/wK/cluster/exports/`) to `saves/exports/`, under
    the next free "NAME-2", "NAME-3"... when the name is taken there. Returns how many moved."""
    into = saves / EXPORTS_FOLDER
    moved = 0
    for folder in worker_folders(saves).values():
        for source in (folder / EXPORTS_FOLDER, folder / "cluster" / EXPORTS_FOLDER):
            files = sorted(source.glob("*.save")) if source.is_dir() else []
            for path in files:
                if path.stat().st_size == 0:  # a name claimed for an export that never came
                    continue
                into.mkdir(mode=0o700, parents=True, exist_ok=True)
                name = claim_export_name(into, path.stem)
                if name is None:
                    continue
                os.replace(path, into / f"{name}.save")  # over the empty file claimed for it
                moved += 1
    return moved


def claim_export_name(folder: Path, name: str) -> str | None:
    """Claim `name` or the next free "name-N" among the exports in `folder` by creating its file (empty)
    exclusively: two processes saving under one name at once both keep their game. None: 999 taken."""
    for n in range(1, 1000):
        candidate = name if n == 1 else f"{name[:55]}-{n}"
        try:
            fd = os.open(folder / f"{candidate}.save", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        os.close(fd)
        return candidate
    return None


def report_sweep(saves: Path, workers: int) -> None:
    """Both sweeps for a server of `workers` processes, each move said on stderr (the host's terminal)."""
    records = sweep_outboxes(saves, workers)
    exports = sweep_old_exports(saves)
    if records:
        where = OUTBOX_FOLDER if workers <= 1 else f"w1/{OUTBOX_FOLDER}"
        print(
            f"{records} finished game(s) waiting for the players database moved to {saves / where}",
            file=sys.stderr,
            flush=True,
        )
    if exports:
        print(
            f"{exports} saved game(s) moved from the workers' folders to {saves / EXPORTS_FOLDER}",
            file=sys.stderr,
            flush=True,
        )
