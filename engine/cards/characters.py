"""The 27 characters of the 2016 edition, one row each.

Columns: English name (the code's name), rank, Spanish name of the 2016
rulebook (`000_...`), the district type whose districts pay an income ability
and in what (gold, cards, or the Abbot's free mix), and the gem on the card
(O original 2000, D Dark City, N new in 2016).
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Character(NamedTuple):
    name: str
    rank: int
    es: str
    income_type: str | None  # noble / religious / trade / military
    income_kind: str | None  # "gold", "cards" or "mix" (Abbot)
    origin: str


_ROWS = [
    # name, rank, Spanish, income type, income kind, origin
    ("Assassin", 1, "Asesino", None, None, "O"),
    ("Witch", 1, "Bruja", None, None, "D"),
    ("Magistrate", 1, "Magistrado", None, None, "N"),
    ("Thief", 2, "Ladrón", None, None, "O"),
    ("Spy", 2, "Espía", None, None, "N"),
    ("Blackmailer", 2, "Chantajista", None, None, "N"),
    ("Magician", 3, "Hechicera", None, None, "O"),
    ("Wizard", 3, "Mago", None, None, "D"),
    ("Seer", 3, "Vidente", None, None, "N"),
    ("King", 4, "Rey", "noble", "gold", "O"),
    ("Emperor", 4, "Emperador", "noble", "gold", "D"),
    # The Spanish seed says gold; the Portuguese and English rulebooks say cards.
    ("Patrician", 4, "Patricio", "noble", "cards", "N"),
    ("Bishop", 5, "Obispo", "religious", "gold", "O"),
    ("Abbot", 5, "Abad", "religious", "mix", "D"),
    ("Cardinal", 5, "Cardenal", "religious", "cards", "N"),
    ("Merchant", 6, "Mercader", "trade", "gold", "O"),
    ("Alchemist", 6, "Alquimista", None, None, "D"),
    ("Trader", 6, "Comerciante", "trade", "gold", "N"),
    ("Architect", 7, "Arquitecto", None, None, "O"),
    ("Navigator", 7, "Navegante", None, None, "D"),
    ("Scholar", 7, "Erudito", None, None, "N"),
    ("Warlord", 8, "Guerrero", "military", "gold", "O"),
    ("Diplomat", 8, "Diplomático", "military", "gold", "D"),
    ("Marshal", 8, "Mariscal", "military", "gold", "N"),
    ("Queen", 9, "Reina", None, None, "D"),
    ("Artist", 9, "Artista", None, None, "D"),
    ("Tax Collector", 9, "Recaudador", None, None, "D"),
]

CHARACTERS: Final[dict[str, Character]] = {row[0]: Character(*row) for row in _ROWS}
RANK: Final[dict[str, int]] = {c.name: c.rank for c in CHARACTERS.values()}
ORIGINAL_EIGHT = ("Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord")


def by_rank(rank: int) -> list[Character]:
    return [c for c in CHARACTERS.values() if c.rank == rank]
