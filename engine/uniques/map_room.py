"""Map Room (5): at game end, 1 extra point per card in your hand (a revealed Secret
Vault stays in the hand and counts)."""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class MapRoom(Unique):
    name = "Map Room"

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return len(g.players[seat].hand)


unique(MapRoom)
