"""Bot styles and names, so that a table of bots does not play identically."""

from __future__ import annotations

from msgspec import Struct


class Style(Struct, frozen=True):
    name: str
    aggression: float = 0.0  # targets the leader harder; values Assassin, Thief, rank 8 more
    builder: float = 0.0  # values building and the Architect more
    greed: float = 0.0  # prefers gold and money characters
    caution: float = 1.0  # weight of the fear of being killed or robbed
    noise: float = 0.35  # random spread on every score (points)
    mistakes: float = 0.0  # chance of a random legal command (easy bots)
    reads_table: bool = True  # reads the face-up discards and the pool passed to it


STYLES: dict[str, Style] = {
    s.name: s
    for s in [
        Style("balanced"),
        Style("aggressive", aggression=1.0, builder=-0.3, caution=0.8),
        Style("builder", aggression=-0.4, builder=1.0, caution=1.1),
        Style("merchant", greed=1.0, aggression=-0.2),
        Style("cautious", caution=1.6, aggression=-0.2, noise=0.25),
    ]
}

NAMES: dict[str, list[str]] = {
    "balanced": ["Ada", "Bruno", "Clara", "Dario"],
    "aggressive": ["Grimwald", "Vesna", "Ragnar", "Morgana"],
    "builder": ["Mason", "Edith", "Hiram", "Petra"],
    "merchant": ["Fugger", "Medea", "Coin-Counting Carla", "Lorenzo"],
    "cautious": ["Prudence", "Tobias", "Quill", "Wendel"],
}
