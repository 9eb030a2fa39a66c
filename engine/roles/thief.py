"""Thief (rank 2): names a character to rob; when it is revealed, takes all its player's gold.

Not the rank-1 character, the killed one or the bewitched one. Bewitched, the
Witch names the character and receives the gold (the robbing seat is the
round's `Robbery.by`). The Plague (2000 variant) passes between the Thief and the robbed
player at the robbery (`hooks.contact`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..cardstate import RoundScoped
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, contact, role
from ..state import GameState, Turn
from ._targets import nameable
from .witch import bewitched

if TYPE_CHECKING:
    from ..view import View


class Robbery(RoundScoped):
    """The character named this round (public) and the seat that robs (None: the Thief's holder)."""

    character: str
    by: int | None = None

    def show(self, g: GameState, seat: int | None, v: View, everything: bool) -> None:
        v.markers.robbed = self.character


class Thief(Role):
    name = "Thief"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        killed, witched = g.markers.killed, bewitched(g)
        return [
            ABILITY(t.seat, self.name, character=c)
            for c in nameable(g, self.name, min_rank=2)
            if c != killed and c != witched
        ]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.character is not None
        t.used.append(self.name)
        Robbery(character=cmd.character, by=cmd.seat).put(g)  # the Witch, when she resumes as a bewitched Thief
        ev.append(EVENT("robbed", seat=cmd.seat, character=cmd.character))

    def on_any_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        r = Robbery.get(g) if g.cards else None  # no call at most reveals: no card keeps a state
        if r is None or r.character != t.character or t.resumed:
            return
        thief = r.by if r.by is not None else g.holders.get(self.name)
        if thief is None:
            return
        victim = g.players[t.seat]
        gold = victim.gold
        victim.gold = 0
        g.players[thief].gold += gold
        ev.append(EVENT("stole", seat=thief, player=t.seat, character=t.character, gold=gold))
        contact(g, thief, t.seat, self.name, ev)

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        if view.markers.robbed:
            Robbery(character=view.markers.robbed).put(g)


role(Thief)
