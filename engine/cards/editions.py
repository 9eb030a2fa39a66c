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

EDITIONS = ("2016", "classic", "2000")

# Unique districts that exist only in the older editions: name, cost, Spanish, Italian (`004_...`),
# origin (O: the 2000 basic game, D: The Dark City).
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
OLDER_ONLY = frozenset(r[0] for r in OLDER_UNIQUES)

# The Classic 2016 box: 54 base districts + these 14 purple cards (13 names, two Keeps).
CLASSIC_PURPLE = ("Haunted Quarter", "Keep", "Keep", "Laboratory", "Smithy", "Observatory", "Graveyard", "Library",
                  "School of Magic", "Great Wall", "University", "Dragon Gate", "Imperial Treasury", "Map Room")
# The 2000 basic deck: 54 base districts + 12 purple cards (two Keeps).
BASIC_2000_PURPLE = ("Haunted Quarter", "Keep", "Keep", "Laboratory", "Smithy", "Observatory", "Graveyard",
                     "School of Magic", "Library", "Great Wall", "University", "Dragon Gate")
# The Dark City's 14 bonus purple districts (one each), added 2-3 at a time.
DARK_CITY_PURPLE = ("Armory", "Lighthouse", "Museum", "Imperial Treasury", "Map Room", "Wishing Well", "Quarry",
                    "Poor House", "Bell Tower", "Factory", "Park", "Hospital", "Throne Room", "Ballroom")
# The Dark City's 10 bonus characters (2000 versions).
DARK_CITY_CHARACTERS = ("Witch", "Tax Collector", "Wizard", "Emperor", "Abbot", "Alchemist", "Navigator", "Diplomat",
                        "Artist", "Queen")

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
        "Magician": {"es": "Mago"}, "Warlord": {"es": "Condotiero"}, "Smithy": {"es": "Fábrica"},
        "Merchant": {"es": "Mercader"}, "Barracks": {"es": "Cuartel"},
    },
    "2000": {
        "Assassin": {"es": "Asesino", "it": "Assassino"}, "Thief": {"es": "Ladrón", "it": "Ladro"},
        "Magician": {"es": "Mago", "it": "Mago"}, "King": {"es": "Rey", "it": "Re"},
        "Bishop": {"es": "Obispo", "it": "Vescovo"}, "Merchant": {"es": "Comerciante", "it": "Mercante"},
        "Architect": {"es": "Arquitecto", "it": "Architetto"}, "Warlord": {"es": "Condottiere", "it": "Mercenario"},
        "Witch": {"it": "Strega"}, "Tax Collector": {"it": "Esattore"}, "Wizard": {"it": "Stregone"},
        "Emperor": {"it": "Imperatore"}, "Abbot": {"it": "Abate"}, "Alchemist": {"it": "Alchimista"},
        "Navigator": {"it": "Navigatore"}, "Diplomat": {"it": "Diplomatico"}, "Artist": {"it": "Artista"},
        "Queen": {"it": "Regina"},
        "Haunted Quarter": {"en": "Haunted City", "es": "Ciudad Encantada", "it": "Città infestata"},
        "Keep": {"it": "Torrione"}, "Laboratory": {"it": "Laboratorio"}, "Smithy": {"it": "Fucina"},
        "Observatory": {"it": "Osservatorio"}, "School of Magic": {"it": "Scuola di magia"},
        "Library": {"it": "Biblioteca"}, "Great Wall": {"it": "Grande muraglia"},
        "Dragon Gate": {"it": "Portale del drago"}, "Armory": {"en": "Powderhouse", "it": "Polveriera"},
        "Museum": {"it": "Museo"}, "Imperial Treasury": {"it": "Tesoreria imperiale"},
        "Map Room": {"it": "Stanza delle mappe"}, "Wishing Well": {"it": "Pozzo dei desideri"},
        "Quarry": {"it": "Cava"}, "Poor House": {"it": "Casa povera"}, "Factory": {"it": "Fabbrica"},
        "Park": {"it": "Parco"}, "Barracks": {"en": "Battlefield"},
        **{r[0]: {"it": r[3]} for r in OLDER_UNIQUES},
    },
}


