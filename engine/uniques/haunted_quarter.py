"""Haunted Quarter (2): at game end, counts as the district type of your choice (for
the five-types bonus, the Capitol...). Counted as another type, it is no longer
unique (for the Ivory Tower, the Wishing Well, the Capitol).

The choice is made for the player so as to maximise their score (scoring tries
every option; "unique", the printed type, first, so it stays when nothing is gained).
"""
from __future__ import annotations

from ..cards.districts import TYPES
from ..hooks import Unique, unique


@unique
class HauntedQuarter(Unique):
    name = "Haunted Quarter"

    def score_options(self, g, seat):
        if not any(b.name == self.name for b in g.players[seat].city):
            return []
        order = ["unique"] + [t for t in TYPES if t != "unique"]
        return [{"type:" + self.name: t} for t in order]
