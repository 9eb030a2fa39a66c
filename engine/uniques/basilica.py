"""Basilica (4): at game end, 1 extra point for each district in your city with an odd
cost (its cost as built: an Artist's beautified district counts its +1)."""

from __future__ import annotations

from ..city import value
from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class Basilica(Unique):
    name = "Basilica"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return sum(1 for b in g.players[seat].city if value(b) % 2 == 1)


unique(Basilica)
