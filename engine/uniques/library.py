"""Library (6): when you gather resources by drawing cards, keep all the cards drawn.

With the Observatory, the three cards drawn are all kept. A gathering-time
effect (works for a bewitched or threatened player too). It does not touch
other draws (the Scholar's seven, the Architect's extra cards are gained).

2000 edition: "keep both" cards drawn; with the Observatory (3 drawn) keep 2 of them.
"""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class Library(Unique):
    name = "Library"

    def keep_all(self, g: GameState, seat: int) -> bool:
        return not (g.rules.edition == "2000" and _observatory(g, seat))

    def keep_count(self, g: GameState, seat: int, keep: int) -> int:
        return max(keep, 2) if g.rules.edition == "2000" and _observatory(g, seat) else keep


unique(Library)


def _observatory(g: GameState, seat: int) -> bool:
    return any(b.name == "Observatory" for b in g.players[seat].city)
