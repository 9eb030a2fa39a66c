"""Dragon Gate (6): at game end, 2 extra points."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class DragonGate(Unique):
    name = "Dragon Gate"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return 2


unique(DragonGate)
