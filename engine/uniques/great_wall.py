"""Great Wall (6): the rank-8 character pays 1 more gold (to the bank) to use its
ability on any of your other districts.

The 2016 card says "other districts": the Great Wall itself costs no extra.
The Diplomat applies it only to the district he takes, not to the one he gives
from his own city (rulebook clarification; the Diplomat's module asks
`city.rank8_price` for the district he takes only).
"""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class GreatWall(Unique):
    name = "Great Wall"

    def rank8_extra_cost(self, g: GameState, seat: int, district: str) -> int:
        return 0 if district == self.name else 1


unique(GreatWall)
