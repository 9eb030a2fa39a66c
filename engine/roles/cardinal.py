"""Cardinal (rank 5): 1 card per religious district (income, see the data table).

To build a district he cannot afford, he may take the missing gold (never more)
from ONE other player, who cannot refuse, giving that player one card from his
hand per gold taken; he must then build that district.

This is one more way to build (build.options asks build_options): a
Build(district, via="Cardinal", player=target), offered only when his gold is
short, the target has at least the missing gold, and he holds enough other
cards. The build then waits for a SelectCards (purpose "Cardinal", exactly the
missing number of cards, one copy of the district reserved) and, on Confirm,
the gold moves, the cards move, he pays the whole cost and the district is
built (build.finish_build: limit, Magistrate, tax as any paid build). There is
no way back once the Build is sent: he must build it.

The pending build is the turn's `CardinalLoan` (district, lender).

Events: cardinal_borrowed (seat, player, gold = gold taken, count = cards given,
cards private to both players).
"""

from __future__ import annotations

from ..build import cost_for, finish_build
from ..cardstate import TurnScoped
from ..commands import Build
from ..finals import BUILD, EVENT, SELECT_CARDS
from ..hooks import Events, Role, role, select
from ..state import GameState, Turn, current_turn


class CardinalLoan(TurnScoped):
    """The district he must build and the player who lends him the missing gold."""

    district: str
    lender: int


class Cardinal(Role):
    name = "Cardinal"

    def build_options(self, g: GameState, t: Turn, district: str, cost: int) -> list[Build]:
        p = g.players[t.seat]
        missing = cost - p.gold
        if missing <= 0 or len(p.hand) - 1 < missing:
            return []
        return [
            BUILD(t.seat, district, via=self.name, player=s)
            for s, q in enumerate(g.players)
            if s != t.seat and q.gold >= missing
        ]

    def pay(self, g: GameState, t: Turn, cmd: Build, cost: int, ev: Events) -> int | None:
        assert cmd.player is not None
        missing = cost - g.players[t.seat].gold
        CardinalLoan(district=cmd.district, lender=cmd.player).put(t)
        g.pending = SELECT_CARDS(t.seat, purpose=self.name, min=missing, max=missing, reserved=[cmd.district])
        return None  # the build finishes once the cards to give are chosen


role(Cardinal)


@select("Cardinal")
def give_cards(g: GameState, seat: int, cards: list[str], ev: Events) -> None:
    t = current_turn(g)
    loan = CardinalLoan.drop(t)
    assert loan is not None
    target, district = loan.lender, loan.district
    me, them = g.players[seat], g.players[target]
    n = len(cards)
    them.gold -= n
    me.gold += n
    for c in cards:
        me.hand.remove(c)
    them.hand.extend(cards)
    ev.append(
        EVENT("cardinal_borrowed", seat=seat, player=target, gold=n, count=n, cards=list(cards), private=[seat, target])
    )
    cost = cost_for(g, seat, district)
    me.gold -= cost
    finish_build(g, t, district, cost, "Cardinal", ev)
