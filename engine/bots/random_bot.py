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

    def choose(self, legal: list[Command], view: View | None = None) -> Command:
        return legal[self.rng.randrange(len(legal))]
