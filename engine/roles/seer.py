"""Seer (rank 3): takes one random card from every other player who has cards,
then gives one card from his hand back to each of them (any card: the same one,
another player's, or one of his own). Build limit 2.

Flow: `Ability(Seer)` takes the cards (through the game's generator), then one
`SelectCards` "Seer" (one card) per player taken from, in seat order from the
Seer's left; the player served next is announced by a `seer_give_to` event and
the players still owed a card are the turn's `SeerDebts`.

Events (kinds):
- `seer_took`: seat (the Seer) takes a random `card` from `player` (card private to both).
- `seer_give_to`: seat (the Seer) now chooses the card to give to `player` (public).
- `seer_gave`: seat gives `card` to `player` (card private to both).
"""

from __future__ import annotations

from msgspec import field

from ..cardstate import TurnScoped
from ..commands import Ability
from ..decisions import SelectCards
from ..events import Event
from ..hooks import Events, Role, role, select
from ..rng import Rng
from ..state import GameState, Turn, current_turn


class SeerDebts(TurnScoped):
    """The players the Seer took a card from and still owes one, in order from his left."""

    owed: list[int] = field(default_factory=list)


def _left_of(g: GameState, seat: int) -> list[int]:
    n = len(g.players)
    return [(seat + i) % n for i in range(1, n)]


class Seer(Role):
    name = "Seer"
    build_limit = 2

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used or not any(g.players[s].hand for s in _left_of(g, t.seat)):
            return []
        return [Ability(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        rng = Rng(g.rng)
        me = g.players[cmd.seat]
        owed = []
        for s in _left_of(g, cmd.seat):
            hand = g.players[s].hand
            if not hand:
                continue  # nothing taken, nothing given back
            card = hand.pop(rng.below(len(hand)))
            me.hand.append(card)
            owed.append(s)
            ev.append(Event("seer_took", seat=cmd.seat, player=s, card=card, count=1, private=[cmd.seat, s]))
        g.rng = rng.state
        SeerDebts(owed=owed).put(t)
        _ask(g, cmd.seat, ev)

    def why(self, g: GameState, cmd: Ability) -> str | None:
        return "No other player has cards." if not any(g.players[s].hand for s in _left_of(g, cmd.seat)) else None


role(Seer)


def _ask(g: GameState, seat: int, ev: Events) -> None:
    assert g.turn is not None
    debts = SeerDebts.get(g.turn)
    if debts is None or not debts.owed:
        SeerDebts.drop(g.turn)
        return
    ev.append(Event("seer_give_to", seat=seat, player=debts.owed[0]))
    g.pending = SelectCards(seat, purpose="Seer", min=1, max=1)


@select("Seer")
def give(g: GameState, seat: int, cards: list[str], ev: Events) -> None:
    t = current_turn(g)
    debts = SeerDebts.of(t)
    to = debts.owed.pop(0)
    card = cards[0]
    g.players[seat].hand.remove(card)
    g.players[to].hand.append(card)
    ev.append(Event("seer_gave", seat=seat, player=to, card=card, count=1, private=[seat, to]))
    _ask(g, seat, ev)
