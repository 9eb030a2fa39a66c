"""A small deterministic random generator whose whole state is one integer.

SplitMix64: the state is stored in the game state, so a saved game continues
with exactly the same draws. Not for cryptography; for shuffles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from . import shuffle64

T = TypeVar("T")
_MASK = (1 << 64) - 1

# The compiled build's shuffle in native integers (engine/shuffle64.py): the same draws; interpreted, it
# is slower than CPython's longs, so the pure-Python engine shuffles here.
_native_shuffle = None if shuffle64.__file__ is None or shuffle64.__file__.endswith(".py") else shuffle64.shuffle


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class Rng:
    """A view over a game's generator state; write `state` back when done."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, n: int) -> int:
        # next_u64, inlined (this is every shuffle's inner loop)
        state = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def shuffle(self, items: list[T]) -> None:
        if _native_shuffle is not None and len(items) < 1 << 31:
            self.state = _native_shuffle(self.state, items)
            return
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            # j = self.below(i + 1), inlined (the same draws)
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
