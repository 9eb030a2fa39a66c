"""Seer (rank 3): takes one random card from every other player who has cards,
then gives one card from his hand back to each of them (any card: the same one,
another player's, or one of his own). Build limit 2.

Flow: `Ability(Seer)` takes the cards (through the game's generator), then one
`SelectCards` "Seer" (one card) per player taken from, in seat order from the
Seer's left; the player served next is announced by a `seer_give_to` event and
kept in `Turn.extra` (a bit mask of the players still owed a card).

Events (kinds):
- `seer_took`: seat (the Seer) takes a random `card` from `player` (card private to both).
- `seer_give_to`: seat (the Seer) now chooses the card to give to `player` (public).
- `seer_gave`: seat gives `card` to `player` (card private to both).
"""

from __future__ import annotations

from ..commands import Ability
from ..decisions import SelectCards
from ..events import Event
from ..hooks import Role, role, select
from ..rng import Rng

OWED = "Seer.owed"


def _left_of(g, seat: int) -> list[int]:
    n = len(g.players)
    return [(seat + i) % n for i in range(1, n)]


@role
class Seer(Role):
    name = "Seer"
    build_limit = 2

    def abilities(self, g, t):
        if self.name in t.used or not any(g.players[s].hand for s in _left_of(g, t.seat)):
            return []
        return [Ability(t.seat, self.name)]

    def act(self, g, cmd, ev):
        t = g.turn
        t.used.append(self.name)
        rng = Rng(g.rng)
        me = g.players[cmd.seat]
        owed = 0
        for s in _left_of(g, cmd.seat):
            hand = g.players[s].hand
            if not hand:
                continue  # nothing taken, nothing given back
            card = hand.pop(rng.below(len(hand)))
            me.hand.append(card)
            owed |= 1 << s
            ev.append(Event("seer_took", seat=cmd.seat, player=s, card=card, count=1, private=[cmd.seat, s]))
        g.rng = rng.state
        t.extra[OWED] = owed
        _ask(g, cmd.seat, ev)

    def why(self, g, cmd):
        return "No other player has cards." if not any(g.players[s].hand for s in _left_of(g, cmd.seat)) else None


def _next(g, seat: int, owed: int) -> int:
    return next(s for s in _left_of(g, seat) if owed >> s & 1)


def _ask(g, seat: int, ev) -> None:
    owed = g.turn.extra[OWED]
    if not owed:
        del g.turn.extra[OWED]
        return
    ev.append(Event("seer_give_to", seat=seat, player=_next(g, seat, owed)))
    g.pending = SelectCards(seat, purpose="Seer", min=1, max=1)


@select("Seer")
def give(g, seat, cards, ev):
    t = g.turn
    to = _next(g, seat, t.extra[OWED])
    t.extra[OWED] &= ~(1 << to)
    card = cards[0]
    g.players[seat].hand.remove(card)
    g.players[to].hand.append(card)
    ev.append(Event("seer_gave", seat=seat, player=to, card=card, count=1, private=[seat, to]))
    _ask(g, seat, ev)
