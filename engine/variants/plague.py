"""The Plague (`004_...`, "Ulteriore Opzione - La Peste"), for the 2000 rule sets.

One plague token, held like the crown (the game's `Sick`: the sick seat; public,
`View.plague`). It passes from the sick player (who is cured) to the healthy one
whenever the two interact through the Assassin (killing), the Thief (robbing), the
Tax Collector (taxing), the Warlord (destroying) or the Diplomat (exchanging): the
cards report each interaction through `hooks.contact`. Acting on oneself (the
Warlord destroying his own district) passes nothing.

At the start of each of his turns, the sick player must first discard one card of
his choice from his hand (face down to the deck bottom), before gathering.

Open points decided (docs/rules.md, "Older editions"):
- The first sick player is drawn at random (the game's generator) when the game is set up.
- A killing is an interaction when the victim is revealed at round end (2000: the
  killed character reveals only then), so the token never tells who held it earlier;
  an unpicked or face-down victim passes nothing.
- "From the following turn": a player who catches the plague during a turn (the
  robbed player at his reveal, the Warlord who destroys) does not discard in that
  turn; he does from his next turn on (in 2-3 player games, his other character's
  turn the same round counts).
- With an empty hand there is nothing to discard; he stays sick.
- The Witch resuming as a bewitched character and a killed player gathering through
  the Hospital are not turn starts (no discard).

Decision: Choice(about "Plague", options = the distinct cards of the sick player's hand).
Events: plague_started (seat), plague_passed (seat = the newly sick, player = the cured,
character = the card that acted), plague_discard (seat, card private to the seat).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .. import deck
from ..cardstate import GameScoped, TurnScoped
from ..finals import CHOICE, EVENT, PLAY_TURN
from ..hooks import Events, Variant, choice, variant
from ..rng import Rng
from ..state import GameState, Turn

if TYPE_CHECKING:
    from ..view import View


class Sick(GameScoped):
    """The seat holding the plague token (public)."""

    seat: int

    def show(self, g: GameState, seat: int | None, v: View, everything: bool) -> None:
        v.plague = self.seat


class Caught(TurnScoped):
    """The player of this turn caught the plague during it: he discards from his next turn on."""


def sick_seat(g: GameState) -> int | None:
    s = Sick.get(g)
    return s.seat if s is not None else None


class Plague(Variant):
    name = "plague"

    def start(self, g: GameState, ev: Events) -> None:
        rng = Rng(g.rng)
        sick = Sick(seat=rng.below(len(g.players))).put(g)
        g.rng = rng.state
        ev.append(EVENT("plague_started", seat=sick.seat))

    def turn_start(self, g: GameState, t: Turn, ev: Events) -> None:
        if sick_seat(g) != t.seat or t.resumed or Caught.get(t) is not None:
            return
        hand = g.players[t.seat].hand
        if hand and isinstance(g.pending, PLAY_TURN):
            g.pending = CHOICE(t.seat, self.name, list(dict.fromkeys(hand)))

    def contact(self, g: GameState, a: int, b: int, by: str, ev: Events) -> None:
        sick = sick_seat(g)
        if sick == a:
            new = b
        elif sick == b:
            new = a
        else:
            return
        Sick(seat=new).put(g)
        if g.turn is not None and g.turn.seat == new:
            Caught().put(g.turn)  # from his following turn on
        ev.append(EVENT("plague_passed", seat=new, player=sick, character=by))

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        if view.plague is not None:
            Sick(seat=view.plague).put(g)


variant(Plague)


@choice("plague")
def discard(g: GameState, seat: int, option: str, ev: Events) -> None:
    g.players[seat].hand.remove(option)
    deck.to_bottom(g, [option])
    ev.append(EVENT("plague_discard", seat=seat, card=option, count=1, private=[seat]))
