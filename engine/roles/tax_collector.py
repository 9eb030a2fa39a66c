"""Tax Collector (rank 9): while he is in the line-up (even not picked, discarded
face up or down, or killed), right after a district enters a player's city by
being built, that player puts 1 gold from their stash on the Tax Collector's
token (g.tax), if they have any gold left; once per district, even one not paid
for (Framework, Necropolis). The Tax Collector does not pay during his own turn;
in 2-3 player games his player still pays for his other character's builds.
A Magistrate's confiscation taxes the Magistrate (the district enters the
Magistrate's city: build.place calls after_build with the Magistrate's seat).
The token carries over rounds. During his turn (once, at any time) he may take
all the gold on the token.

Districts moved by the Diplomat, the Marshal or destroyed are not built: no tax.

Events: taxed (seat paid 1 gold), tax_collected (gold).
"""
from __future__ import annotations

from ..commands import Ability
from ..events import Event
from ..hooks import Role, role


@role
class TaxCollector(Role):
    name = "Tax Collector"

    def after_build(self, g, seat, district, ev):
        t = g.turn
        if t is not None and t.character == self.name and t.seat == seat:
            return  # the Tax Collector does not pay the tax in his own turn
        p = g.players[seat]
        if p.gold <= 0:
            return
        p.gold -= 1
        g.tax += 1
        ev.append(Event("taxed", seat=seat, district=district, gold=1, character=self.name))

    def abilities(self, g, t):
        if self.name in t.used or g.tax <= 0:
            return []
        return [Ability(t.seat, self.name)]

    def act(self, g, cmd, ev):
        g.turn.used.append(self.name)
        gold, g.tax = g.tax, 0
        g.players[cmd.seat].gold += gold
        ev.append(Event("tax_collected", seat=cmd.seat, character=self.name, gold=gold))

    def why(self, g, cmd):
        if g.tax <= 0:
            return "There is no gold on the Tax Collector's token."
        return None
