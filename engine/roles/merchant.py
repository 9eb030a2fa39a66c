"""Merchant (rank 6): gold per trade district; gains 1 extra gold (any time, once)."""

from __future__ import annotations

from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


class Merchant(Role):
    name = "Merchant"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        return [] if self.name in t.used else [ABILITY(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        g.players[cmd.seat].gold += 1
        ev.append(EVENT("extra_gold", seat=cmd.seat, character=self.name, gold=1))


role(Merchant)
