"""The first-game set and the six preset line-ups of the 2016 rulebook.

Ranks 1-8, the rank-9 character (None for the first game: the rulebook names
none), and the 14 unique districts shuffled into the deck.
"""

from __future__ import annotations

from typing import NamedTuple


class Preset(NamedTuple):
    name: str
    es: str
    characters: tuple[str, ...]  # ranks 1-8
    rank9: str | None
    uniques: tuple[str, ...]


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset(
            "first-game",
            "Primera partida",
            ("Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"),
            None,
            (
                "Dragon Gate",
                "Factory",
                "Haunted Quarter",
                "Imperial Treasury",
                "Keep",
                "Laboratory",
                "Library",
                "Map Room",
                "Quarry",
                "School of Magic",
                "Smithy",
                "Statue",
                "Thieves' Den",
                "Wishing Well",
            ),
        ),
        Preset(
            "ambitious-aristocrats",
            "Aristócratas Ambiciosos",
            ("Magistrate", "Thief", "Wizard", "Patrician", "Bishop", "Trader", "Architect", "Marshal"),
            "Queen",
            (
                "Capitol",
                "Factory",
                "Framework",
                "Great Wall",
                "Haunted Quarter",
                "Keep",
                "Necropolis",
                "Park",
                "Poor House",
                "Quarry",
                "School of Magic",
                "Stables",
                "Statue",
                "Thieves' Den",
            ),
        ),
        Preset(
            "cunning-agents",
            "Agentes Astutos",
            ("Witch", "Blackmailer", "Magician", "Emperor", "Abbot", "Alchemist", "Architect", "Warlord"),
            "Tax Collector",
            (
                "Armory",
                "Basilica",
                "Dragon Gate",
                "Gold Mine",
                "Keep",
                "Monument",
                "Museum",
                "Necropolis",
                "Park",
                "Poor House",
                "Quarry",
                "Secret Vault",
                "Smithy",
                "Theater",
            ),
        ),
        Preset(
            "illustrious-emissaries",
            "Ilustres Emisarios",
            ("Witch", "Spy", "Seer", "Emperor", "Bishop", "Merchant", "Scholar", "Diplomat"),
            "Artist",
            (
                "Factory",
                "Framework",
                "Great Wall",
                "Haunted Quarter",
                "Ivory Tower",
                "Keep",
                "Library",
                "Museum",
                "Observatory",
                "Park",
                "Poor House",
                "Quarry",
                "School of Magic",
                "Smithy",
            ),
        ),
        Preset(
            "devious-dignitaries",
            "Dignatarios Desviados",
            ("Magistrate", "Blackmailer", "Wizard", "King", "Abbot", "Alchemist", "Navigator", "Marshal"),
            "Queen",
            (
                "Dragon Gate",
                "Factory",
                "Framework",
                "Haunted Quarter",
                "Laboratory",
                "Necropolis",
                "Park",
                "Poor House",
                "Secret Vault",
                "Smithy",
                "Stables",
                "Theater",
                "Thieves' Den",
                "Wishing Well",
            ),
        ),
        Preset(
            "tenacious-delegates",
            "Delegados Tenaces",
            ("Assassin", "Spy", "Seer", "King", "Cardinal", "Trader", "Scholar", "Diplomat"),
            "Artist",
            (
                "Basilica",
                "Capitol",
                "Haunted Quarter",
                "Imperial Treasury",
                "Laboratory",
                "Library",
                "Map Room",
                "Observatory",
                "School of Magic",
                "Secret Vault",
                "Smithy",
                "Stables",
                "Statue",
                "Wishing Well",
            ),
        ),
        Preset(
            "vicious-nobles",
            "Nobles Viciosos",
            ("Assassin", "Thief", "Magician", "Patrician", "Cardinal", "Merchant", "Navigator", "Warlord"),
            "Tax Collector",
            (
                "Armory",
                "Basilica",
                "Dragon Gate",
                "Gold Mine",
                "Imperial Treasury",
                "Ivory Tower",
                "Laboratory",
                "Map Room",
                "Monument",
                "Museum",
                "School of Magic",
                "Statue",
                "Thieves' Den",
                "Wishing Well",
            ),
        ),
    ]
}
