"""Poor House (4): at the end of your turn, if you have no gold in your stash, gain 1
gold.

Before the Alchemist's refund (the flow runs district end-of-turn effects before
the character's), so an Alchemist at 0 gold gets both. Not for a Witch who does
not resume, nor in a bewitched player's short turn.
Events: "poor_house" (seat, gold=1).
"""

from __future__ import annotations

from ..finals import EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn


class PoorHouse(Unique):
    name = "Poor House"

    def end_turn(self, g: GameState, t: Turn, ev: Events) -> None:
        p = g.players[t.seat]
        if p.gold == 0:
            p.gold = 1
            ev.append(EVENT("poor_house", seat=t.seat, gold=1))


unique(PoorHouse)
