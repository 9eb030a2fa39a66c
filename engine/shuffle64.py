"""SplitMix64's shuffle (engine/rng.py) in native integers, for the compiled build.

The generator's state is a 64-bit integer. mypyc's native integers are signed 64-bit (`i64`), and a
Python int is a long (a heap object) above 62 bits, so `rng.py` stays interpreted and its arithmetic
is CPython's longs: about a twelfth of the compiled engine's instructions (a shuffle of the characters
each round, of the deck at set-up). Here the state is two 32-bit halves in `i64`s, and every product
is taken in 16-bit pieces, so that no intermediate value reaches 2**63: exact in both builds, the same
draws as `Rng.shuffle` (tests/test_rng.py compares them). `rng.py` calls it only when it is compiled:
interpreted, the halves are slower than CPython's longs.
"""

from __future__ import annotations

from typing import Any, Final

try:
    from mypy_extensions import i64
except ImportError:  # the pure-Python install (no mypy): never called there, see rng.py
    i64 = int  # type: ignore[misc]

_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF


def _mul(ah: i64, al: i64, bh: i64, bl: i64) -> tuple[i64, i64]:
    """(ah:al * bh:bl) mod 2**64, as (high, low) 32-bit halves."""
    p0 = al * (bl & _M16)  # < 2**48
    p1 = al * (bl >> 16)
    low = p0 + ((p1 & _M16) << 16)
    hi = (low >> 32) + (p1 >> 16)  # (al * bl) >> 32
    hi += (ah * (bl & _M16) + (((ah * (bl >> 16)) & _M16) << 16)) & _M32  # ah * bl mod 2**32
    hi += (al * (bh & _M16) + (((al * (bh >> 16)) & _M16) << 16)) & _M32  # al * bh mod 2**32
    return hi & _M32, low & _M32


def shuffle(state: int, items: list[Any]) -> int:
    """`Rng(state).shuffle(items)`: shuffle `items` in place; return the generator's new state."""
    sh: i64 = state >> 32
    sl: i64 = state & _M32
    i: i64 = len(items) - 1
    while i > 0:
        # state += 0x9E3779B97F4A7C15
        sl += 0x7F4A7C15
        sh = (sh + 0x9E3779B9 + (sl >> 32)) & _M32
        sl &= _M32
        # z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
        zh, zl = _mul(sh ^ (sh >> 30), sl ^ (((sh << 2) & _M32) | (sl >> 30)), 0xBF58476D, 0x1CE4E5B9)
        # z = (z ^ (z >> 27)) * 0x94D049BB133111EB
        zh, zl = _mul(zh ^ (zh >> 27), zl ^ (((zh << 5) & _M32) | (zl >> 27)), 0x94D049BB, 0x133111EB)
        # z ^= z >> 31; j = (z * (i + 1)) >> 64
        zl ^= ((zh << 1) & _M32) | (zl >> 31)
        zh ^= zh >> 31
        n = i + 1
        j = (zh * n + ((zl * n) >> 32)) >> 32
        items[i], items[j] = items[j], items[i]
        i -= 1
    return (int(sh) << 32) | int(sl)
