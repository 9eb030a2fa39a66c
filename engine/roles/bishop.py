"""Bishop (rank 5): gold per religious district; this round the rank-8 character
cannot use its ability on his districts. Killed: no protection. Bewitched: the
Witch's districts are protected, not the Bishop's."""

from __future__ import annotations

from ..hooks import Role, role
from ..state import GameState
from .witch import bewitched


class Bishop(Role):
    name = "Bishop"

    def shields(self, g: GameState, seat: int) -> bool:
        if g.markers.killed == self.name or self.name not in g.holders:
            return False
        if bewitched(g) == self.name:
            return g.holders.get("Witch") == seat
        return g.holders[self.name] == seat


role(Bishop)
