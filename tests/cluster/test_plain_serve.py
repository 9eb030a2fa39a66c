"""Plain `citadels serve` (no --cluster, --workers 1) is the single process it always was: serving a
player never imports NATS (nats-py need not be installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .harness import REPO

SCRIPT = """
import asyncio, sys
import cli.serve_cmd
from server.config import ServerConfig
from server.serve import serve

async def main(folder):
    stop = asyncio.Event()
    config = ServerConfig(
        port=0, keys_dir=folder + "/keys", saves_dir=folder + "/saves", admin_socket=False, accounts=False,
        gc_tuning=False,
    )
    await serve(config, [], ready=lambda server, lobby: stop.set(), stop=stop)

asyncio.run(main(sys.argv[1]))
loaded = sorted(m for m in sys.modules if m == "nats" or m.startswith(("nats.", "server.cluster")))
print("LOADED", loaded)
"""


def test_plain_serve_never_imports_nats(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=str(REPO), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "LOADED []" in done.stdout, done.stdout
