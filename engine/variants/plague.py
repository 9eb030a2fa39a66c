"""The Plague (`004_...`, "Ulteriore Opzione - La Peste"), for the 2000 rule sets.

One plague token, held like the crown (`g.flags["plague"]`: the sick seat; public,
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

from .. import deck
from ..decisions import Choice, PlayTurn
from ..events import Event
from ..hooks import Variant, choice, variant
from ..rng import Rng

CAUGHT = "Plague.caught"


@variant
class Plague(Variant):
    name = "plague"

    def start(self, g, ev):
        rng = Rng(g.rng)
        g.flags["plague"] = rng.below(len(g.players))
        g.rng = rng.state
        ev.append(Event("plague_started", seat=g.flags["plague"]))

    def turn_start(self, g, t, ev):
        if g.flags.get("plague") != t.seat or t.resumed or t.extra.get(CAUGHT):
            return
        hand = g.players[t.seat].hand
        if hand and isinstance(g.pending, PlayTurn):
            g.pending = Choice(t.seat, self.name, list(dict.fromkeys(hand)))

    def contact(self, g, a, b, by, ev):
        sick = g.flags.get("plague")
        if sick == a:
            new = b
        elif sick == b:
            new = a
        else:
            return
        g.flags["plague"] = new
        if g.turn is not None and g.turn.seat == new:
            g.turn.extra[CAUGHT] = 1  # from his following turn on
        ev.append(Event("plague_passed", seat=new, player=sick, character=by))


@choice("plague")
def discard(g, seat, option, ev):
    g.players[seat].hand.remove(option)
    deck.to_bottom(g, [option])
    ev.append(Event("plague_discard", seat=seat, card=option, count=1, private=[seat]))
