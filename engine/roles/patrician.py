"""Patrician (rank 4): 1 card per noble district (income, see the data table); takes
the crown when revealed (even when bewitched); killed, takes it at round end as heir.

The Spanish rulebook (000) says gold per noble district; the Portuguese (002) and
English rulebooks say one card: we use cards (engine/cards/characters.py).
"""

from __future__ import annotations

from ..hooks import role
from .king import CrownTaker


class Patrician(CrownTaker):
    name = "Patrician"


role(Patrician)
