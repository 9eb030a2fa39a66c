"""Benchmark the SSH transport: N asyncssh PTY clients on the demo app.

    python benchmarks/ssh_transport.py 10 50 100 [--idle-seconds 5] [--timeout 600]

Starts the server (demo app, gc tuning on, limits raised for one address) in a
subprocess on 127.0.0.1 and a free port, pinned to CPU 0 when there are two or
more; the clients run here, pinned to the other CPUs. For each level (clients
are added until the level is reached) it measures the server's RSS, memory per
session, idle CPU over a quiet window, time to first screen of the clients just
added (they join in batches of 10 at once), the same for the level's last
client joining alone, and key-to-echo latency on a sample of sessions. Then everyone leaves
and the RSS is measured again, then after two rounds of the same number of
sessions coming and going (churn). Prints ONE JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

REPO = Path(__file__).resolve().parents[1]
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
CONNECT_BATCH = 10
ECHO_SAMPLE = 20
TAIL_BYTES = 65536

SERVER_SCRIPT = """
import asyncio, sys
from server.config import ServerConfig
from server.transport.demo_app import demo_app_factory
from server.transport.ssh import start_server

async def main():
    # Production defaults except the caps (every client is 127.0.0.1) and a
    # shorter interval for the quiet unfreeze + collect (60 s by default), so
    # that memory after sessions leave is measured within the run.
    config = ServerConfig(port=0, keys_dir=sys.argv[1], max_sessions_per_address=100000,
                          max_sessions=100000, log_level="WARNING",
                          gc_collect_interval_seconds=float(sys.argv[2]), gc_quiet_seconds=1.0)
    server = await start_server(config, demo_app_factory)
    print(server.port, flush=True)
    loop = asyncio.get_running_loop()
    while True:  # "gc" prints the collector's figures; end of stdin stops the server
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        if line.strip() == "gc":
            import gc, json
            print(json.dumps({"collections": server.gc.collections, "last_collect_ms": round(server.gc.last_collect_ms, 1),
                              "freezes": server.gc.freezes, "frozen_objects": gc.get_freeze_count()}), flush=True)
    await server.close()

asyncio.run(main())
"""


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[index], 1)


class Client:
    """One PTY session; a reader task keeps the tail of its output."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess) -> None:
        self.conn = conn
        self.process = process
        self.tail = ""
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            chunk = await self.process.stdout.read(65536)
            if not chunk:
                break
            self.tail = (self.tail + _ANSI.sub("", chunk.decode("utf-8", "replace")))[-TAIL_BYTES:]
            self.changed.set()

    async def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.tail:
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(text)
            await asyncio.wait_for(self.changed.wait(), remaining)

    def close(self) -> None:
        self.conn.close()


async def open_client(port: int, index: int, key: asyncssh.SSHKey) -> tuple[Client, float]:
    started = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=f"bench{index}", client_keys=[key], known_hosts=None, agent_path=None, config=None
    )
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    client = Client(conn, process)
    await client.wait_for("size: 80x24", timeout=60)
    return client, (time.perf_counter() - started) * 1000


