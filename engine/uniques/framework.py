"""Framework (3): you may build a district by destroying the Framework (to the deck
bottom) instead of paying its cost.

Any district you could otherwise build now (limit, duplicates, the Monument's
rule still apply), even one you could afford. Not paying, so the Magistrate
cannot confiscate it (he may confiscate the next district paid for); the Tax
Collector's tax is still due (a district built, even unpaid).
Command: Build(district=<name>, via="Framework"). Events: "sacrificed" (seat,
district="Framework", option=<the district built>), then "built".
"""

from __future__ import annotations

from ..commands import Build
from ..finals import BUILD, EVENT
from ..hooks import Events, Unique, unique
from ..state import GameState, Turn
from ._common import destroy


class Framework(Unique):
    name = "Framework"

    def build_options(self, g: GameState, t: Turn, district: str, cost: int, in_city: bool) -> list[Build]:
        return [BUILD(t.seat, district, via=self.name)] if in_city else []

    def build_is_paid(self) -> bool:
        return False

    def pay(self, g: GameState, t: Turn, cmd: Build, cost: int, ev: Events) -> int | None:
        destroy(g, t.seat, self.name)
        ev.append(EVENT("sacrificed", seat=t.seat, district=self.name, option=cmd.district))
        return 0


unique(Framework)
