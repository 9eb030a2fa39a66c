"""Ballroom (6; The Dark City): while you hold the crown, each other player must say
"Thank you, Your Excellency" when revealing a character, or lose that turn.

A social rule. Decision (docs/rules.md, "Older editions"): the card is kept and the
thanks are an automatic acknowledgement: whenever another player reveals a character
while the Ballroom's owner holds the crown, the log says they thanked them; nobody
ever loses a turn. The card otherwise counts as a 6-cost purple district.
Events: ballroom_thanks (seat = the revealing player, player = the owner, character).
"""

from __future__ import annotations

from ..finals import EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn


class Ballroom(Unique):
    name = "Ballroom"

    def on_any_reveal(self, g: GameState, seat: int, t: Turn, ev: Events) -> None:
        if g.crown == seat and t.seat != seat:
            ev.append(EVENT("ballroom_thanks", seat=t.seat, player=seat, character=t.character))


unique(Ballroom)
