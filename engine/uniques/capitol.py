"""Capitol (5): at game end, 3 extra points if your city has at least 3 districts of
the same type (only once, however many types reach 3). Unique districts are a
type too; a Haunted Quarter counted as another type counts for that type."""

from __future__ import annotations

from collections import Counter

from ..hooks import ScoreCtx, Unique, unique
from ..scoring import type_at_end
from ..state import GameState


class Capitol(Unique):
    name = "Capitol"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        counts = Counter(type_at_end(b.name, ctx) for b in g.players[seat].city)
        return 3 if counts and max(counts.values()) >= 3 else 0


unique(Capitol)
