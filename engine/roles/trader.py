"""Trader (rank 6): 1 gold per trade district (income, see the data table); trade
districts do not count toward the build limit this turn, so he may build any
number of them besides his limit."""

from __future__ import annotations

from ..city import dtype
from ..hooks import Role, role
from ..state import GameState, Turn


class Trader(Role):
    name = "Trader"

    def exempt_from_limit(self, g: GameState, t: Turn, district: str) -> bool:
        return dtype(district) == "trade"


role(Trader)
