"""Imperial Treasury (5): at game end, 1 extra point per gold in your stash (not gold on
districts or on the Tax Collector's token)."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class ImperialTreasury(Unique):
    name = "Imperial Treasury"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return g.players[seat].gold


unique(ImperialTreasury)
