"""King (rank 4): gold per noble district (income, see the data table); takes the
crown when revealed (even when bewitched); killed, takes it at round end as heir."""

from __future__ import annotations

from ..crown import give_crown
from ..finals import EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


class CrownTaker(Role):
    """The King and the Patrician share the crown rule."""

    def on_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        give_crown(g, t.seat, ev, self.name)

    def end_round(self, g: GameState, ev: Events) -> bool:
        seat = g.holders.get(self.name)
        if seat is not None and g.markers.killed == self.name:
            ev.append(EVENT("revealed", seat=seat, character=self.name, option="heir"))
            g.revealed.setdefault(self.name, seat)
            give_crown(g, seat, ev, self.name)
        return False


class King(CrownTaker):
    name = "King"


role(King)
