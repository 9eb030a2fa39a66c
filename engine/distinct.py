"""`distinct(items)`: each name once, in the order of its first copy (what `dict.fromkeys` gives).

The legal lists ask it of a hand, the drawn cards or the characters passed at every command. Compiled,
`dict.fromkeys` is a method call on `dict` through CPython's generic call and a new dictionary; this is a
set and, only when a name repeats, a new list (docs/speed.md, the fifth pass). Compiled, a short list is
first compared name by name (no set to build: a few native string comparisons); interpreted, that loop
is slower than the set, so the pure-Python engine builds the set.
"""

from __future__ import annotations

from typing import Final

_COMPILED: Final = not (__file__ or "").endswith(".py")
_SHORT: Final = 12  # pairwise comparisons up to here (66 at most): cheaper compiled than a set


def distinct(items: list[str]) -> list[str]:
    """`items` itself when no name repeats (the caller only reads it), else a new list of each name once."""
    n = len(items)
    if _COMPILED and n <= _SHORT:
        i = 1
        repeats = False
        while i < n and not repeats:
            c = items[i]
            j = 0
            while j < i:
                if items[j] == c:
                    repeats = True
                    break
                j += 1
            i += 1
        if not repeats:
            return items
    seen = set(items)
    if len(seen) == n:
        return items
    out: list[str] = []
    for c in items:
        if c in seen:
            seen.discard(c)
            out.append(c)
    return out


def none_in(names: list[str], first: set[str], second: frozenset[str]) -> bool:
    """No name of `names` is in `first` or in `second` (`first.isdisjoint(names) and
    second.isdisjoint(names)`). Compiled, a method call on a set is CPython's generic call, and a
    loop of membership tests is native; interpreted, `isdisjoint` is the quicker."""
    if not _COMPILED:
        return first.isdisjoint(names) and second.isdisjoint(names)
    for name in names:  # noqa: SIM110 (a plain loop: what mypyc compiles natively, measured)
        if name in first or name in second:
            return False
    return True
