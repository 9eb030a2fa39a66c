"""The silent-connection attacker of benchmarks/abuse.py (run through abuse_attacks.py, not by hand).

``per-address`` TCP connections from each of ``addresses`` loopback addresses (127.0.0.2,
127.0.0.3, ...) that never send a byte; each is renewed when the server closes or refuses it (at
once after holding a slot, after --retry seconds after a refusal or a failed connect).

Raw non-blocking sockets on one selector, no asyncio: the attack the server sees is the same as
with asyncio streams, but on this 2-core machine the attacker shares a core with the victims'
terminals, and asyncio streams cost it ~60 % of that core at ~2,400 attempts/s, which delayed
the victims' own clients (a cost a real attacker pays on its own machine).

Lines on stdin: "pause" closes every connection and holds (the benchmark's interleaved quiet
slices), "go" resumes, "stop" (or --seconds) ends; one JSON line of counts at the end.
"""

from __future__ import annotations

import errno
import selectors
import socket
import sys
import time
from dataclasses import dataclass, field

BANNER = b"SSH-2.0-"
CONNECT_TIMEOUT = 5.0


@dataclass
class Slot:
    local: str
    sock: socket.socket | None = None
    connected: bool = False
    holding: bool = False  # the server's banner was read: a slot held until the server closes it
    got: bytes = b""
    retry_at: float = 0.0
    started: float = 0.0


@dataclass
class Silent:
    port: int
    retry: float
    slots: list[Slot]
    counts: dict[str, int] = field(
        default_factory=lambda: {
            "attempts": 0,
            "banners": 0,
            "refused_lines": 0,
            "closed_silently": 0,
            "connect_errors": 0,
        }
    )
    held_now: int = 0
    held_max: int = 0
    running: bool = True

    def __post_init__(self) -> None:
        self.sel = selectors.DefaultSelector()

    # --- one slot
    def open(self, slot: Slot) -> None:
        self.counts["attempts"] += 1
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((slot.local, 0))
            code = sock.connect_ex(("127.0.0.1", self.port))
        except OSError:
            code = errno.EADDRNOTAVAIL
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            self.counts["connect_errors"] += 1
            slot.retry_at = time.monotonic() + self.retry
            return
        slot.sock, slot.connected, slot.holding, slot.got = sock, code == 0, False, b""
        slot.started = time.monotonic()
        self.sel.register(sock, selectors.EVENT_READ | (0 if code == 0 else selectors.EVENT_WRITE), slot)

    def drop(self, slot: Slot, retry: float) -> None:
        if slot.sock is not None:
            self.sel.unregister(slot.sock)
            slot.sock.close()
            slot.sock = None
        if slot.holding:
            slot.holding = False
            self.held_now -= 1
        slot.retry_at = time.monotonic() + retry

    def ready(self, slot: Slot, sock: socket.socket, events: int) -> None:
        if slot.sock is not sock:
            return  # closed earlier in the same batch of events (a hold)
        if not slot.connected:
            error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if error:
                self.counts["connect_errors"] += 1
                self.drop(slot, self.retry)
                return
            slot.connected = True
            self.sel.modify(sock, selectors.EVENT_READ, slot)
            if not events & selectors.EVENT_READ:
                return
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # closed by the server
            if slot.holding:
                self.drop(slot, 0.0)  # it held a slot: renew at once
            else:
                self.counts["closed_silently"] += 1
                self.drop(slot, self.retry)
            return
        if slot.holding:
            return  # the server's key exchange: read and ignored
        slot.got += data
        if b"\n" not in slot.got:
            return
        if slot.got.startswith(BANNER):
            self.counts["banners"] += 1
            slot.holding = True
            self.held_now += 1
            self.held_max = max(self.held_max, self.held_now)
        else:
            self.counts["refused_lines"] += 1
            self.drop(slot, self.retry)

    # --- the run
    def hold(self, held: bool) -> None:
        """Hold (every connection closed, none opened) or resume."""
        self.running = not held
        if held:
            for slot in self.slots:
                self.drop(slot, 0.0)

    def expire_connects(self, now: float) -> None:
        """A connect still pending after CONNECT_TIMEOUT (the server's backlog full) fails."""
        for slot in self.slots:
            if slot.sock is not None and not slot.connected and now - slot.started > CONNECT_TIMEOUT:
                self.counts["connect_errors"] += 1
                self.drop(slot, self.retry)

    def run(self, seconds: float) -> dict:
        end = time.monotonic() + seconds
        stdin = sys.stdin.buffer.raw if hasattr(sys.stdin.buffer, "raw") else sys.stdin.buffer
        self.sel.register(stdin, selectors.EVENT_READ, None)
        pending = b""
        checked = time.monotonic()
        while (now := time.monotonic()) < end:
            if now - checked > 0.5:
                self.expire_connects(now)
                checked = now
            if self.running:
                for slot in self.slots:
                    if slot.sock is None and slot.retry_at <= now:
                        self.open(slot)
            waits = [s.retry_at for s in self.slots if s.sock is None and self.running]
            timeout = min([end, *waits]) - time.monotonic() if waits else end - time.monotonic()
            for key, events in self.sel.select(max(0.0, min(0.1, timeout))):
                if key.data is None:
                    chunk = stdin.read(4096)
                    if not chunk:
                        self.sel.unregister(stdin)  # the end of stdin is not a stop
                        continue
                    pending += chunk
                    while b"\n" in pending:
                        line, pending = pending.split(b"\n", 1)
                        if line.strip() in (b"pause", b"go"):
                            self.hold(line.strip() == b"pause")
                        else:
                            end = time.monotonic()  # "stop": the window is over
                    continue
                self.ready(key.data, key.fileobj, events)  # type: ignore[arg-type]
        for slot in self.slots:
            self.drop(slot, 0.0)
        return {**self.counts, "held_max": self.held_max, "seconds": seconds}


def silent(port: int, addresses: int, per_address: int, retry: float, seconds: float) -> dict:
    slots = [Slot(f"127.0.0.{2 + i}") for i in range(addresses) for _ in range(per_address)]
    return Silent(port, retry, slots).run(seconds)
