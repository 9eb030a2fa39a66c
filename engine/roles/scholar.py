"""Scholar (rank 7): draws 7 cards from the deck, keeps 1 and shuffles the other 6
back into the deck (once, at any time of the turn); build limit 2.

The 7 cards wait in `turn.drawn` while the Scholar chooses (SelectCards with
source "drawn", purpose "Scholar"): nothing else can happen meanwhile.
With fewer than 7 cards in the deck he draws what there is.

Events: scholar_drew (count, cards private), scholar_kept (card private, count = cards shuffled back).
"""

from __future__ import annotations

from .. import deck
from ..commands import Ability
from ..finals import ABILITY, EVENT, SELECT_CARDS
from ..hooks import Events, Role, role, select
from ..state import GameState, Turn, current_turn


class Scholar(Role):
    name = "Scholar"
    build_limit = 2

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used or not g.deck or t.drawn:
            return []
        return [ABILITY(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        t.drawn = deck.draw(g, 7)
        ev.append(
            EVENT(
                "scholar_drew",
                seat=cmd.seat,
                character=self.name,
                count=len(t.drawn),
                cards=list(t.drawn),
                private=[cmd.seat],
            )
        )
        g.pending = SELECT_CARDS(cmd.seat, purpose=self.name, min=1, max=1, source="drawn")

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if not g.deck:
            return "The district deck is empty."
        return None


role(Scholar)


@select("Scholar")
def keep_one(g: GameState, seat: int, cards: list[str], ev: Events) -> None:
    t = current_turn(g)
    card = cards[0]
    t.drawn.remove(card)
    g.players[seat].hand.append(card)
    rest, t.drawn = t.drawn, []
    deck.shuffle_in(g, rest)
    ev.append(EVENT("scholar_kept", seat=seat, character="Scholar", card=card, count=len(rest), private=[seat]))
