"""A small model of a terminal's screen for tests: what the cells show after a byte stream.

Understands what Textual and our SSH driver write: cursor moves (`CSI row;col H`), SGR (`CSI ... m`,
kept per cell as the codes since the last reset), text (wide characters take two cells), line feeds,
the synchronized-output markers (`CSI ?2026h/l`: an update is applied when it ends, as a terminal
that supports them shows it) and mode sequences, OSC strings and the bell (ignored). No auto-wrap (the
driver turns it off): text past the last column is dropped. Anything else fails the test.
"""

from __future__ import annotations

import re

from rich.cells import get_character_cell_size

_TOKEN = re.compile(
    r"\x1b\[(?P<csi>[0-?]*[ -/]*[@-~])"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC (the window title)
    r"|\x1b(?P<esc>[^\[\]])"
    r"|(?P<ctl>[\x00-\x1f])"
    r"|(?P<text>[^\x00-\x1f\x1b]+)"
)

Cell = tuple[str, str]  # (character, SGR codes)


class TermScreen:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[Cell]] = [[(" ", "")] * width for _ in range(height)]
        self.x = self.y = 0
        self.sgr = ""
        self.pending = ""  # an incomplete escape sequence at the end of the last chunk
        self.sync_depth = 0
        self.updates = 0  # synchronized updates applied

    def feed(self, data: str) -> None:
        data = self.pending + data
        self.pending = ""
        pos = 0
        while pos < len(data):
            if data[pos] == "\x1b" and _incomplete(data[pos:]):
                self.pending = data[pos:]
                return
            m = _TOKEN.match(data, pos)
            assert m is not None, f"cannot read {data[pos : pos + 20]!r}"
            pos = m.end()
            if m.group("text") is not None:
                self._text(m.group("text"))
            elif m.group("csi") is not None:
                self._csi(m.group("csi"))
            elif m.group("ctl") is not None:
                if m.group("ctl") == "\n":
                    self.y = min(self.y + 1, self.height - 1)
                elif m.group("ctl") == "\r":
                    self.x = 0
                else:
                    assert m.group("ctl") == "\x07", repr(m.group("ctl"))

    def _text(self, text: str) -> None:
        row = self.cells[self.y]
        for ch in text:
            w = get_character_cell_size(ch)
            if w == 0:
                continue
            if self.x + w > self.width:
                self.x = self.width
                continue
            row[self.x] = (ch, self.sgr)
            if w == 2:
                row[self.x + 1] = ("", self.sgr)
            self.x += w

    def _csi(self, body: str) -> None:
        final, params = body[-1], body[:-1]
        if final == "H":
            parts = params.split(";") if params else []
            row = int(parts[0]) if parts and parts[0] else 1
            col = int(parts[1]) if len(parts) > 1 and parts[1] else 1
            self.y = min(max(row - 1, 0), self.height - 1)
            self.x = min(max(col - 1, 0), self.width)
        elif final == "m":
            if params in ("", "0"):
                self.sgr = ""
            else:
                self.sgr = f"{self.sgr};{params}" if self.sgr else params
        elif params == "?2026" and final in "hl":
            self.sync_depth += 1 if final == "h" else -1
            assert self.sync_depth in (0, 1), "nested or unbalanced synchronized updates"
            self.updates += final == "l"
        else:
            assert params.startswith(("?", ">", "<")) or final in "hlut", f"unexpected CSI {body!r}"

    def text(self) -> str:
        return "\n".join("".join(ch for ch, _ in row) for row in self.cells)

    def snapshot(self) -> list[list[Cell]]:
        return [list(row) for row in self.cells]


def _incomplete(tail: str) -> bool:
    if len(tail) == 1:
        return True
    if tail[1] == "[":
        return re.match(r"\x1b\[[0-?]*[ -/]*[@-~]", tail) is None
    if tail[1] == "]":
        return "\x07" not in tail and "\x1b\\" not in tail
    return False