def rank(edition: str, name: str) -> int:
    from .characters import RANK

    return RANKS.get(edition, {}).get(name, RANK[name])


def cost(edition: str, name: str) -> int:
    from .districts import DISTRICTS

    return COSTS.get(edition, {}).get(name, DISTRICTS[name].cost)


def income(edition: str, name: str) -> tuple[str | None, str | None]:
    from .characters import CHARACTERS

    over = INCOME.get(edition, {}).get(name)
    if over is not None:
        return over
    c = CHARACTERS.get(name)
    return (c.income_type, c.income_kind) if c is not None else (None, None)


def name_in(edition: str, card: str, lang: str = "en") -> str:
    """A card's printed name in an edition and language ("en", "es", "it")."""
    from .characters import CHARACTERS
    from .districts import DISTRICTS

    over = NAMES.get(edition, {}).get(card, {}).get(lang)
    if over is not None:
        return over
    if lang == "es":
        row = CHARACTERS.get(card) or DISTRICTS.get(card)
        return row.es if row is not None else card
    return card


# Rule texts that differ from the 2016 texts, by edition (the UI's help shows these when
# `View.rules` is a rule set of that edition; `rule_text` returns None for "as 2016").
# The Classic box's texts are the 2016 ones for its cards; only the new cards are listed.
RULE_TEXTS: dict[str, dict[str, dict[str, str]]] = {
    "classic": {
        "Warlord": {"en": "Income: 1 gold per military district. Destroy one district by paying its cost minus 1, at "
                          "any time of your turn (your own allowed; not in a complete city, not the Bishop's).",
                    "es": "Ingresos: 1 oro por distrito militar. Destruye un distrito pagando su coste menos 1, en "
                          "cualquier momento de tu turno (también tuyo; no en una ciudad completa ni del Obispo)."},
        "Graveyard": {"en": "When the Warlord destroys a district, you may pay 1 gold to take it into your hand "
                            "(not if you are the Warlord).",
                      "es": "Cuando el Condotiero destruye un distrito, puedes pagar 1 oro para llevártelo a la mano "
                            "(no si eres el Condotiero)."},
        "University": {"en": "Game end: +2 points (it is worth 8).",
                       "es": "Final de la partida: +2 puntos (vale 8)."},
    },
    "2000": {
        "Assassin": {"en": "Name another character to kill. Its player stays silent when it is called, skips the "
                           "turn, and reveals the card only at the end of the round.",
                     "es": "Nombra otro personaje para asesinarlo. Su jugador calla cuando se le llama, pierde el "
                           "turno y solo revela la carta al final de la ronda."},
        "Warlord": {"en": "Income: 1 gold per military district. At the end of your turn you may destroy one "
                          "district by paying its cost minus 1 (your own allowed); never in a city of 8 districts "
                          "(7 with the Bell Tower).",
                    "es": "Ingresos: 1 oro por distrito militar. Al final de tu turno puedes destruir un distrito "
                          "pagando su coste menos 1 (también tuyo); nunca en una ciudad de 8 distritos (7 con el "
                          "Campanario)."},
        "Tax Collector": {"en": "Rank 2. Whenever another player builds in his turn and has gold left, he gives you "
                                "1 gold (once per turn). A rank-1 player who built pays when you are revealed.",
                          "es": "Rango 2. Cada vez que otro jugador construye en su turno y le queda oro, te da 1 "
                                "oro (una vez por turno). El jugador de rango 1 que construyó paga cuando te revelas."},
        "Wizard": {"en": "Look at another player's hand and take one card: build it at once (paying, outside your "
                         "build limit; it may be identical to a district of your city) or keep it.",
                   "es": "Mira la mano de otro jugador y toma una carta: constrúyela enseguida (pagando, fuera de tu "
                         "límite; puede ser igual a un distrito de tu ciudad) o guárdala."},
        "Emperor": {"en": "Income: 1 gold per noble district. Give the crown to a player who is neither you nor its "
                          "holder; that player gives you 1 gold or 1 card of their choice from their hand.",
                    "es": "Ingresos: 1 oro por distrito noble. Da la corona a un jugador que no seas tú ni quien la "
                          "tiene; ese jugador te da, a su elección, 1 oro o 1 carta de su mano."},
        "Abbot": {"en": "Income: 1 gold per religious district. The richest player gives you 1 gold; nothing if "
                        "the richest are tied.",
                  "es": "Ingresos: 1 oro por distrito religioso. El jugador más rico te da 1 oro; nada si hay "
                        "empate entre los más ricos."},
        "Queen": {"en": "Take 3 gold if you sit next to the crown holder (checked at the end of the round if rank 4 "
                        "was killed). Only with 5 or more players.",
                  "es": "Toma 3 oros si te sientas junto a quien tiene la corona (al final de la ronda si el rango 4 "
                        "fue asesinado). Solo con 5 o más jugadores."},
        "Haunted Quarter": {"en": "Haunted City. For scoring it counts as the colour of your choice, unless you "
                                  "built it in the last round.",
                            "es": "Ciudad Encantada. Al puntuar cuenta como el color que elijas, salvo si la "
                                  "construiste en la última ronda."},
        "Laboratory": {"en": "Once per turn: discard 1 card from your hand to gain 1 gold.",
                       "es": "Una vez por turno: descarta 1 carta de tu mano para ganar 1 oro."},
        "Observatory": {"en": "When you gather cards, draw 3, keep 1 and put the others at the bottom of the deck "
                              "(with the Library keep 2).",
                        "es": "Cuando robas cartas, roba 3, quédate 1 y pon las demás al fondo del mazo (con la "
                              "Biblioteca quédate 2)."},
        "Library": {"en": "When you gather cards, keep both cards you draw.",
                    "es": "Cuando robas cartas, quédate las dos cartas robadas."},
        "Wishing Well": {"en": "Game end: +1 point per other purple district in your city.",
                         "es": "Final de la partida: +1 punto por cada otro distrito morado de tu ciudad."},
        "Quarry": {"en": "You may build a district identical to one in your city; at most one duplicate at a time.",
                   "es": "Puedes construir un distrito igual a uno de tu ciudad; como mucho un duplicado a la vez."},
        "Armory": {"en": "Powderhouse. During your turn, destroy it to destroy one district in another player's "
                         "city.",
                   "es": "Polvorín. Durante tu turno, destrúyelo para destruir un distrito de la ciudad de otro "
                         "jugador."},
        "Graveyard": {"en": "When the Warlord destroys a district, you may pay 1 gold to take it into your hand "
                            "(not if you are the Warlord). Not used with the Diplomat.",
                      "es": "Cuando el Condottiere destruye un distrito, puedes pagar 1 oro para llevártelo a la "
                            "mano (no si eres el Condottiere). No se usa con el Diplomático."},
        "Hospital": {"en": "If you are killed, you may still gather resources when your character is called, but "
                           "not build or use its power. Not used without the Assassin.",
                     "es": "Si te asesinan, aún puedes tomar recursos cuando se llama a tu personaje, pero no "
                           "construir ni usar su poder. No se usa sin el Asesino."},
        "Ballroom": {"en": "While you hold the crown, the other players thank you when they reveal a character "
                           "(automatic here: nobody loses a turn).",
                     "es": "Mientras tengas la corona, los demás te dan las gracias al revelar un personaje "
                           "(automático aquí: nadie pierde el turno)."},
    },
}


def rule_text(edition: str, card: str, lang: str = "en") -> str | None:
    """The card's rule text in that edition and language, or None when it is the 2016 text."""
    t = RULE_TEXTS.get(edition, {}).get(card)
    return None if t is None else t.get(lang) or t["en"]
