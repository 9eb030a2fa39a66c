"""The table's choices before a game starts (`engine.setup.new_game` sets the game up from them)."""

from __future__ import annotations

from msgspec import Struct


class GameConfig(Struct, omit_defaults=True):
    """What a table chooses before the game: players, line-up, rules, seed."""

    players: list[str]
    preset: str | None = None  # a preset name, or None with `characters`
    characters: list[str] | None = None  # one per rank 1-8, optional rank 9
    uniques: list[str] | None = None  # 14 unique districts (default: the preset's)
    rules: str = "2016"
    seed: int = 0
    crown: int | None = None  # None: a random seat
    rank9: bool | None = None  # with 4-7 players and a preset: use its rank 9 (default: yes if it names one)
    variants: list[str] | None = None  # rule-set variants: "short-7", "short-6", "plague" (RuleSet.options)
