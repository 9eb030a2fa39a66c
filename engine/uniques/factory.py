"""Factory (5): building any other unique district costs you 1 gold less.

It lowers the cost to build (so also what a Thieves' Den may pay in cards);
it does not change a district's value for scoring or for rank-8 prices.
2000 edition: it costs 6 (engine/cards/editions.py); the same effect."""

from __future__ import annotations

from ..cards.districts import DISTRICTS
from ..hooks import Unique, unique
from ..state import GameState


class Factory(Unique):
    name = "Factory"

    def cost_change(self, g: GameState, seat: int, district: str) -> int:
        return -1 if DISTRICTS[district].type == "unique" and district != self.name else 0


unique(Factory)
