"""Artist (rank 9): may beautify up to two of his districts, putting 1 gold from his
stash on each: its cost rises by 1 for good (it scores 1 more; the rank-8
characters' prices follow, city.value). A district is beautified only once.

Each beautification is one Ability(district=...) (at any time of the turn), at
most two per turn (the turn's `Beautified`). With identical districts (Quarry) the
first one not yet beautified is chosen. The gold leaves the stash for good.

Events: beautified (district, gold=1).
"""

from __future__ import annotations

from typing import Final

from ..cardstate import TurnScoped
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn

MAX_PER_TURN: Final = 2


class Beautified(TurnScoped):
    """Districts beautified this turn."""

    count: int = 0


def _count(t: Turn) -> int:
    b = Beautified.get(t)
    return b.count if b is not None else 0


class Artist(Role):
    name = "Artist"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        p = g.players[t.seat]
        if _count(t) >= MAX_PER_TURN or p.gold < 1:
            return []
        names = dict.fromkeys(b.name for b in p.city if not b.beautified)
        return [ABILITY(t.seat, self.name, district=n) for n in names]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        done = Beautified.of(t)
        done.count += 1
        if done.count >= MAX_PER_TURN:
            t.used.append(self.name)
        p = g.players[cmd.seat]
        b = next(b for b in p.city if b.name == cmd.district and not b.beautified)
        b.beautified = True
        p.gold -= 1
        ev.append(EVENT("beautified", seat=cmd.seat, character=self.name, district=b.name, gold=1))

    def why(self, g: GameState, cmd: Ability) -> str | None:
        t = g.turn
        if t is not None and _count(t) >= MAX_PER_TURN:
            return "The Artist beautifies at most two districts a turn."
        if g.players[cmd.seat].gold < 1:
            return "Beautifying costs 1 gold from your stash."
        p = g.players[cmd.seat]
        if not any(b.name == cmd.district for b in p.city):
            return "Beautify a district of your own city."
        return "That district is already beautified: a district is beautified only once."


role(Artist)
