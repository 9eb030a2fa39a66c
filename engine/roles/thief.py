"""Thief (rank 2): names a character to rob; when it is revealed, takes all its player's gold.

Not the rank-1 character, the killed one or the bewitched one. Bewitched, the
Witch names the character and receives the gold (the robbing seat is kept in
`g.flags["robber"]`). The Plague (2000 variant) passes between the Thief and the robbed
player at the robbery (`hooks.contact`).
"""

from __future__ import annotations

from ..commands import Ability
from ..events import Event
from ..hooks import Role, contact, role
from ._targets import nameable


@role
class Thief(Role):
    name = "Thief"

    def abilities(self, g, t):
        if self.name in t.used:
            return []
        m = g.markers
        return [
            Ability(t.seat, self.name, character=c)
            for c in nameable(g, self.name, min_rank=2)
            if c != m.killed and c != m.bewitched
        ]

    def act(self, g, cmd, ev):
        g.turn.used.append(self.name)
        g.markers.robbed = cmd.character
        g.flags["robber"] = cmd.seat  # the Witch, when she resumes as a bewitched Thief
        ev.append(Event("robbed", seat=cmd.seat, character=cmd.character))

    def on_any_reveal(self, g, t, ev):
        if g.markers.robbed != t.character or t.resumed:
            return
        thief = g.flags.get("robber", g.holders.get(self.name))
        if thief is None:
            return
        victim = g.players[t.seat]
        gold = victim.gold
        victim.gold = 0
        g.players[thief].gold += gold
        ev.append(Event("stole", seat=thief, player=t.seat, character=t.character, gold=gold))
        contact(g, thief, t.seat, self.name, ev)
