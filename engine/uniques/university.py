"""University (6; Classic 2016 box and 2000 basic deck): at game end it is worth 8
points: its cost 6 and 2 extra points (like the Dragon Gate). A 2016 rule set never
deals it."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class University(Unique):
    name = "University"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return 2


unique(University)
