"""Observatory (4): when you gather resources by drawing cards, draw 3 instead of 2
(keep 1, the others to the deck bottom; with the Library keep all 3).

A gathering-time effect (works for a bewitched or threatened player too).
2000 edition: it costs 5 (engine/cards/editions.py), and with the Library 2 of the 3
cards are kept (library.py asks for that).
"""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class Observatory(Unique):
    name = "Observatory"

    def draw_count(self, g: GameState, seat: int, n: int) -> int:
        return max(n, 3)


unique(Observatory)
