"""Armory (3): in your own turn, you may destroy the Armory to destroy any one
district (another player's or your own), but none in a complete city.

Not a rank-8 ability: the Bishop's protection, the Keep and the Great Wall do
not apply. "A district in a completed city cannot be destroyed" (rulebook
clarification) also covers the Armory itself: it cannot be used while its own
city is complete. Both districts go face down to the deck bottom (a destroyed
Museum's cards too).
2000 edition ("Powderhouse"): a district in *another* player's city; the card does not
exclude complete cities, so none is excluded (open point decided, docs/rules.md).
Command: Ability(name="Armory", player=<seat>, district=<name>).
Events: "armory" (seat, player, district).
"""

from __future__ import annotations

from ..city import is_complete
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn
from ._common import destroy, may_act


class Armory(Unique):
    name = "Armory"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        old = g.rules.edition == "2000"
        if not may_act(g, t, self.name) or (not old and is_complete(g, t.seat)):
            return []
        out = []
        for seat, p in enumerate(g.players):
            if not p.city or (old and seat == t.seat) or (not old and is_complete(g, seat)):
                continue
            for name in dict.fromkeys(b.name for b in p.city):
                if seat == t.seat and name == self.name:
                    continue  # the Armory is the price, not a target
                out.append(ABILITY(t.seat, self.name, player=seat, district=name))
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None and cmd.district is not None
        t.used.append(self.name)
        destroy(g, cmd.seat, self.name)
        destroy(g, cmd.player, cmd.district)
        ev.append(EVENT("armory", seat=cmd.seat, player=cmd.player, district=cmd.district))


unique(Armory)
