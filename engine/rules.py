"""Rule sets: what varies between editions and variants.

A rule set is data. The flow asks it how many districts complete a city,
which characters and districts exist, and which selection procedure a player
count uses. Part 4 adds the older editions as more rows.
"""

from __future__ import annotations

from typing import Any

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
    # --- the older editions (part 4; engine/cards/editions.py, docs/rules.md "Older editions") ---
    edition: str = "2016"  # the printed cards: "2016", "classic" or "2000" (texts, costs, ranks)
    deck: str = "2016"  # "2016": base + 14 chosen uniques; "classic": the fixed 68; "2000": 66 basic + Dark City
    characters: tuple[str, ...] = ()  # the characters this rule set may use (empty: all of 2016)
    max_substitutes: int = 8  # Dark City characters swapped in for basic ones at ranks 1-8
    reveal_killed: bool = False  # killed characters are revealed at round end (2000)
    rank8_at_end: bool = False  # the Warlord destroys at the end of his turn: destroying ends it (2000)
    tiebreak: str = "rank"  # "rank": highest rank revealed in the last round; "gold": most gold left
    plague: bool = False  # the Plague variant is on
    variants: tuple[str, ...] = ()  # the variants switched on (GameConfig.variants)
    options: tuple[str, ...] = ()  # what a table may choose with this rule set (for the lobby)


_ORIGINAL = ("Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord")
_DARK_CITY = (
    "Witch",
    "Tax Collector",
    "Wizard",
    "Emperor",
    "Abbot",
    "Alchemist",
    "Navigator",
    "Diplomat",
    "Artist",
    "Queen",
)

RULESETS: dict[str, RuleSet] = {
    r.name: r
    for r in [
        RuleSet("2016", "Citadels (2016)"),
        # The Classic variant: cities complete at 8 districts whatever the player count.
        RuleSet("2016-classic-variant", "Citadels (2016), Classic variant: cities complete at 8", complete_at=8),
        # The Classic 2016 box (seed 001): 8 characters, the fixed 68-card deck, 2-7 players.
        RuleSet(
            "classic",
            "Citadels Classic (2016 box)",
            max_players=7,
            three_player_characters=8,
            rank9_allowed=False,
            edition="classic",
            deck="classic",
            characters=_ORIGINAL,
        ),
        RuleSet(
            "classic-variant",
            "Citadels Classic (2016 box), Classic variant: cities complete at 8",
            max_players=7,
            complete_at=8,
            three_player_characters=8,
            rank9_allowed=False,
            edition="classic",
            deck="classic",
            characters=_ORIGINAL,
        ),
        # The 2000 edition, basic game (seeds 003, 004): cities complete at 8 for every player count.
        RuleSet(
            "original-2000",
            "Citadels (2000)",
            max_players=7,
            complete_at=8,
            three_player_characters=8,
            rank9_allowed=False,
            faceup_before_facedown=False,
            edition="2000",
            deck="2000",
            characters=_ORIGINAL,
            max_substitutes=0,
            reveal_killed=True,
            rank8_at_end=True,
            tiebreak="gold",
            options=("short-7", "short-6", "plague"),
        ),
        # The 2000 edition with The Dark City (seed 004): one or two bonus characters swapped in, an
        # optional rank 9 (needed with 8 players), 2-6 bonus purple districts.
        RuleSet(
            "dark-city",
            "Citadels (2000) with The Dark City",
            complete_at=8,
            three_player_characters=8,
            faceup_before_facedown=False,
            edition="2000",
            deck="2000",
            characters=_ORIGINAL + _DARK_CITY,
            max_substitutes=2,
            reveal_killed=True,
            rank8_at_end=True,
            tiebreak="gold",
            options=("characters", "uniques", "rank9", "short-7", "short-6", "plague"),
        ),
    ]
}

# What each option of `RuleSet.options` means (GameConfig fields and variants), for the lobby.
OPTIONS = {
    "characters": "Dark City characters swapped in for the basic ones of the same rank (one or two), "
    "and a rank-9 character (GameConfig.characters)",
    "uniques": "Dark City purple districts added to the deck (2-3; 4-6 replacing basic purple ones) "
    "(GameConfig.uniques)",
    "rank9": "play with a rank-9 character with 4-7 players (GameConfig.rank9)",
    "short-7": "short game: cities complete at 7 districts (variant)",
    "short-6": "short game: cities complete at 6 districts (variant)",
    "plague": "the Plague variant (variant)",
}
VARIANTS = ("short-7", "short-6", "plague")


def catalogue() -> list[dict[str, Any]]:
    """The rule sets for the lobby: name, title, player counts, and the options each takes."""
    return [
        {
            "name": r.name,
            "title": r.title,
            "min_players": r.min_players,
            "max_players": r.max_players,
            "edition": r.edition,
            "options": [{"name": o, "description": OPTIONS[o]} for o in r.options],
        }
        for r in RULESETS.values()
    ]


def with_variants(rules: RuleSet, variants: list[str] | tuple[str, ...]) -> RuleSet:
    """The rule set with its variants applied (the game state keeps this one; same name)."""
    if not variants:
        return rules
    changes: dict[str, Any] = {"variants": tuple(variants)}
    for v in variants:
        if v in ("short-7", "short-6"):
            changes["complete_at"] = changes["complete_at_small"] = int(v[-1])
        elif v == "plague":
            changes["plague"] = True
    return msgspec.structs.replace(rules, **changes)


# Face-up discards for 4-8 players, by the number of characters in play (8 or 9).
FACEUP = {
    8: {4: 2, 5: 1, 6: 0, 7: 0},
    9: {4: 3, 5: 2, 6: 1, 7: 0, 8: 0},
}
