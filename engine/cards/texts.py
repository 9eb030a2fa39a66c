"""Readable texts for the game screen: a label and a one-line description of each
ability, choice and select, and one sentence per event kind, in English and Spanish.

Keys:
- ABILITY_TEXTS[(card, option)]: an `Ability(name=card, option=option)` (option None when the
  card has a single kind of ability); {"en": ..., "es": ...}, a label then " — " and what it does.
- CHOICE_TEXTS[about][option]: a `Choice(about, options)`; the option "*" stands for any option
  that names a seat (written {player}).
- SELECT_TEXTS[purpose]: a `SelectCards(purpose)` prompt.
- EVENT_TEXTS[kind]: a sentence with {placeholders} named after the Event fields (seat and
  player are player names, character, district, card, gold, count, option).

Each engineer adds a clearly marked block with .update(...) for their own cards only;
never rewrite another block.
"""
from __future__ import annotations

ABILITY_TEXTS: dict[tuple[str, str | None], dict[str, str]] = {}
CHOICE_TEXTS: dict[str, dict[str, dict[str, str]]] = {}
SELECT_TEXTS: dict[str, dict[str, str]] = {}
EVENT_TEXTS: dict[str, dict[str, str]] = {}

# --- ranks 4-9 (Emperor ... Tax Collector) -------------------------------------------------
ABILITY_TEXTS.update({
    ("Emperor", "gold"): {"en": "Crown {player}, take 1 gold — give them the crown and take 1 gold from their stash",
                          "es": "Coronar a {player} y tomar 1 oro — le das la corona y tomas 1 oro de su reserva"},
    ("Emperor", "card"): {"en": "Crown {player}, take a card — give them the crown and take 1 random card from their hand",
                          "es": "Coronar a {player} y tomar una carta — le das la corona y tomas 1 carta al azar de su mano"},
    ("Emperor", "nothing"): {"en": "Crown {player} — give them the crown (they have neither gold nor cards)",
                             "es": "Coronar a {player} — le das la corona (no tiene oro ni cartas)"},
    ("Abbot", None): {"en": "Ask {player} for 1 gold — the richest player must give you 1 gold",
                      "es": "Pedir 1 oro a {player} — el jugador más rico debe darte 1 oro"},
    ("Navigator", "gold"): {"en": "Gain 4 gold — you cannot build this turn",
                            "es": "Ganar 4 oros — no puedes construir este turno"},
    ("Navigator", "cards"): {"en": "Gain 4 cards — you cannot build this turn",
                             "es": "Ganar 4 cartas — no puedes construir este turno"},
    ("Scholar", None): {"en": "Draw 7, keep 1 — the other 6 are shuffled back into the deck",
                        "es": "Robar 7 y quedarte 1 — las otras 6 se barajan de nuevo en el mazo"},
    ("Diplomat", None): {"en": "Exchange your {card} for {player}'s {district} — pay them the cost difference if theirs costs more",
                         "es": "Cambiar tu {card} por {district} de {player} — le pagas la diferencia si el suyo cuesta más"},
    ("Marshal", None): {"en": "Seize {player}'s {district} — pay them its cost (3 or less) and add it to your city",
                        "es": "Tomar {district} de {player} — le pagas su costo (3 o menos) y lo añades a tu ciudad"},
    ("Queen", None): {"en": "Gain 3 gold — you sit next to the player who revealed rank 4",
                      "es": "Ganar 3 oros — estás al lado del jugador que reveló el personaje número 4"},
    ("Artist", None): {"en": "Beautify your {district} — put 1 of your gold on it: its cost and score rise by 1 for good",
                       "es": "Embellecer tu {district} — le pones 1 de tu oro: su costo y puntuación suben 1 para siempre"},
    ("Tax Collector", None): {"en": "Collect the taxes — take all the gold on the Tax Collector's token",
                              "es": "Recaudar — tomas todo el oro de la ficha del Recaudador"},
})
CHOICE_TEXTS.update({
    "Emperor.crown": {"*": {"en": "Give the crown to {player} (the killed Emperor's adviser takes nothing)",
                            "es": "Dar la corona a {player} (el consejero del Emperador asesinado no toma nada)"}},
})
SELECT_TEXTS.update({
    "Scholar": {"en": "Choose the card to keep; the other cards are shuffled back into the deck",
                "es": "Elige la carta que te quedas; las demás se barajan de nuevo en el mazo"},
    "Cardinal": {"en": "Choose the cards to give, one per gold taken; then the district is built",
                 "es": "Elige las cartas que das, una por cada oro tomado; luego se construye el distrito"},
})
EVENT_TEXTS.update({
    "emperor_took": {"en": "{seat} crowned {player} and took {option} from them.",
                     "es": "{seat} coronó a {player} y le tomó {option}."},
    "abbot_tithe": {"en": "{player}, the richest, gave 1 gold to the Abbot ({seat}).",
                    "es": "{player}, el más rico, dio 1 oro al Abad ({seat})."},
    "cardinal_borrowed": {"en": "The Cardinal ({seat}) took {gold} gold from {player} and gave them {count} card(s).",
                          "es": "El Cardenal ({seat}) tomó {gold} oro de {player} y le dio {count} carta(s)."},
    "alchemist_refund": {"en": "The Alchemist ({seat}) got back the {gold} gold paid to build.",
                         "es": "El Alquimista ({seat}) recuperó los {gold} oros pagados por construir."},
    "scholar_drew": {"en": "The Scholar ({seat}) drew {count} cards.",
                     "es": "El Erudito ({seat}) robó {count} cartas."},
    "scholar_kept": {"en": "The Scholar ({seat}) kept 1 card and shuffled {count} back into the deck.",
                     "es": "El Erudito ({seat}) se quedó 1 carta y barajó {count} en el mazo."},
    "exchanged": {"en": "The Diplomat ({seat}) exchanged his {card} for {player}'s {district}, paying {gold} gold (+{count} to the bank).",
                  "es": "El Diplomático ({seat}) cambió su {card} por {district} de {player}, pagando {gold} oro (+{count} a la banca)."},
    "seized": {"en": "The Marshal ({seat}) seized {player}'s {district}, paying them {gold} gold (+{count} to the bank).",
               "es": "El Mariscal ({seat}) tomó {district} de {player}, pagándole {gold} oro (+{count} a la banca)."},
    "queen_gold": {"en": "The Queen ({seat}) gained 3 gold next to {player}, the {character}.",
                   "es": "La Reina ({seat}) ganó 3 oros al lado de {player}, el {character}."},
    "beautified": {"en": "The Artist ({seat}) beautified the {district}.",
                   "es": "El Artista ({seat}) embelleció {district}."},
    "taxed": {"en": "{seat} paid 1 gold of tax on the {district}.",
              "es": "{seat} pagó 1 oro de impuesto por {district}."},
    "tax_collected": {"en": "The Tax Collector ({seat}) collected {gold} gold of taxes.",
                      "es": "El Recaudador ({seat}) recaudó {gold} oros de impuestos."},
})
# --- end of ranks 4-9 --------------------------------------------------------------------
