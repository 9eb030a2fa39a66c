"""Stables (2): building the Stables does not count toward your build limit.

So a player at the limit may still build it, and one who builds it may build
another district. The Navigator, who cannot build at all, cannot build it
either. Confiscated by the Magistrate, it still does not count, so the player
may build another district this turn (rulebook clarification): the flow counts
a build toward the limit before the warrant is revealed, and exempt districts
never count.
"""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState, Turn


class Stables(Unique):
    name = "Stables"

    def exempt_from_limit(self, g: GameState, t: Turn) -> bool:
        return True


unique(Stables)
