"""Ivory Tower (5): at game end, 5 extra points if it is the only unique district in
your city. A Haunted Quarter counted as another type does not stop it
(rulebook clarification)."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState
from ._common import uniques_in_city


class IvoryTower(Unique):
    name = "Ivory Tower"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return 5 if uniques_in_city(g, seat, ctx) == 1 else 0


unique(IvoryTower)
