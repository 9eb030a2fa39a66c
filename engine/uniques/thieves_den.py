"""Thieves' Den (6): pay some or all of its cost with cards from your hand, 1 card for
1 gold (the cards go face down to the deck bottom); the rest in gold.

The build offers a card choice (SelectCards purpose "Thieves' Den", at least
one card and at least what the gold does not cover, at most the cost; the Den
itself cannot be chosen). Confiscated by the Magistrate, the owner gets back
only the gold (the `paid` amount), not the cards. The Factory's -1 lowers the
cost paid either way.
Command: Build(district="Thieves' Den", via="Thieves' Den"), then Select/Confirm.
Events: "thieves_den" (seat, count=cards paid, gold, cards private), then "built".
"""

from __future__ import annotations

from typing import Final

from .. import build, deck
from ..commands import Build
from ..finals import BUILD, EVENT, SELECT_CARDS
from ..hooks import Events, Unique, select, unique
from ..state import GameState, Turn, current_turn

NAME: Final = "Thieves' Den"  # a compiled card class's `name` is an attribute of its object, not of its class


class ThievesDen(Unique):
    name = NAME

    def build_options(self, g: GameState, t: Turn, district: str, cost: int, in_city: bool) -> list[Build]:
        if in_city or district != self.name or cost < 1:
            return []
        p = g.players[t.seat]
        others = len(p.hand) - 1
        if others < 1 or p.gold + others < cost:
            return []
        return [BUILD(t.seat, self.name, via=self.name)]

    def pay(self, g: GameState, t: Turn, cmd: Build, cost: int, ev: Events) -> int | None:
        p = g.players[t.seat]
        others = len(p.hand) - 1
        g.pending = SELECT_CARDS(
            t.seat, purpose=self.name, min=max(1, cost - p.gold), max=min(cost, others), reserved=[self.name]
        )
        return None  # the build finishes once the cards are chosen


unique(ThievesDen)


@select("Thieves' Den")
def pay_with_cards(g: GameState, seat: int, cards: list[str], ev: Events) -> None:
    t = current_turn(g)
    p = g.players[seat]
    cost = build.cost_for(g, seat, NAME)
    for c in cards:
        p.hand.remove(c)
    deck.to_bottom(g, list(cards))
    gold = cost - len(cards)
    p.gold -= gold
    ev.append(EVENT("thieves_den", seat=seat, count=len(cards), gold=gold, cards=list(cards), private=[seat]))
    build.finish_build(g, t, NAME, gold, NAME, ev)
