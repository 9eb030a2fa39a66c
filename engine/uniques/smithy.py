"""Smithy (5): once per turn, in your own turn, pay 2 gold to gain 3 cards.

Offered while the deck holds a card (fewer than 3 left: you gain what there is).
Gold paid here is not gold paid to build (no Alchemist refund).
Command: Ability(name="Smithy"). Events: "smithy" (seat, gold=2, count, cards
private to the seat).
"""

from __future__ import annotations

from .. import deck
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn
from ._common import may_act


class Smithy(Unique):
    name = "Smithy"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if not may_act(g, t, self.name) or g.players[t.seat].gold < 2 or not g.deck:
            return []
        return [ABILITY(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        g.players[cmd.seat].gold -= 2
        got = deck.gain_cards(g, cmd.seat, 3)
        ev.append(EVENT("smithy", seat=cmd.seat, gold=2, count=len(got), cards=got, private=[cmd.seat]))


unique(Smithy)
