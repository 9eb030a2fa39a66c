"""Necropolis (5): you may build the Necropolis by destroying one district of your
city (to the deck bottom, with any cards under a Museum) instead of paying.

Built that way it was not paid for: the Magistrate cannot confiscate it (he may
confiscate the next district paid for). Paid with gold, it is an ordinary build.
Command: Build(district="Necropolis", via="Necropolis", using=<your district>).
Events: "sacrificed" (seat, district=<the one destroyed>, option="Necropolis"),
then "built".
"""

from __future__ import annotations

from ..commands import Build
from ..finals import BUILD, EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn
from ._common import destroy


class Necropolis(Unique):
    name = "Necropolis"

    def build_options(self, g: GameState, t: Turn, district: str, cost: int, in_city: bool) -> list[Build]:
        if in_city or district != self.name:
            return []
        names = dict.fromkeys(b.name for b in g.players[t.seat].city)
        return [BUILD(t.seat, self.name, via=self.name, using=n) for n in names]

    def build_is_paid(self) -> bool:
        return False

    def pay(self, g: GameState, t: Turn, cmd: Build, cost: int, ev: Events) -> int | None:
        assert cmd.using is not None
        destroy(g, t.seat, cmd.using)
        ev.append(EVENT("sacrificed", seat=t.seat, district=cmd.using, option=self.name))
        return 0


unique(Necropolis)
