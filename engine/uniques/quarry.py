"""Quarry (5): you may build districts identical to ones already in your city (any
number of them).

Only for building: the Magistrate, Diplomat and Marshal still may not take a
district identical to one in their city (rulebook clarification). Their modules
check names directly and never ask `build.may_duplicate`, which is the only
place this hook is read.

2000 edition: at most one duplicate at a time: no further identical district while
the city already holds two districts of one name.
"""

from __future__ import annotations

from ..hooks import Unique, unique
from ..state import GameState


class Quarry(Unique):
    name = "Quarry"

    def allows_duplicates(self, g: GameState, seat: int) -> bool:
        if g.rules.edition == "2000":
            names = [b.name for b in g.players[seat].city]
            return len(names) == len(set(names))
        return True


unique(Quarry)
