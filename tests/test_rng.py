"""The compiled build's shuffle (engine/shuffle64.py, native integers in 32-bit halves) draws what
`Rng.shuffle` (CPython's longs) draws: the same permutation and the same next state. Pure Python this
checks the formulation; with the compiled engine first on the path, the compiled code."""

from __future__ import annotations

import random

from engine import rng, shuffle64


def _reference_shuffle(state: int, items: list[int]) -> int:
    r = rng.Rng(state)
    for i in range(len(items) - 1, 0, -1):
        j = r.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return r.state


def test_the_native_shuffle_draws_what_the_generator_draws():
    gen = random.Random(22)
    states = [0, 1, (1 << 64) - 1, 1 << 63, (1 << 63) - 1, 0x9E3779B97F4A7C15] + [
        gen.getrandbits(64) for _ in range(3000)
    ]
    for k, state in enumerate(states):
        n = (0, 1, 2, 8, 66, 200)[k % 6] if k < 60 else gen.randrange(0, 90)
        want = list(range(n))
        got = list(range(n))
        assert shuffle64.shuffle(state, got) == _reference_shuffle(state, want), state
        assert got == want, state
        # and Rng.shuffle, whichever way it shuffles in this build
        again = list(range(n))
        r = rng.Rng(state)
        r.shuffle(again)
        assert again == want and r.state == shuffle64.shuffle(state, list(range(n)))
