"""Secret Vault (no cost): can never be built. At game end, reveal it from your hand
for 3 extra points.

Revealing never costs anything (it stays in the hand, so a Map Room still
counts it), so the engine always reveals it: there is no choice to offer.
"""

from __future__ import annotations

from ..hooks import ScoreCtx, Unique, unique
from ..state import GameState


class SecretVault(Unique):
    name = "Secret Vault"

    def can_build(self, g: GameState, seat: int) -> bool:
        return False

    def score_from_hand(self, g: GameState, seat: int, ctx: ScoreCtx) -> int:
        return 3


unique(SecretVault)
