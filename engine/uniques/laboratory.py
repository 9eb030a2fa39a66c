"""Laboratory (5): once per turn, in your own turn, discard 1 card from your hand
(face down to the deck bottom) to gain 2 gold.

2000 edition: 1 gold instead of 2 (Classic 2016 box: 2, as in 2016).
Command: Ability(name="Laboratory", card=<the card discarded>).
Events: "laboratory" (seat, gold=2 or 1, card private to the seat).
"""

from __future__ import annotations

from .. import deck
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn
from ._common import may_act


class Laboratory(Unique):
    name = "Laboratory"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if not may_act(g, t, self.name):
            return []
        return [ABILITY(t.seat, self.name, card=c) for c in dict.fromkeys(g.players[t.seat].hand)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.card is not None
        t.used.append(self.name)
        p = g.players[cmd.seat]
        p.hand.remove(cmd.card)
        deck.to_bottom(g, [cmd.card])
        gold = 1 if g.rules.edition == "2000" else 2
        p.gold += gold
        ev.append(EVENT("laboratory", seat=cmd.seat, gold=gold, card=cmd.card, count=1, private=[cmd.seat]))


unique(Laboratory)
