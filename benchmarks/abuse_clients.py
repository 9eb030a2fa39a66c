"""The benchmark side of benchmarks/abuse.py: its server process (benchmarks/abuse_server.py under
server_scale's `Bench`, which plays and probes tables), players connecting from chosen loopback
addresses (the server's per-address limits are its real ones), and the attacker processes."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import asyncssh
from server_scale import Bench
from server_scale_clients import _ANSI, LOBBY_TEXT, Client, pin_server, wait_or_kill

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ABUSE_SERVER = HERE / "abuse_server.py"
ATTACKS = HERE / "abuse_attacks.py"


class GuestClient(asyncssh.SSHClient):
    """Keyboard-interactive with no password, as OpenSSH without a key does."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str, prompts: Any) -> list[str]:
        return [""] * len(prompts)


class Player(Client):
    """A PTY session that also keeps every byte it received (raw) for the text attacks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.raw = bytearray()
        super().__init__(*args, **kwargs)

    async def _read(self) -> None:
        while True:
            try:
                chunk = await self.process.stdout.read(65536)
            except Exception:
                break
            if not chunk:
                break
            now = time.perf_counter()
            self.rx_count += 1
            self.rx_bytes += len(chunk)
            self.last_rx = now
            if len(self.raw) < 8_000_000:
                self.raw += chunk
            if self.next_chunk is not None and not self.next_chunk.done():
                self.next_chunk.set_result(now)
            if self.want is not None:
                self.tail += chunk
                if self.want in self.tail or self.want in _ANSI.sub(b"", bytes(self.tail)):
                    self.want = None
                    self.tail.clear()
                    self.arrived.set()
                elif len(self.tail) > 200000:
                    del self.tail[:-4096]

    def plain(self) -> str:
        return _ANSI.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    async def expect(self, text: bytes, timeout: float = 15.0) -> None:
        self.want = text
        self.arrived.clear()
        if text in _ANSI.sub(b"", bytes(self.raw[-20000:])):
            self.want = None
            return
        await self.wait_text(text, timeout)


async def open_player(
    port: int, name: str, local: str, key: asyncssh.SSHKey | None, size: tuple[int, int] = (120, 40)
) -> tuple[Player, float]:
    """Connect from ``local`` (a key, or a guest when None) and wait for the lobby: (player, ms)."""
    started = time.perf_counter()
    options: dict[str, Any] = dict(
        username=name,
        known_hosts=None,
        agent_path=None,
        config=None,
        password=None,
        keepalive_interval=0,
        local_addr=(local, 0),
    )
    if key is None:
        options.update(client_keys=None, client_factory=GuestClient)
    else:
        options.update(client_keys=[key])
    conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **options), 30)
    process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    player = Player(conn, process, key.get_fingerprint("sha256") if key is not None else f"guest:{name}")
    player.want = LOBBY_TEXT + name.encode()
    player.arrived.clear()
    try:
        await player.wait_text(player.want, 30)
    except BaseException:
        player.close()
        raise
    return player, (time.perf_counter() - started) * 1000


class AbuseBench(Bench):
    """server_scale's Bench on benchmarks/abuse_server.py; the saves survive a restart."""

    def __init__(self, args: Any) -> None:
        super().__init__(args)
        self.restarts = 0
        self.stderr_path: Path | None = None

    async def start_server(self, spec: dict[str, Any]) -> None:  # type: ignore[override]
        self.stderr_path = self.tmp / f"server-{self.restarts}.err"
        self.restarts += 1
        with open(self.stderr_path, "wb") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ABUSE_SERVER),
                json.dumps(spec),
                cwd=REPO,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=err,
                limit=1 << 20,
            )
        self.pinning = pin_server(self.proc.pid, "benchmark clients and attackers (niced)").replace(", ", "; ", 1)
        self.pump = asyncio.create_task(self._pump())
        ready = await asyncio.wait_for(self.reply("ready"), 60)
        self.port = ready["port"]

    async def stop_server(self) -> None:
        """Graceful stop (end of the control pipe); the folders stay (see cleanup)."""
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        await wait_or_kill(self.proc, 20)
        self.pump.cancel()
        self.proc = None

    async def call(self, ev: str, **req: Any) -> dict[str, Any]:
        """A control request; an error (or a timeout) is returned as {"error": ...}."""
        try:
            return await asyncio.wait_for(self.request(ev, **req), 60)
        except Exception as e:
            return {"error": str(e)[:300]}

    def server_stderr(self) -> str:
        try:
            return self.stderr_path.read_text(errors="replace") if self.stderr_path else ""
        except OSError:
            return ""


async def start_attack(*args: str) -> asyncio.subprocess.Process:
    """An attacker process (benchmarks/abuse_attacks.py), niced: it loads the server, not us."""
    return await asyncio.create_subprocess_exec(
        "nice",
        "-n",
        "10",
        sys.executable,
        str(ATTACKS),
        *args,
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        limit=1 << 20,
    )


async def attack_line(proc: asyncio.subprocess.Process, key: str, timeout: float) -> Any:
    """The next JSON line of the attacker that has ``key``."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while True:
        line = await asyncio.wait_for(proc.stdout.readline(), max(0.1, deadline - time.monotonic()))
        if not line:
            raise RuntimeError(f"attacker ended before {key!r}")
        if line.startswith(b"{"):
            msg = json.loads(line)
            if key in msg:
                return msg[key]
