"""The engine stands alone: importing every module of it, in a fresh interpreter, loads no UI,
server, command line, Textual, Rich or asyncssh (import-linter checks the same statically:
pyproject.toml's contracts; this catches what it cannot see, such as imports by name)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"ui", "server", "cli", "textual", "rich", "asyncssh", "tests", "benchmarks"}

PROBE = """
import importlib, json, pkgutil, sys
import engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"engine": names, "loaded": sorted(sys.modules)}))
"""


def test_importing_the_whole_engine_loads_nothing_of_the_rest():
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    found = json.loads(run.stdout)
    assert len(found["engine"]) > 50  # every module was imported, not just the package
    loaded = {name.split(".", 1)[0] for name in found["loaded"]}
    assert loaded & FORBIDDEN == set()
