"""The attackers of benchmarks/abuse.py, each run as its own process (run by it, not by hand):

    python benchmarks/abuse_attacks.py silent PORT --addresses 100 --per-address 10 --seconds 30
    python benchmarks/abuse_attacks.py storm PORT --kind resize|keys --sessions 5 --seconds 20

silent: benchmarks/abuse_silent.py (connections that never send a byte, from many addresses).

Both end after --seconds, or at once on a line on stdin ("stop": the benchmark's window is over);
both hold on "pause" and resume on "go" (the benchmark's interleaved quiet slices).

storm: ``sessions`` asyncssh PTY sessions (a key each, from 127.0.2.x, 200x60), which print
``{"ready": [fingerprints]}``, wait for a line on stdin (the benchmark seats them at a table),
then until the end either change their window size as fast as the channel takes it (resize:
200x60, 80x24, 500x200, 120x40 in turn) or send expensive keys as fast as the channel takes
them (keys: Tab, Ctrl+Q, arrows: focus changes, the table menu opened and closed). They read
everything the server sends, as a client that wants to cost the most would. One JSON line of
counts at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

import asyncssh
from abuse_silent import silent

BANNER = b"SSH-2.0-"
STORM_KEYS = b"\t\x11\x1b[B\x1b[A\x11\t" * 64
STORM_SIZES = [(200, 60), (80, 24), (500, 200), (120, 40)]


class Deadline:
    """--seconds from now, or sooner: a "stop" line on stdin (the benchmark's window is over) ends
    the attack; "pause" and "go" lines hold and resume it (the storms' interleaved baseline)."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.running = True
        self._read()

    def _read(self) -> None:
        asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline).add_done_callback(self._line)

    def _line(self, line: asyncio.Future[str]) -> None:
        if line.cancelled() or line.exception() is not None or not line.result():
            return  # the end of stdin is not a stop
        command = line.result().strip()
        if command in ("pause", "go"):
            self.running = command == "go"
            self._read()
            return
        self.at = min(self.at, time.monotonic())
        self.running = True

    async def paused(self) -> bool:
        """While paused, wait (True); False when running."""
        if self.running:
            return False
        await asyncio.sleep(0.05)
        return True

    def left(self) -> float:
        return self.at - time.monotonic()

    async def run(self, tasks: list[asyncio.Task]) -> None:
        """Cancel ``tasks`` when the time is up (or stop was asked); wait for them."""
        while self.left() > 0 and not all(t.done() for t in tasks):
            await asyncio.sleep(min(0.1, max(0.0, self.left())))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def storm(args: argparse.Namespace) -> dict:
    clients = []
    for i in range(args.sessions):
        key = asyncssh.generate_private_key("ssh-ed25519")
        conn = await asyncssh.connect(
            "127.0.0.1",
            args.port,
            username=f"storm{i}",
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
            config=None,
            password=None,
            local_addr=(f"127.0.2.{i + 1}", 0),
        )
        process = await conn.create_process(term_type="xterm-256color", term_size=(200, 60), encoding=None)
        clients.append((conn, process, key.get_fingerprint("sha256")))
    received = [0]

    async def read(process: asyncssh.SSHClientProcess) -> None:
        while True:
            chunk = await process.stdout.read(65536)
            if not chunk:
                return
            received[0] += len(chunk)

    readers = [asyncio.create_task(read(p)) for _, p, _ in clients]
    print(json.dumps({"ready": [f for _, _, f in clients]}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    sent = [0]
    deadline = Deadline(args.seconds)

    async def drain(process: asyncssh.SSHClientProcess) -> bool:
        """Wait for the channel to take more (the server may have stopped reading): False at the end."""
        try:
            await asyncio.wait_for(process.stdin.drain(), max(0.01, deadline.left()))
        except (TimeoutError, OSError, asyncssh.Error):
            return False
        return True

    async def resizer(process: asyncssh.SSHClientProcess) -> None:
        n = 0
        while deadline.left() > 0:
            if await deadline.paused():
                continue
            process.change_terminal_size(*STORM_SIZES[n % len(STORM_SIZES)])
            n += 1
            sent[0] += 1
            if n % 8 == 0:
                if not await drain(process):
                    return
                await asyncio.sleep(0)

    async def typist(process: asyncssh.SSHClientProcess) -> None:
        while deadline.left() > 0:
            if await deadline.paused():
                continue
            process.stdin.write(STORM_KEYS)
            sent[0] += STORM_KEYS.count(b"\t") + STORM_KEYS.count(b"\x11") + STORM_KEYS.count(b"\x1b")
            if not await drain(process):
                return

    work = resizer if args.kind == "resize" else typist
    await deadline.run([asyncio.create_task(work(p)) for _, p, _ in clients])
    for task in readers:
        task.cancel()
    for conn, _, _ in clients:
        conn.close()
    return {"kind": args.kind, "sessions": len(clients), "sent": sent[0], "received_bytes": received[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["silent", "storm"])
    parser.add_argument("port", type=int)
    parser.add_argument("--addresses", type=int, default=100)
    parser.add_argument("--per-address", type=int, default=10)
    parser.add_argument("--retry", type=float, default=0.25, help="seconds before renewing a refused connection")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--kind", choices=["resize", "keys"], default="resize")
    parser.add_argument("--sessions", type=int, default=5)
    args = parser.parse_args()
    if args.mode == "silent":
        result = silent(args.port, args.addresses, args.per_address, args.retry, args.seconds)
    else:
        result = asyncio.run(storm(args))
    print(json.dumps({"done": result}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
