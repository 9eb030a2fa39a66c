"""Library (6): when you gather resources by drawing cards, keep all the cards drawn.

With the Observatory, the three cards drawn are all kept. A gathering-time
effect (works for a bewitched or threatened player too). It does not touch
other draws (the Scholar's seven, the Architect's extra cards are gained).
"""
from __future__ import annotations

from ..hooks import Unique, unique


@unique
class Library(Unique):
    name = "Library"

    def keep_all(self, g, seat):
        return True
