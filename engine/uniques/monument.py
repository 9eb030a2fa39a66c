"""Monument (4): cannot be built if your city has 5 or more districts; it counts as
2 districts toward a complete city (7, or 8 with 2-3 players).

"5 or more districts" counts district cards in the city. Its score is its cost (4)."""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class Monument(Unique):
    name = "Monument"

    def can_build(self, g: GameState, seat: int) -> bool:
        return len(g.players[seat].city) < 5

    def city_size(self) -> int:
        return 2


unique(Monument)
