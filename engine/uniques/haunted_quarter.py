"""Haunted Quarter (2): at game end, counts as the district type of your choice (for
the five-types bonus, the Capitol...). Counted as another type, it is no longer
unique (for the Ivory Tower, the Wishing Well, the Capitol).

The choice is made for the player so as to maximise their score (scoring tries
every option; "unique", the printed type, first, so it stays when nothing is gained).

2000 edition ("Haunted City"): not if it was built in the last round (the round the
game ends in); the round it was built is the game's `HauntedBuilt`.
"""

from __future__ import annotations

from ..cards.districts import TYPES
from ..cardstate import GameScoped
from ..hooks import Events, ScoreCtx, Unique, unique
from ..state import GameState


class HauntedBuilt(GameScoped):
    """2000: the round the Haunted City was built in."""

    round: int


class HauntedQuarter(Unique):
    name = "Haunted Quarter"

    def on_built(self, g: GameState, seat: int, ev: Events) -> None:
        HauntedBuilt(round=g.round).put(g)

    def score_options(self, g: GameState, seat: int) -> list[ScoreCtx]:
        if not any(b.name == self.name for b in g.players[seat].city):
            return []
        built = HauntedBuilt.get(g)
        if g.rules.edition == "2000" and built is not None and built.round == g.round:
            return []  # the Haunted City built in the last round keeps its printed type
        order = ["unique"] + [t for t in TYPES if t != "unique"]
        return [{"type:" + self.name: t} for t in order]


unique(HauntedQuarter)
