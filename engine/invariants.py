"""Invariants every state must satisfy; the simulator and property tests check them."""

from __future__ import annotations

from collections import Counter

from .cards.districts import base_deck
from .state import GameState


def all_cards(g: GameState) -> Counter[str]:
    cards = list(g.deck)
    for p in g.players:
        cards += p.hand
        for b in p.city:
            cards.append(b.name)
            cards += b.under
    if g.turn is not None:
        cards += g.turn.drawn
        cards += g.turn.aside
    return Counter(cards)


def expected_cards(g: GameState) -> Counter[str]:
    return Counter(base_deck() + list(g.uniques))


def check(g: GameState, expected: Counter[str] | None = None) -> list[str]:
    """Return the broken invariants (empty when all hold)."""
    bad = []
    exp = expected if expected is not None else expected_cards(g)
    # dict's own comparison: a Counter's (Python code) is slower, and neither holds a zero count
    if exp and not dict.__eq__(all_cards(g), exp):
        diff = (all_cards(g) - exp) + (exp - all_cards(g))
        bad.append(f"cards not conserved: {dict(diff)}")
    for p in g.players:
        if p.gold < 0:
            bad.append(f"{p.name} has negative gold ({p.gold})")
    if not 0 <= g.crown < len(g.players):
        bad.append(f"crown at an invalid seat {g.crown}")
    if g.tax < 0:
        bad.append("negative tax token")
    chars = [c for p in g.players for c in p.characters]
    if len(chars) != len(set(chars)):
        bad.append(f"a character is held twice: {chars}")
    return bad
