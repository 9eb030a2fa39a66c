"""What the driver does with a session's input before Textual sees it: bracketed pastes cut to a
length (:class:`PasteLimiter`), and the events a session's key budget counts (:func:`key_cost`)."""

from __future__ import annotations

from textual import events

_PASTE_START = "\x1b[200~"
_PASTE_END = "\x1b[201~"
_ESC = "\x1b"

# Key tokens each event takes (server/transport/input_budget.py). Scrolls are cheap: a trackpad
# sends dozens a second. Mouse moves and releases take none (they still open the cost window).
_SCROLLS = (events.MouseScrollDown, events.MouseScrollUp, events.MouseScrollLeft, events.MouseScrollRight)


def key_cost(event: object) -> float:
    """Tokens of the key bucket ``event`` takes: 1 a key, click or paste, 0.25 a scroll, else 0."""
    if isinstance(event, (events.Key, events.MouseDown, events.Paste)):
        return 1.0
    if isinstance(event, _SCROLLS):
        return 0.25
    return 0.0


def is_input(event: object) -> bool:
    """An event a person made, window changes included (its handling is charged to the session's
    loop-time budget)."""
    return isinstance(event, (events.Key, events.MouseEvent, events.Paste, events.Resize))


class PasteLimiter:
    """Follows bracketed-paste markers across chunks; drops paste characters past ``limit``."""

    __slots__ = ("_in_paste", "_marker", "_paste_len", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._in_paste = False
        self._paste_len = 0
        self._marker = ""

    def reset(self) -> None:
        self._in_paste = False
        self._marker = ""

    def __call__(self, text: str) -> str:
        if not self._in_paste and not self._marker and _ESC not in text:
            return text
        out: list[str] = []
        limit = self.limit
        i, n = 0, len(text)
        while i < n:
            if not self._marker:
                # Up to the next ESC nothing can start or end a paste: copy or skip in bulk.
                j = text.find(_ESC, i)
                if j == -1:
                    j = n
                if j > i:
                    if not self._in_paste:
                        out.append(text[i:j])
                    else:
                        room = limit - self._paste_len
                        if room > 0:
                            taken = text[i : min(j, i + room)]
                            out.append(taken)
                            self._paste_len += len(taken)
                    i = j
                    continue
            ch = text[i]
            i += 1
            if ch == _ESC:
                self._marker = _ESC
            else:
                self._marker += ch
                if not (_PASTE_START.startswith(self._marker) or _PASTE_END.startswith(self._marker)):
                    self._marker = ""
            if not self._in_paste:
                out.append(ch)
                if self._marker == _PASTE_START:
                    self._in_paste = True
                    self._paste_len = 0
                    self._marker = ""
                continue
            if self._paste_len < limit:
                out.append(ch)
                self._paste_len += 1
            elif self._marker == _PASTE_END:
                out.append(_PASTE_END)  # its first characters were dropped
            if self._marker == _PASTE_END:
                self._in_paste = False
                self._marker = ""
        return "".join(out)
