"""Bounded memos shared by every app in the process.

On a server every seat of a table receives nearly the same view after each
move, and each seat's app would build the same status line, the same players'
lines and wrap the same log sentences. A memo here keeps what one app built,
keyed by everything it was built from, for the others. What is kept must not be
changed by whoever reads it (the widgets copy a `Text` before changing it).
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from rich.text import Text


class Memo(dict):
    """A dict that forgets its oldest entries past `limit` (first in, first out), an eighth of them
    at a time: a dict's deleted entries stay in its table (until it is resized) ahead of the oldest
    one, so finding the oldest key one at a time walked over up to thousands of them on every put
    once a memo was full (3.7 us a put at 8,192 entries, 0.5 us so)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: Any, value: Any) -> Any:
        put_bounded(self, key, value, self.limit)
        return value


def put_bounded(cache: dict, key: Any, value: Any, limit: int) -> None:
    """`cache[key] = value`, an eighth of the oldest entries forgotten first when `limit` are kept
    (`Memo` says why not one at a time)."""
    if len(cache) >= limit:
        for old in list(islice(cache, max(limit // 8, 1))):
            del cache[old]
    cache[key] = value


def text_key(text: Text | None) -> tuple | None:
    """All of a `Text` that lines made from it depend on (copied, appended, wrapped, measured)."""
    if text is None:
        return None
    return (
        text.plain,
        tuple(text.spans),
        text.style,
        text.justify,
        text.overflow,
        text.no_wrap,
        text.end,
        text.tab_size,
    )
