"""`server_scale.py --baseline REV`: the same levels against another revision's server, in the same run.

REV (a branch, tag or commit: `main`, `HEAD~3`) is checked out into a temporary git worktree
(detached, removed at the end). Its server runs with this tree's benchmark harness
(`server_scale_server.py` from here, its working folder the checkout: its `engine`, `server` and
`ui` are imported, since the harness puts its working folder first on `sys.path`), so the two runs
differ only in the server's code. The baseline runs first, then this tree, one after the other on
the same pinning (the server on CPU 0, the clients on the others): on a shared machine the load
can change between them; the load average is in each JSON line.

Prints three JSON lines: the baseline's run, this tree's run, and their comparison per level.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

# The figures compared per level: [baseline, this tree] each.
COMPARED = (
    "cpu_per_move_ms",
    "server_cpu_percent",
    "moves_per_s",
    "key_to_screen_ms_p50",
    "key_to_screen_ms_p95",
    "key_to_screen_ms_max",
    "key_to_publish_ms_p50_p95",
    "publish_to_screen_ms_p50_p95",
    "mb_per_session",
    "idle_cpu_percent",
    "probe_timeouts",
    "gc_pauses_over_10ms_in_window",
)


@contextlib.contextmanager
def checkout(repo: Path, rev: str) -> Iterator[tuple[Path, str]]:
    """A detached worktree of `rev` (and its full commit id), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="server-scale-baseline-"))
    folder.rmdir()  # git creates it
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "--quiet", str(folder), rev], check=True)
    try:
        commit = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        yield folder, commit
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def this_tree(repo: Path) -> str:
    """This tree's commit, marked when it has changes not committed."""
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    ).stdout.strip()
    return head + (" + uncommitted changes" if dirty else "")


def compare(base: dict, this: dict) -> dict:
    """Per level measured in both runs: each figure as [baseline, this tree], and this tree's CPU per
    move as a fraction of the baseline's."""
    levels = []
    theirs = {lv["sessions"]: lv for lv in base.get("levels", [])}
    for lv in this.get("levels", []):
        old = theirs.get(lv["sessions"])
        if old is None:
            continue
        row: dict = {"sessions": lv["sessions"]}
        for key in COMPARED:
            row[key] = [old.get(key), lv.get(key)]
        a, b = old.get("cpu_per_move_ms"), lv.get("cpu_per_move_ms")
        row["cpu_per_move_ratio"] = round(b / a, 2) if a and b else None
        levels.append(row)
    return {
        "benchmark": "server_scale_compare",
        "baseline": base.get("code"),
        "this": this.get("code"),
        "levels": levels,
        "loadavg_at_end": [base.get("loadavg_at_end"), this.get("loadavg_at_end")],
    }
