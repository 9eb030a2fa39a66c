"""The random bot: uniform over the legal commands. A test tool, not an opponent."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..commands import Command

if TYPE_CHECKING:
    from ..view import View


class RandomBot:
    kind = "random"
    needs_view = False  # decides from the legal commands alone
    name = "Random"
    style = None

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def choose(self, legal: list[Command], view: View | None = None) -> Command:
        # `self.rng.randrange(n)`, inlined (the same draws: CPython's _randbelow_with_getrandbits)
        n = len(legal)
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return legal[r]
