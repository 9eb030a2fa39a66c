"""Magician (rank 3): either swaps hands with another player, or discards any
number of cards to the deck bottom and gains as many."""

from __future__ import annotations

from .. import deck
from ..commands import Ability
from ..finals import ABILITY, EVENT, SELECT_CARDS
from ..hooks import Events, Role, role, select
from ..state import GameState, Turn
from ._targets import others


class Magician(Role):
    name = "Magician"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        out = [ABILITY(t.seat, self.name, option="swap", player=s) for s in others(g, t.seat)]
        if g.players[t.seat].hand:
            out.append(ABILITY(t.seat, self.name, option="redraw"))
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        if cmd.option == "swap":
            assert cmd.player is not None
            me, them = g.players[cmd.seat], g.players[cmd.player]
            me.hand, them.hand = them.hand, me.hand
            ev.append(EVENT("hands_swapped", seat=cmd.seat, player=cmd.player, count=len(me.hand), gold=len(them.hand)))
        else:
            g.pending = SELECT_CARDS(cmd.seat, purpose=self.name, min=0, max=len(g.players[cmd.seat].hand))


role(Magician)


@select("Magician")
def redraw(g: GameState, seat: int, cards: list[str], ev: Events) -> None:
    hand = g.players[seat].hand
    for c in cards:
        hand.remove(c)
    deck.to_bottom(g, list(cards))
    got = deck.gain_cards(g, seat, len(cards))
    ev.append(EVENT("redrew", seat=seat, count=len(cards), cards=list(cards) + got, private=[seat]))
