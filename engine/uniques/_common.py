"""Shared helpers for the unique districts (not a card: skipped by the auto-import)."""

from __future__ import annotations

from .. import deck
from ..build import remove_district
from ..hooks import ScoreCtx
from ..scoring import type_at_end
from ..state import Built, GameState, Turn
from ..turn import district_effect_refusal


def may_act(g: GameState, t: Turn, name: str) -> bool:
    """A "once per turn, in your own turn" district effect may be used now (turn.district_effect_refusal)."""
    return district_effect_refusal(g, t, name) is None


def destroy(g: GameState, seat: int, name: str) -> Built:
    """Take a district out of a city and put it, with any cards under it (Museum), face
    down at the bottom of the deck."""
    b = remove_district(g, seat, name)
    deck.to_bottom(g, [b.name] + list(b.under))
    return b


def uniques_in_city(g: GameState, seat: int, ctx: ScoreCtx) -> int:
    """Districts of the city that count as unique at game end."""
    return sum(1 for b in g.players[seat].city if type_at_end(b.name, ctx) == "unique")
