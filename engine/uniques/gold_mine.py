"""Gold Mine (6): when you gather resources by taking gold, take 1 more.

A gathering-time effect: it also works in the Witch's paused turn, for a
bewitched player and before a threat is resolved (rulebook: Witch, Blackmailer).
"""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class GoldMine(Unique):
    name = "Gold Mine"

    def gather_gold(self, g: GameState, seat: int) -> int:
        return 1


unique(GoldMine)
