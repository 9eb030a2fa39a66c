"""Dragon Gate (6): at game end, 2 extra points."""

from __future__ import annotations

from ..hooks import Unique, unique


@unique
class DragonGate(Unique):
    name = "Dragon Gate"

    def score(self, g, seat, ctx):
        return 2
