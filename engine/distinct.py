"""`distinct(items)`: each name once, in the order of its first copy (what `dict.fromkeys` gives).

The legal lists ask it of a hand, the drawn cards or the characters passed at every command. Compiled,
`dict.fromkeys` is a method call on `dict` through CPython's generic call and a new dictionary; this is a
set and, only when a name repeats, a new list (docs/speed.md, the fifth pass).
"""

from __future__ import annotations


def distinct(items: list[str]) -> list[str]:
    """`items` itself when no name repeats (the caller only reads it), else a new list of each name once."""
    seen = set(items)
    if len(seen) == len(items):
        return items
    out: list[str] = []
    for c in items:
        if c in seen:
            seen.discard(c)
            out.append(c)
    return out
