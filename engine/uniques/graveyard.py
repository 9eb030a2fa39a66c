"""Graveyard (5; Classic 2016 box and 2000 basic deck): when the Warlord destroys a
district, you may pay 1 gold to take it into your hand instead of the deck bottom;
not if you are the Warlord (the player whose turn it is).

Open point decided: the card does not limit it to your own city, so a district the
Warlord destroys in any city may be claimed (docs/rules.md, "Older editions").
Not used with the Diplomat (the 2000 set-up removes it: engine/edition_setup.py).
A 2016 rule set never deals it.

Decision: Choice(about "Graveyard", options "take" / "pass") for the owner, while the
destroyed card waits in the Warlord's turn `aside`; then the Warlord's turn goes on,
or ends if he destroyed at its end (2000).
Events: graveyard (seat = the owner, player = the city it was destroyed in, district,
gold = 1), graveyard_passed (seat, district).
"""

from __future__ import annotations

from .. import deck
from ..cardstate import TurnScoped
from ..finals import CHOICE, EVENT
from ..hooks import Events, Unique, choice, unique
from ..roles.warlord import destruction_settled
from ..state import GameState, current_turn


class GraveyardOffer(TurnScoped):
    """The city the district waiting in the turn's `aside` was destroyed in."""

    victim: int


class Graveyard(Unique):
    name = "Graveyard"

    def on_rank8_destroyed(self, g: GameState, seat: int, victim: int, district: str, ev: Events) -> bool:
        t = g.turn
        if t is None or t.seat == seat or g.players[seat].gold < 1:
            return False
        GraveyardOffer(victim=victim).put(t)
        g.pending = CHOICE(seat, self.name, ["take", "pass"])
        return True


unique(Graveyard)


@choice("Graveyard")
def claim(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    card = t.aside.pop()
    offer = GraveyardOffer.drop(t)
    assert offer is not None
    victim = offer.victim
    if option == "take":
        g.players[seat].gold -= 1
        g.players[seat].hand.append(card)
        ev.append(EVENT("graveyard", seat=seat, player=victim, district=card, gold=1))
    else:
        deck.to_bottom(g, [card])
        ev.append(EVENT("graveyard_passed", seat=seat, district=card))
    destruction_settled(g, ev)
