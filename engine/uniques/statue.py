"""Statue (3): at game end, 5 extra points if you hold the crown."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class Statue(Unique):
    name = "Statue"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return 5 if g.crown == seat else 0


unique(Statue)
