"""A terminal seen from an SSH client, for tests: the escape sequences a screen sends, stripped
to its text, and a PTY session of an asyncssh client that collects output and waits for text
(the transport's fixtures, the game and admin tests, the cluster's harness)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS and friends
    r"|\x1b[()][0-9A-Za-z]"  # charset
    r"|\x1b[=>78NOMDEHc]"
)


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


def plain(data: bytes) -> str:
    """Bytes a screen sent, as the text on it (escape sequences removed)."""
    return ANSI.sub("", data.decode("utf-8", "replace"))


class Terminal:
    """A PTY session seen from the client: collects output, waits for text."""

    def __init__(self, conn: Any, process: Any) -> None:
        self.conn = conn
        self.process = process
        self.raw = bytearray()
        self._mark = 0

    def mark(self) -> None:
        """Later waits only look at output received after this point."""
        self._mark = len(self.raw)

    def text(self, since_mark: bool = True) -> str:
        return plain(bytes(self.raw[self._mark :] if since_mark else self.raw))

    async def read_some(self, timeout: float = 0.2) -> bool:
        """Read what is available; False at end of output."""
        try:
            chunk = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        except TimeoutError:
            return True
        if not chunk:
            return False
        self.raw.extend(chunk)
        return True

    async def wait_for(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            now = self.text()
            if text in now:
                return now
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not seen within {timeout}s; last output: {now[-600:]!r}")
            if not await self.read_some():
                now = self.text()
                if text in now:
                    return now
                raise AssertionError(f"output ended before {text!r}; last output: {now[-600:]!r}")

    async def read_to_end(self, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while await self.read_some():
            if time.monotonic() > deadline:
                raise AssertionError("output did not end in time")
        return self.text()

    def send(self, data: bytes | str) -> None:
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)

    def resize(self, width: int, height: int) -> None:
        self.process.change_terminal_size(width, height)

    def close(self) -> None:
        self.conn.close()
