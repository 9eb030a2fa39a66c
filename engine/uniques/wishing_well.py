"""Wishing Well (5): at game end, 1 extra point per unique district in your city, the
Wishing Well included (a Haunted Quarter counted as another type does not count;
a Secret Vault in hand is not in the city).

2000 edition: 1 point per *other* purple district (the Wishing Well itself excluded)."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState
from ._common import uniques_in_city


class WishingWell(Unique):
    name = "Wishing Well"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        n = uniques_in_city(g, seat, ctx)
        return n - 1 if g.rules.edition == "2000" else n


unique(WishingWell)
