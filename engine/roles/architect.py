"""Architect (rank 7): gains 2 extra cards (any time, once); build limit 3."""

from __future__ import annotations

from .. import deck
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


class Architect(Role):
    name = "Architect"
    build_limit = 3

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        return [] if self.name in t.used or not g.deck else [ABILITY(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        got = deck.gain_cards(g, cmd.seat, 2)
        ev.append(
            EVENT("extra_cards", seat=cmd.seat, character=self.name, count=len(got), cards=got, private=[cmd.seat])
        )


role(Architect)
