"""Card data of the older editions: the Classic 2016 box and the 2000 edition with
The Dark City (`/work/shared/rules/editions.md`, seeds 001, 003, 004).

An *edition* is the set of printed cards a rule set plays with: "2016" (the
2016 full edition, `characters.py` and `districts.py`), "classic" (the Classic
2016 box: 2016 wording, 8 characters, a fixed 68-card deck) and "2000" (the
2000 edition and its Dark City expansion). A card keeps one English name in
every edition; only what differs is listed here (rank, cost, income, names).
No rules here: the effects live in `engine/roles/` and `engine/uniques/`, one
module per card, which ask `g.rules.edition` where the older text differs.
"""

from __future__ import annotations

from typing import Final

from .characters import CHARACTERS, RANK
from .districts import DISTRICTS, OLDER_UNIQUES

EDITIONS = ("2016", "classic", "2000")

# Unique districts that exist only in the older editions (their rows: districts.OLDER_UNIQUES).
OLDER_ONLY = frozenset(r[0] for r in OLDER_UNIQUES)

# The Classic 2016 box: 54 base districts + these 14 purple cards (13 names, two Keeps).
CLASSIC_PURPLE = (
    "Haunted Quarter",
    "Keep",
    "Keep",
    "Laboratory",
    "Smithy",
    "Observatory",
    "Graveyard",
    "Library",
    "School of Magic",
    "Great Wall",
    "University",
    "Dragon Gate",
    "Imperial Treasury",
    "Map Room",
)
# The 2000 basic deck: 54 base districts + 12 purple cards (two Keeps).
BASIC_2000_PURPLE = (
    "Haunted Quarter",
    "Keep",
    "Keep",
    "Laboratory",
    "Smithy",
    "Observatory",
    "Graveyard",
    "School of Magic",
    "Library",
    "Great Wall",
    "University",
    "Dragon Gate",
)
# The Dark City's 14 bonus purple districts (one each), added 2-3 at a time.
DARK_CITY_PURPLE = (
    "Armory",
    "Lighthouse",
    "Museum",
    "Imperial Treasury",
    "Map Room",
    "Wishing Well",
    "Quarry",
    "Poor House",
    "Bell Tower",
    "Factory",
    "Park",
    "Hospital",
    "Throne Room",
    "Ballroom",
)
# The Dark City's 10 bonus characters (2000 versions).
DARK_CITY_CHARACTERS = (
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

assert len(CLASSIC_PURPLE) == 14 and len(BASIC_2000_PURPLE) == 12 and len(DARK_CITY_PURPLE) == 14

# Ranks that differ from 2016.
RANKS: dict[str, dict[str, int]] = {
    "2000": {"Tax Collector": 2},
}
# Printed costs that differ from 2016 (the Classic box keeps the 2016 costs).
COSTS: dict[str, dict[str, int]] = {
    "2000": {"Observatory": 5, "Imperial Treasury": 4, "Poor House": 5, "Factory": 6},
}
# Income abilities that differ from 2016: (district type, "gold" | "cards" | "mix").
INCOME: dict[str, dict[str, tuple[str, str]]] = {
    "2000": {"Abbot": ("religious", "gold")},  # 1 gold per religious district, no card option
}

# Names that differ by edition (the UI's second language; Italian from `004_...`).
# Classic (`001_...`): "Mago" is the Magician, "Condotiero" the Warlord, "Fábrica" the Smithy.
# 2000 (`003_...` Spanish summary): "Comerciante" the Merchant, "Condottiere" the Warlord.
NAMES: dict[str, dict[str, dict[str, str]]] = {
    "classic": {
        "Magician": {"es": "Mago"},
        "Warlord": {"es": "Condotiero"},
        "Smithy": {"es": "Fábrica"},
        "Merchant": {"es": "Mercader"},
        "Barracks": {"es": "Cuartel"},
    },
    "2000": {
        "Assassin": {"es": "Asesino", "it": "Assassino"},
        "Thief": {"es": "Ladrón", "it": "Ladro"},
        "Magician": {"es": "Mago", "it": "Mago"},
        "King": {"es": "Rey", "it": "Re"},
        "Bishop": {"es": "Obispo", "it": "Vescovo"},
        "Merchant": {"es": "Comerciante", "it": "Mercante"},
        "Architect": {"es": "Arquitecto", "it": "Architetto"},
        "Warlord": {"es": "Condottiere", "it": "Mercenario"},
        "Witch": {"it": "Strega"},
        "Tax Collector": {"it": "Esattore"},
        "Wizard": {"it": "Stregone"},
        "Emperor": {"it": "Imperatore"},
        "Abbot": {"it": "Abate"},
        "Alchemist": {"it": "Alchimista"},
        "Navigator": {"it": "Navigatore"},
        "Diplomat": {"it": "Diplomatico"},
        "Artist": {"it": "Artista"},
        "Queen": {"it": "Regina"},
        "Haunted Quarter": {"en": "Haunted City", "es": "Ciudad Encantada", "it": "Città infestata"},
        "Keep": {"it": "Torrione"},
        "Laboratory": {"it": "Laboratorio"},
        "Smithy": {"it": "Fucina"},
        "Observatory": {"it": "Osservatorio"},
        "School of Magic": {"it": "Scuola di magia"},
        "Library": {"it": "Biblioteca"},
        "Great Wall": {"it": "Grande muraglia"},
        "Dragon Gate": {"it": "Portale del drago"},
        "Armory": {"en": "Powderhouse", "es": "Polvorín", "it": "Polveriera"},
        "Museum": {"it": "Museo"},
        "Imperial Treasury": {"it": "Tesoreria imperiale"},
        "Map Room": {"it": "Stanza delle mappe"},
        "Wishing Well": {"it": "Pozzo dei desideri"},
        "Quarry": {"it": "Cava"},
        "Poor House": {"it": "Casa povera"},
        "Factory": {"it": "Fabbrica"},
        "Park": {"it": "Parco"},
        "Barracks": {"en": "Battlefield"},
        **{r[0]: {"it": r[3]} for r in OLDER_UNIQUES},
    },
}


def rank(edition: str, name: str) -> int:
    return RANKS.get(edition, {}).get(name, RANK[name])


def cost(edition: str, name: str) -> int:
    return COSTS.get(edition, {}).get(name, DISTRICTS[name].cost)


def income(edition: str, name: str) -> tuple[str | None, str | None]:
    over = INCOME.get(edition, {}).get(name)
    if over is not None:
        return over
    c = CHARACTERS.get(name)
    return (c.income_type, c.income_kind) if c is not None else (None, None)


# Every card in every edition, as tables (what the rules and the bots look up at every command). Final:
# compiled, the compiled modules read them from a C static, not from this module's dictionary.
COST_TABLE: Final[dict[str, dict[str, int]]] = {ed: {n: cost(ed, n) for n in DISTRICTS} for ed in EDITIONS}
RANK_TABLE: Final[dict[str, dict[str, int]]] = {ed: {n: rank(ed, n) for n in CHARACTERS} for ed in EDITIONS}
INCOME_TABLE: Final[dict[str, dict[str, tuple[str | None, str | None]]]] = {
    ed: {n: income(ed, n) for n in CHARACTERS} for ed in EDITIONS
}


def name_in(edition: str, card: str, lang: str = "en") -> str:
    """A card's printed name in an edition and language ("en", "es", "it")."""
    over = NAMES.get(edition, {}).get(card, {}).get(lang)
    if over is not None:
        return over
    if lang == "es":
        row = CHARACTERS.get(card) or DISTRICTS.get(card)
        return row.es if row is not None else card
    return card


# Rule texts: the older editions' texts are the UI's, in `ui/i18n/cards.<lang>.toml`
# (sections "classic:character_text", "2000:district_text", ...), the one place for card texts.