async def key_echo_ms(clients: list[Client], rounds: int = 1) -> list[float]:
    sample = clients[:: max(1, len(clients) // ECHO_SAMPLE)][:ECHO_SAMPLE]
    latencies = []
    for round_ in range(rounds):
        for n, client in enumerate(sample):
            key = "abcdefghijklmnopqrstuvwxy"[(n + round_) % 25]
            client.tail = ""
            started = time.perf_counter()
            client.process.stdin.write(key.encode())
            await client.wait_for(f"last key: {key}", timeout=30)
            latencies.append((time.perf_counter() - started) * 1000)
    return latencies


async def run(levels: list[int], idle_seconds: float, deadline: float, gc_interval: float = 3.0) -> dict:
    cpus = os.cpu_count() or 1
    keys_dir = tempfile.mkdtemp(prefix="ssh-bench-keys-")
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER_SCRIPT, keys_dir, str(gc_interval)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    result: dict = {"benchmark": "ssh_transport", "levels": []}
    clients: list[Client] = []
    try:
        if cpus >= 2 and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(server.pid, {0})
            os.sched_setaffinity(0, set(range(1, cpus)))
            result["pinning"] = "server on CPU 0, clients on the others"
        assert server.stdout is not None
        port = int(server.stdout.readline())
        await asyncio.sleep(1.0)
        baseline = rss_mb(server.pid)
        result["baseline_rss_mb"] = round(baseline, 1)
        key = asyncssh.generate_private_key("ssh-ed25519")
        for level in sorted(set(levels)):
            if time.monotonic() > deadline:
                result["incomplete"] = f"time limit reached before {level} sessions"
                break
            first_screen: list[float] = []
            while len(clients) < level - 1:
                batch = min(CONNECT_BATCH, level - 1 - len(clients))
                opened = await asyncio.gather(*(open_client(port, len(clients) + i, key) for i in range(batch)))
                for client, ms in opened:
                    clients.append(client)
                    first_screen.append(ms)
            await asyncio.sleep(0.5)
            probe, alone_ms = await open_client(port, len(clients), key)  # the last one joins alone
            clients.append(probe)
            await asyncio.sleep(2.5)  # let gc.freeze (2 s after the last start) happen
            cpu_before = cpu_seconds(server.pid)
            await asyncio.sleep(idle_seconds)
            idle_cpu = (cpu_seconds(server.pid) - cpu_before) / idle_seconds * 100
            rss = rss_mb(server.pid)
            echo = await key_echo_ms(clients, rounds=2)
            result["levels"].append(
                {
                    "sessions": level,
                    "rss_mb": round(rss, 1),
                    "mb_per_session": round((rss - baseline) / level, 2),
                    "idle_cpu_percent": round(idle_cpu, 1),
                    "first_screen_ms_p50": percentile(first_screen, 50),
                    "first_screen_ms_p95": percentile(first_screen, 95),
                    "first_screen_ms_max": round(max(first_screen), 1) if first_screen else None,
                    "first_screen_alone_ms": round(alone_ms, 1),
                    "key_echo_ms_p50": percentile(echo, 50),
                    "key_echo_ms_p95": percentile(echo, 95),
                    "key_echo_ms_max": round(max(echo), 1) if echo else None,
                    "connect_batch": CONNECT_BATCH,
                }
            )
        peak = len(clients)
        for client in clients:
            client.close()
        clients.clear()
        await asyncio.sleep(8.0)  # > collect interval + quiet time
        result["rss_after_all_left_mb"] = round(rss_mb(server.pid), 1)
        # Churn: the same number of sessions come, type and go twice more; a flat
        # RSS means departed sessions are freed and their memory reused.
        churn_rss = []
        for _ in range(2):
            if not peak or time.monotonic() > deadline:
                break
            while len(clients) < peak and time.monotonic() < deadline:
                batch = min(CONNECT_BATCH, peak - len(clients))
                clients += [c for c, _ in await asyncio.gather(*(open_client(port, i, key) for i in range(batch)))]
            for client in clients:  # everyone types before leaving
                client.process.stdin.write(b"\x1b[Ax")
            await asyncio.gather(*(client.wait_for("last key: x", timeout=60) for client in clients))
            for client in clients:
                client.close()
            clients.clear()
            await asyncio.sleep(8.0)
            churn_rss.append(round(rss_mb(server.pid), 1))
        result["rss_after_each_churn_mb"] = churn_rss
        assert server.stdin is not None
        server.stdin.write("gc\n")
        server.stdin.flush()
        result["server_gc"] = json.loads(await asyncio.get_running_loop().run_in_executor(None, server.stdout.readline))
    finally:
        for client in clients:
            client.close()
        if server.stdin:
            server.stdin.close()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sessions", nargs="+", type=int, help="session counts to measure, e.g. 10 50 100")
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="quiet window for idle CPU")
    parser.add_argument("--timeout", type=float, default=600.0, help="overall time limit in seconds")
    parser.add_argument(
        "--gc-interval", type=float, default=3.0, help="server's gc_collect_interval_seconds (60 in production)"
    )
    args = parser.parse_args()
    started = time.monotonic()
    result = asyncio.run(run(args.sessions, args.idle_seconds, started + args.timeout, args.gc_interval))
    import textual

    result.update(
        python=platform.python_version(),
        textual=textual.__version__,
        asyncssh=asyncssh.__version__,
        cpus=os.cpu_count(),
        seconds=round(time.monotonic() - started, 1),
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
