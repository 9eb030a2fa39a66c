"""Park (6): at the end of your turn, if you have no cards in hand, gain 2 cards.

Not for a Witch who does not resume, nor in a bewitched player's short turn
(the flow runs end-of-turn district effects only for full turns).
Events: "park" (seat, count, cards private to the seat).
"""

from __future__ import annotations

from .. import deck
from ..finals import EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn


class Park(Unique):
    name = "Park"

    def end_turn(self, g: GameState, t: Turn, ev: Events) -> None:
        if not g.players[t.seat].hand and g.deck:
            got = deck.gain_cards(g, t.seat, 2)
            ev.append(EVENT("park", seat=t.seat, count=len(got), cards=got, private=[t.seat]))


unique(Park)
