"""The measuring side of benchmarks/server_scale.py: readings of the server process from /proc,
the asyncssh player clients (one key and PTY each, output timed as it arrives), per-table state."""

from __future__ import annotations

import asyncio
import os
import platform
import re
import time
from typing import Any

import asyncssh

LOBBY_TEXT = b"You: "  # the lobby's first line (then the player's name)
_ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
ESC = b"\x1b"


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                for child in f.read().split():
                    out.append(int(child))
                    out.extend(descendants(int(child)))
    except OSError:
        pass
    return out


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))], 1)


def split_tables(n: int) -> list[int]:
    """Table sizes (5 and 6, about as many of each) summing to n."""
    best = None
    for six in range(n // 6 + 1):
        rest = n - 6 * six
        if rest % 5 == 0:
            five = rest // 5
            score = abs(six - five)
            if best is None or score < best[0]:
                best = (score, six, five)
    if best is None:
        raise SystemExit(f"{n} players cannot be seated at tables of 5 and 6")
    _, six, five = best
    sizes = []
    while six or five:
        if six:
            sizes.append(6)
            six -= 1
        if five:
            sizes.append(5)
            five -= 1
    return sizes


class Client:
    """One player's PTY session: a reader task records when output arrives."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess, key: str) -> None:
        self.conn = conn
        self.process = process
        self.key = key
        self.rx_count = 0
        self.rx_bytes = 0
        self.last_rx = 0.0
        self.tail = bytearray()
        self.want: bytes | None = None
        self.arrived = asyncio.Event()
        self.next_chunk: asyncio.Future | None = None
        self.reader = asyncio.create_task(self._read())

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

    async def wait_text(self, text: bytes, timeout: float) -> None:
        await asyncio.wait_for(self.arrived.wait(), timeout)

    async def quiet(self, seconds: float, timeout: float = 5.0) -> bool:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            idle = time.perf_counter() - self.last_rx
            if idle >= seconds:
                return True
            await asyncio.sleep(seconds - idle + 0.005)
        return False

    def screen(self) -> str:
        """The end of what arrived since the text awaited was set (its escape sequences left out)."""
        return _ANSI.sub(b"", bytes(self.tail[-3000:])).decode("utf-8", "replace")[-600:]

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)

    def close(self) -> None:
        self.reader.cancel()
        self.conn.close()


async def open_client(port: int, name: str, key: asyncssh.SSHKey) -> tuple[Client, float]:
    started = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        client_keys=[key],
        known_hosts=None,
        agent_path=None,
        config=None,
        password=None,
        keepalive_interval=0,
    )
    process = await conn.create_process(term_type="xterm-256color", term_size=(120, 40), encoding=None)
    client = Client(conn, process, key.get_fingerprint("sha256"))
    client.want = LOBBY_TEXT + name.encode()
    client.arrived.clear()
    await client.wait_text(client.want, 120)
    return client, (time.perf_counter() - started) * 1000


class TableState:
    def __init__(self, tid: str, clients: list[Client]) -> None:
        self.id = tid
        self.clients = clients
        self.seq = -1
        self.seat: int | None = None
        self.keys = b""
        self.over = False
        self.pub_t = 0.0
        self.changed = asyncio.Event()
        self.pointed = asyncio.Event()
        self.workers: list[str] | None = None  # --workers: each seat's worker (the first's owns the table)


async def wait_or_kill(proc: Any, timeout: float) -> None:
    """Wait for a server process asked to stop; killed if it has not stopped within `timeout`."""
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()


def pin_server(pid: int, clients: str = "clients") -> str:
    """The server on CPU 0 and this process (the clients) on the others, where the machine has two
    CPUs or more; returns how they share the CPUs, for the JSON line."""
    cpus = os.cpu_count() or 1
    if cpus >= 2 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(pid, {0})
        os.sched_setaffinity(0, set(range(1, cpus)))
        return f"server on CPU 0, {clients} on the others"
    return "none (one CPU)"


def machine() -> dict:
    import textual

    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "python": platform.python_version(),
        "textual": textual.__version__,
        "asyncssh": asyncssh.__version__,
        "cpus": os.cpu_count(),
        "loadavg_at_end": [round(x, 2) for x in load] if load else None,
    }
