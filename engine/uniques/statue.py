"""Statue (3): at game end, 5 extra points if you hold the crown."""

from __future__ import annotations

from ..hooks import Unique, unique


@unique
class Statue(Unique):
    name = "Statue"

    def score(self, g, seat, ctx):
        return 5 if g.crown == seat else 0
