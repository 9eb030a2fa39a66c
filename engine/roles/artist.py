"""Artist (rank 9): may beautify up to two of his districts, putting 1 gold from his
stash on each: its cost rises by 1 for good (it scores 1 more; the rank-8
characters' prices follow, city.value). A district is beautified only once.

Each beautification is one Ability(district=...) (at any time of the turn), at
most two per turn (turn.extra["Artist"]). With identical districts (Quarry) the
first one not yet beautified is chosen. The gold leaves the stash for good.

Events: beautified (district, gold=1).
"""

from __future__ import annotations

from ..commands import Ability
from ..events import Event
from ..hooks import Role, role


@role
class Artist(Role):
    name = "Artist"

    def abilities(self, g, t):
        p = g.players[t.seat]
        if t.extra.get(self.name, 0) >= 2 or p.gold < 1:
            return []
        names = dict.fromkeys(b.name for b in p.city if not b.beautified)
        return [Ability(t.seat, self.name, district=n) for n in names]

    def act(self, g, cmd, ev):
        t = g.turn
        t.extra[self.name] = t.extra.get(self.name, 0) + 1
        if t.extra[self.name] >= 2:
            t.used.append(self.name)
        p = g.players[cmd.seat]
        b = next(b for b in p.city if b.name == cmd.district and not b.beautified)
        b.beautified = True
        p.gold -= 1
        ev.append(Event("beautified", seat=cmd.seat, character=self.name, district=b.name, gold=1))

    def why(self, g, cmd):
        t = g.turn
        if t.extra.get(self.name, 0) >= 2:
            return "The Artist beautifies at most two districts a turn."
        if g.players[cmd.seat].gold < 1:
            return "Beautifying costs 1 gold from your stash."
        p = g.players[cmd.seat]
        if not any(b.name == cmd.district for b in p.city):
            return "Beautify a district of your own city."
        return "That district is already beautified: a district is beautified only once."
