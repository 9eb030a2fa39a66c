"""District cards: the 54 base districts, the 30 unique districts of 2016 and the
purple districts of the older editions only.

Base rows: name, type, cost, copies, Spanish name. Unique rows: name, cost,
Spanish name, origin gem. Effects live in `engine/uniques/`, one module each;
what else differs by edition is in `engine/cards/editions.py`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

TYPES = ("noble", "religious", "trade", "military", "unique")


class District(NamedTuple):
    name: str
    type: str
    cost: int
    copies: int
    es: str
    origin: str = "O"


_BASE = [
    ("Manor", "noble", 3, 5, "Mansión"),
    ("Castle", "noble", 4, 4, "Castillo"),
    ("Palace", "noble", 5, 3, "Palacio"),
    ("Temple", "religious", 1, 3, "Templo"),
    ("Church", "religious", 2, 3, "Iglesia"),
    ("Monastery", "religious", 3, 3, "Monasterio"),
    ("Cathedral", "religious", 5, 2, "Catedral"),
    ("Tavern", "trade", 1, 5, "Taberna"),
    ("Market", "trade", 2, 4, "Mercado"),
    ("Trading Post", "trade", 2, 3, "Puesto Comercial"),
    ("Docks", "trade", 3, 3, "Muelle"),
    ("Harbor", "trade", 4, 3, "Puerto"),
    ("Town Hall", "trade", 5, 2, "Ayuntamiento"),
    ("Watchtower", "military", 1, 3, "Atalaya"),
    ("Prison", "military", 2, 3, "Prisión"),
    ("Barracks", "military", 3, 3, "Cuartel"),
    ("Fortress", "military", 5, 2, "Fortaleza"),
]

_UNIQUE = [
    # name, cost, Spanish, origin
    ("Armory", 3, "Armería", "D"),
    ("Basilica", 4, "Basílica", "N"),
    ("Capitol", 5, "Capitolio", "N"),
    ("Dragon Gate", 6, "Puerta Dragón", "O"),
    ("Factory", 5, "Fábrica", "D"),
    ("Framework", 3, "Andamio", "N"),
    ("Gold Mine", 6, "Mina de Oro", "N"),
    ("Great Wall", 6, "Gran Muralla", "O"),
    ("Haunted Quarter", 2, "Casa Embrujada", "O"),
    ("Imperial Treasury", 5, "Tesoro Imperial", "D"),
    ("Ivory Tower", 5, "Torre de Marfil", "N"),
    ("Keep", 3, "Bastión", "O"),
    ("Laboratory", 5, "Laboratorio", "O"),
    ("Library", 6, "Biblioteca", "O"),
    ("Map Room", 5, "Sala de Mapas", "D"),
    ("Monument", 4, "Monumento", "N"),
    ("Museum", 4, "Museo", "D"),
    ("Necropolis", 5, "Necrópolis", "N"),
    ("Observatory", 4, "Observatorio", "O"),
    ("Park", 6, "Parque", "D"),
    ("Poor House", 4, "Hospicio", "D"),
    ("Quarry", 5, "Cantera", "D"),
    ("School of Magic", 6, "Escuela de Magia", "O"),
    # The Secret Vault can never be built; its printed cost plays no part.
    ("Secret Vault", 0, "Bóveda Secreta", "N"),
    ("Smithy", 5, "Herrería", "O"),
    ("Stables", 2, "Establos", "N"),
    ("Statue", 3, "Estatua", "N"),
    ("Theater", 6, "Teatro", "N"),
    ("Thieves' Den", 6, "Guarida de Ladrones", "N"),
    ("Wishing Well", 5, "Pozo de los Deseos", "D"),
]

BASE_DISTRICTS: dict[str, District] = {r[0]: District(r[0], r[1], r[2], r[3], r[4]) for r in _BASE}
UNIQUE_DISTRICTS: dict[str, District] = {r[0]: District(r[0], "unique", r[1], 1, r[2], r[3]) for r in _UNIQUE}
DISTRICTS: Final[dict[str, District]] = {**BASE_DISTRICTS, **UNIQUE_DISTRICTS}

assert sum(d.copies for d in BASE_DISTRICTS.values()) == 54
assert len(UNIQUE_DISTRICTS) == 30

# Purple districts of the older editions only (Graveyard, University, the Dark City's Lighthouse...):
# known to every lookup by name, never part of a 2016 deck (engine/cards/editions.py).
# Name, cost, Spanish, Italian (`004_...`), origin (O: the 2000 basic game, D: The Dark City).
# Spanish names of these cards are not in any seed (unverified).
OLDER_UNIQUES = [
    ("Graveyard", 5, "Cementerio", "Cimitero", "O"),
    ("University", 6, "Universidad", "Università", "O"),
    ("Lighthouse", 3, "Faro", "Faro", "D"),
    ("Bell Tower", 5, "Campanario", "Campanile", "D"),
    ("Hospital", 6, "Hospital", "Ospedale", "D"),
    ("Throne Room", 6, "Sala del Trono", "Sala del trono", "D"),
    # The Ballroom's cost has no reliable source; 6 as in the FFG card lists that give one.
    ("Ballroom", 6, "Salón de Baile", "Sala da ballo", "D"),
]
OLDER_UNIQUE_DISTRICTS: dict[str, District] = {
    r[0]: District(r[0], "unique", r[1], 1, r[2], r[4]) for r in OLDER_UNIQUES
}
DISTRICTS.update(OLDER_UNIQUE_DISTRICTS)


def base_deck() -> list[str]:
    """The 54 base district cards, by name (copies repeated): a new list each time."""
    return list(_BASE_DECK)


_BASE_DECK: tuple[str, ...] = tuple(d.name for d in BASE_DISTRICTS.values() for _ in range(d.copies))
