"""Assassin (rank 1): names another character, who skips its whole turn silently.

2000 rules (RuleSet.reveal_killed): the victim reveals only at round end (the flow
does it); the Plague passes between the Assassin and the victim's player then
(`hooks.contact`), never earlier, so the token tells nothing before the reveal.
"""

from __future__ import annotations

from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, contact, role
from ..state import GameState, Turn
from ._targets import nameable


class Assassin(Role):
    name = "Assassin"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        return [ABILITY(t.seat, self.name, character=c) for c in nameable(g, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        g.markers.killed = cmd.character
        ev.append(EVENT("killed", seat=cmd.seat, character=cmd.character))

    def on_killed_revealed(self, g: GameState, seat: int, ev: Events) -> None:
        contact(g, g.holders.get(self.name), seat, self.name, ev)


role(Assassin)
