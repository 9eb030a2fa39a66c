"""The district deck: drawing from the top, discarding to the bottom."""

from __future__ import annotations

from .rng import Rng
from .state import GameState


def draw(g: GameState, n: int) -> list[str]:
    """Take up to n cards from the top (fewer if the deck runs out)."""
    deck = g.deck
    n = min(n, len(deck))
    if n <= 0:
        return []
    out = deck[-n:]  # the top n, drawn one by one: the top card first
    out.reverse()
    del deck[-n:]
    return out


def to_bottom(g: GameState, cards: list[str]) -> None:
    if cards:
        g.deck[0:0] = cards


def shuffle_in(g: GameState, cards: list[str]) -> None:
    """Shuffle cards back into the deck (the Scholar)."""
    g.deck.extend(cards)
    rng = Rng(g.rng)
    rng.shuffle(g.deck)
    g.rng = rng.state


def gain_cards(g: GameState, seat: int, n: int) -> list[str]:
    cards = draw(g, n)
    g.players[seat].hand.extend(cards)
    return cards
