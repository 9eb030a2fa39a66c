"""Rule sets: what varies between editions and variants.

A rule set is data. The flow asks it how many districts complete a city,
which characters and districts exist, and which selection procedure a player
count uses. Part 4 adds the older editions as more rows.
"""
from __future__ import annotations

import msgspec


class RuleSet(msgspec.Struct, frozen=True):
    name: str
    title: str
    min_players: int = 2
    max_players: int = 8
    complete_at: int = 7  # districts that complete a city with 4+ players
    complete_at_small: int = 8  # ... with 2-3 players
    three_player_characters: int = 9  # 9: the 2016 procedure; 8: Classic (round the table)
    rank9_allowed: bool = True
    faceup_before_facedown: bool = True


RULESETS: dict[str, RuleSet] = {
    r.name: r
    for r in [
        RuleSet("2016", "Citadels (2016)"),
        # The Classic variant: cities complete at 8 districts whatever the player count.
        RuleSet("2016-classic-variant", "Citadels (2016), Classic variant: cities complete at 8", complete_at=8),
    ]
}


def complete_size(rules: RuleSet, players: int) -> int:
    return rules.complete_at_small if players <= 3 else rules.complete_at


# Face-up discards for 4-8 players, by the number of characters in play (8 or 9).
FACEUP = {
    8: {4: 2, 5: 1, 6: 0, 7: 0},
    9: {4: 3, 5: 2, 6: 1, 7: 0, 8: 0},
}
