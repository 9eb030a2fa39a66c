"""Shared target lists for abilities that name a character or a player."""

from __future__ import annotations

from ..cards.characters import RANK
from ..state import GameState


def nameable(g: GameState, me: str, min_rank: int = 1) -> list[str]:
    """Characters that may be named: in the line-up, not this one, not discarded face up."""
    faceup = g.selection.faceup
    return [c for c in g.lineup if c != me and c not in faceup and RANK[c] >= min_rank]


def others(g: GameState, seat: int) -> list[int]:
    return [s for s in range(len(g.players)) if s != seat]
