"""Lighthouse (3; The Dark City): when you build it, you may look through the district
deck, take one card of your choice into your hand, then shuffle the deck.

Decision: Choice(about "Lighthouse", options = the distinct cards of the deck, sorted,
and "pass"), seen only by the builder. Nothing when the deck is empty.
Events: lighthouse (seat, card private to the seat, count = 1), lighthouse_passed (seat).
"""

from __future__ import annotations

from ..finals import CHOICE, EVENT
from ..hooks import Events, Unique, choice, unique
from ..rng import Rng
from ..state import GameState


class Lighthouse(Unique):
    name = "Lighthouse"

    def on_built(self, g: GameState, seat: int, ev: Events) -> None:
        if g.deck:
            g.pending = CHOICE(seat, self.name, sorted(set(g.deck)) + ["pass"])


unique(Lighthouse)


@choice("Lighthouse")
def search(g: GameState, seat: int, option: str, ev: Events) -> None:
    if option == "pass":
        ev.append(EVENT("lighthouse_passed", seat=seat))
    else:
        g.deck.remove(option)
        g.players[seat].hand.append(option)
        ev.append(EVENT("lighthouse", seat=seat, card=option, count=1, private=[seat]))
    rng = Rng(g.rng)
    rng.shuffle(g.deck)  # the deck is shuffled after the search
    g.rng = rng.state
