"""Navigator (rank 7): gains 4 cards or 4 gold, whatever he gathered (an ability:
once, at any time of the turn); cannot build any district this turn, not even
those that do not count toward the limit.

Events: extra_gold (gold), extra_cards (count, cards private to the Navigator).
"""

from __future__ import annotations

from .. import deck
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


class Navigator(Role):
    name = "Navigator"
    can_build = False  # build.options and build.why_not ask this

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        out = [ABILITY(t.seat, self.name, option="gold")]
        if g.deck:
            out.append(ABILITY(t.seat, self.name, option="cards"))
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        if cmd.option == "gold":
            g.players[cmd.seat].gold += 4
            ev.append(EVENT("extra_gold", seat=cmd.seat, character=self.name, gold=4))
        else:
            got = deck.gain_cards(g, cmd.seat, 4)  # fewer if the deck runs out
            ev.append(
                EVENT("extra_cards", seat=cmd.seat, character=self.name, count=len(got), cards=got, private=[cmd.seat])
            )


role(Navigator)
