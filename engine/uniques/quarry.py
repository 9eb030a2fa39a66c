"""Quarry (5): you may build districts identical to ones already in your city (any
number of them).

Only for building: the Magistrate, Diplomat and Marshal still may not take a
district identical to one in their city (rulebook clarification). Their modules
check names directly and never ask `build.may_duplicate`, which is the only
place this hook is read.
"""
from __future__ import annotations

from ..hooks import Unique, unique


@unique
class Quarry(Unique):
    name = "Quarry"

    def allows_duplicates(self, g, seat):
        return True
