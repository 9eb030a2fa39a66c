"""Running a piece of code on one tree's engine (this checkout, or a baseline's git worktree): shared
by sim_throughput.py and hard_worlds.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_child(tree: Path, code: str, *args: str) -> dict:
    """Run `code` in a fresh interpreter (`-P`: no script folder on the path; PYTHONPATH dropped, so the
    code puts `tree` first itself) and return the JSON object it prints last."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [sys.executable, "-P", "-c", code, str(tree), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the engine of {tree} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
