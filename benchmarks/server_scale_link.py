"""benchmarks/server_scale.py's link to one server process (`server_scale_server.py`, the harness):
started with the spec, pinned, its control pipe (stdin/stdout, one JSON object a line) read and written.
`--workers N` has its own link with the same methods (server_scale_workers.py)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from server_scale_clients import cpu_seconds, pin_server, rss_mb, wait_or_kill

SERVER_SCRIPT = Path(__file__).resolve().with_name("server_scale_server.py")  # the server process


def server_spec(args, tmp: Path, bots: str) -> dict:
    return {
        "keys": str(tmp / "keys"),
        "saves": str(tmp / "saves"),
        "bots": bots,
        "gc_interval": args.gc_interval,
        "overrides": json.loads(args.server_config),
        "garbage_types": args.garbage_types,
    }


class SingleLink:
    """One server process, pinned to CPU 0 (the clients on the others)."""

    def __init__(self, args, repo: Path, tmp: Path, on_pub: Callable[[dict], None]) -> None:
        self.args, self.repo, self.tmp, self.on_pub = args, repo, tmp, on_pub
        self.proc: asyncio.subprocess.Process | None = None
        self.replies: asyncio.Queue = asyncio.Queue()
        self.port = 0
        self.pinning = ""

    async def start(self, bots: str) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(SERVER_SCRIPT),
            json.dumps(server_spec(self.args, self.tmp, bots)),
            cwd=self.repo,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 20,
        )
        self.pinning = "none (--no-pin)" if self.args.no_pin else pin_server(self.proc.pid)
        self.pump = asyncio.create_task(self._pump())
        ready = await asyncio.wait_for(self.reply("ready"), 60)
        self.port = ready["port"]

    async def _pump(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                break
            if not line.startswith(b"{"):
                continue
            msg = json.loads(line)
            if msg["ev"] == "pub":
                self.on_pub(msg)
            else:
                await self.replies.put(msg)

    async def reply(self, ev: str) -> dict:
        while True:
            msg = await self.replies.get()
            if msg["ev"] == "error":
                raise RuntimeError(f"server: {msg}")
            if msg["ev"] == ev:
                return msg

    async def request(self, ev: str, **req) -> dict:
        self.send(req)
        return await asyncio.wait_for(self.reply(ev), 120)

    def send(self, req: dict) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(req) + "\n").encode())

    async def stats(self, frozen: bool = False) -> dict:
        return await self.request("stats", cmd="stats", frozen=frozen)

    async def seat(self, groups: list[list[str]]) -> list[dict]:
        """Tables made of these groups of keys (each group's first creates and starts it): [{id, keys}]."""
        return (await self.request("seated", cmd="seat", groups=groups))["tables"]

    def request_keys(self, table_id: str) -> None:
        self.send({"cmd": "keys", "t": table_id})

    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def breakdown(self) -> dict:
        return {}

    async def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.stdin.close()
        await wait_or_kill(self.proc, 20)
        shutil.rmtree(self.tmp, ignore_errors=True)
