"""Throne Room (6; The Dark City): you gain 1 gold each time the crown changes hands
(whoever gives or receives it, you included; not when the King keeps it).
Events: throne_room (seat = the owner, gold = 1, player = the new crown holder).
"""

from __future__ import annotations

from ..finals import EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState


class ThroneRoom(Unique):
    name = "Throne Room"

    def on_crown_moved(self, g: GameState, seat: int, old: int, new: int, ev: Events) -> None:
        g.players[seat].gold += 1
        ev.append(EVENT("throne_room", seat=seat, player=new, gold=1))


unique(ThroneRoom)
