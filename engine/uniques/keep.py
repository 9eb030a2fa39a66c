"""Keep (3): the rank-8 character (Warlord, Diplomat, Marshal) cannot use its ability
on the Keep. Other effects (the Armory, a Necropolis, the Framework) are not
rank-8 abilities and may destroy it."""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class Keep(Unique):
    name = "Keep"

    def rank8_immune(self, g: GameState, seat: int, district: str) -> bool:
        return district == self.name


unique(Keep)
