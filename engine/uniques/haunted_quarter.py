"""Haunted Quarter (2): at game end, counts as the district type of your choice (for
the five-types bonus, the Capitol...). Counted as another type, it is no longer
unique (for the Ivory Tower, the Wishing Well, the Capitol).

The choice is made for the player so as to maximise their score (scoring tries
every option; "unique", the printed type, first, so it stays when nothing is gained).

2000 edition ("Haunted City"): not if it was built in the last round (the round the
game ends in); the round it was built is kept in `g.flags["Haunted Quarter.round"]`.
"""

from __future__ import annotations

from ..cards.districts import TYPES
from ..hooks import Unique, unique

BUILT = "Haunted Quarter.round"


@unique
class HauntedQuarter(Unique):
    name = "Haunted Quarter"

    def on_built(self, g, seat, ev):
        g.flags[BUILT] = g.round

    def score_options(self, g, seat):
        if not any(b.name == self.name for b in g.players[seat].city):
            return []
        if g.rules.edition == "2000" and g.flags.get(BUILT) == g.round:
            return []  # the Haunted City built in the last round keeps its printed type
        order = ["unique"] + [t for t in TYPES if t != "unique"]
        return [{"type:" + self.name: t} for t in order]
