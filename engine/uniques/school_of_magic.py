"""School of Magic (6): for income abilities, counts as the district type of your choice.

Since it can only ever add one to the count being asked for, it counts toward
every income type (the Abbot then gains one of either resource).
"""

from __future__ import annotations

from ..hooks import Unique, unique


class SchoolOfMagic(Unique):
    name = "School of Magic"

    def income_wildcard(self) -> bool:
        return True


unique(SchoolOfMagic)
