"""Museum (4): once per turn, in your own turn, put 1 card from your hand face down
under the Museum. At game end, 1 extra point per card under it.

The cards stay with the Museum when it changes city (Diplomat, Marshal,
Magistrate: they move the `Built` object, `under` included) and go to the deck
bottom when it is destroyed (`_common.destroy`, the Warlord).
Command: Ability(name="Museum", card=<the card>). Events: "museum" (seat,
count=cards now under it, card private to the seat).
"""

from __future__ import annotations

from ..city import find
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, ScoreCtx, Unique, unique
from ..state import GameState, Turn
from ._common import may_act


class Museum(Unique):
    name = "Museum"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if not may_act(g, t, self.name):
            return []
        return [ABILITY(t.seat, self.name, card=c) for c in dict.fromkeys(g.players[t.seat].hand)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.card is not None
        t.used.append(self.name)
        g.players[cmd.seat].hand.remove(cmd.card)
        b = find(g, cmd.seat, self.name)
        assert b is not None
        b.under.append(cmd.card)
        ev.append(
            EVENT("museum", seat=cmd.seat, district=self.name, count=len(b.under), card=cmd.card, private=[cmd.seat])
        )

    def score(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return sum(len(b.under) for b in g.players[seat].city if b.name == self.name)


unique(Museum)
