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

# --- unique districts (Armory ... Wishing Well) ----------------------------------------------
# Builds paid another way are `Build(district, via=card, using=...)`: their texts are
# ABILITY_TEXTS[(card, "build")] ({district} the district built, {using} the one destroyed).
# The Theater's options in 2-3 player games are "<seat>:<character to give>": key "*:*".
ABILITY_TEXTS.update({
    ("Laboratory", None): {"en": "Laboratory: discard {card} for 2 gold — the card goes to the deck bottom; once per turn",
                           "es": "Laboratorio: descartar {card} por 2 oros — la carta va al fondo del mazo; una vez por turno"},
    ("Smithy", None): {"en": "Smithy: pay 2 gold, gain 3 cards — once per turn",
                       "es": "Herrería: pagar 2 oros y ganar 3 cartas — una vez por turno"},
    ("Museum", None): {"en": "Museum: put {card} under the Museum — face down; 1 point per card at game end; once per turn",
                       "es": "Museo: poner {card} bajo el Museo — boca abajo; 1 punto por carta al final; una vez por turno"},
    ("Armory", None): {"en": "Armory: destroy {player}'s {district} — your Armory is destroyed too",
                       "es": "Armería: destruir {district} de {player} — tu Armería también se destruye"},
    ("Framework", "build"): {"en": "Build {district} by destroying the Framework — instead of paying its cost",
                             "es": "Construir {district} destruyendo el Andamio — en lugar de pagar su costo"},
    ("Necropolis", "build"): {"en": "Build the Necropolis by destroying your {using} — instead of paying its cost",
                              "es": "Construir la Necrópolis destruyendo tu {using} — en lugar de pagar su costo"},
    ("Thieves' Den", "build"): {"en": "Build the Thieves' Den paying with cards — each card from your hand pays 1 gold",
                                "es": "Construir la Guarida de Ladrones pagando con cartas — cada carta de tu mano paga 1 oro"},
})
CHOICE_TEXTS.update({
    "Theater": {
        "pass": {"en": "Keep your character", "es": "Quedarte con tu personaje"},
        "*": {"en": "Exchange your character with {player}'s, unseen",
              "es": "Cambiar tu personaje por el de {player}, sin verlo"},
        "*:*": {"en": "Give your {character} to {player} and take one of theirs at random",
                "es": "Dar tu {character} a {player} y tomar uno de los suyos al azar"},
    },
})
SELECT_TEXTS.update({
    "Thieves' Den": {"en": "Choose the cards that pay for the Thieves' Den, 1 gold each; gold pays the rest",
                     "es": "Elige las cartas que pagan la Guarida de Ladrones, 1 oro cada una; el oro paga el resto"},
})
EVENT_TEXTS.update({
    "laboratory": {"en": "{seat} discards a card at the Laboratory for 2 gold.",
                   "es": "{seat} descarta una carta en el Laboratorio por 2 oros."},
    "smithy": {"en": "{seat} pays 2 gold at the Smithy and gains {count} cards.",
               "es": "{seat} paga 2 oros en la Herrería y gana {count} cartas."},
    "museum": {"en": "{seat} puts a card under the Museum ({count} there now).",
               "es": "{seat} pone una carta bajo el Museo (ahora hay {count})."},
    "armory": {"en": "{seat} destroys the Armory to destroy {player}'s {district}.",
               "es": "{seat} destruye la Armería para destruir {district} de {player}."},
    "sacrificed": {"en": "{seat} destroys their {district} to build ({option}).",
                   "es": "{seat} destruye su {district} para construir ({option})."},
    "thieves_den": {"en": "{seat} pays for the Thieves' Den with {count} cards and {gold} gold.",
                    "es": "{seat} paga la Guarida de Ladrones con {count} cartas y {gold} oros."},
    "park": {"en": "{seat} has no cards left: the Park gives {count} cards.",
             "es": "{seat} no tiene cartas: el Parque le da {count} cartas."},
    "poor_house": {"en": "{seat} has no gold left: the Poor House gives 1 gold.",
                   "es": "{seat} no tiene oro: el Hospicio le da 1 oro."},
    "theater": {"en": "{seat} uses the Theater: exchanges characters with {player}.",
                "es": "{seat} usa el Teatro: cambia de personaje con {player}."},
    "theater_received": {"en": "{seat} now holds the {character}.",
                         "es": "{seat} tiene ahora el personaje {character}."},
    "theater_passed": {"en": "{seat} keeps their character (Theater).",
                       "es": "{seat} se queda con su personaje (Teatro)."},
})
# --- end of unique districts -------------------------------------------------------------------

# --- ranks 1-3 (Witch, Magistrate, Spy, Blackmailer, Wizard, Seer) ----------------------------
# In the Magistrate.warrant, Blackmailer.threat and Wizard.take choices the option is a character
# or a district name: "*" stands for it, written {option}.
ABILITY_TEXTS.update({
    ("Witch", None): {"en": "Bewitch the {character} — your turn pauses; when the {character} is called, its player only gathers and you resume as the {character}",
                      "es": "Embrujar a {character} — tu turno se pausa; cuando llamen a {character}, su jugador sólo recoge recursos y tú reanudas como {character}"},
    ("Magistrate", None): {"en": "Sign the warrant for the {character} — then choose two more characters for unsigned warrants; if the {character} pays to build, you may take that district",
                           "es": "Firmar la orden para {character} — luego eliges otros dos personajes para órdenes sin firmar; si {character} paga por construir, puedes quedarte ese distrito"},
    ("Spy", None): {"en": "Spy on {player}'s hand for {kind} districts — take 1 gold from them (as far as it goes) and 1 card from the deck per matching card",
                    "es": "Espiar la mano de {player} buscando distritos de tipo {kind} — por cada carta de ese tipo tomas 1 oro suyo (mientras tenga) y 1 carta del mazo"},
    ("Blackmailer", None): {"en": "Put the flowered threat on the {character} — then choose a second character for the plain threat",
                            "es": "Poner la amenaza florida sobre {character} — luego eliges un segundo personaje para la amenaza sin marcar"},
    ("Wizard", None): {"en": "Look at {player}'s hand — take one card, then build it at once (outside your limit) or keep it",
                       "es": "Mirar la mano de {player} — tomas una carta y la construyes ya (fuera de tu límite) o te la quedas"},
    ("Seer", None): {"en": "Take a random card from each other player — then give one card back to each of them",
                     "es": "Tomar una carta al azar de cada otro jugador — luego le devuelves una carta a cada uno"},
})
CHOICE_TEXTS.update({
    "Magistrate.warrant": {"*": {"en": "Unsigned warrant on the {option} — it threatens nothing, it hides the signed one",
                                 "es": "Orden sin firmar sobre {option} — no amenaza nada, esconde la firmada"}},
    "Magistrate.reveal": {
        "reveal": {"en": "Reveal the signed warrant — take the district into your city for free; its builder gets the gold back",
                   "es": "Revelar la orden firmada — el distrito pasa gratis a tu ciudad; quien lo pagó recupera el oro"},
        "pass": {"en": "Do not reveal — the district is built in its builder's city",
                 "es": "No revelar — el distrito se construye en la ciudad de quien lo pagó"},
    },
    "Blackmailer.threat": {"*": {"en": "Plain threat on the {option}",
                                 "es": "Amenaza sin marcar sobre {option}"}},
    "Blackmailer.bribe": {
        "bribe": {"en": "Bribe the Blackmailer — give half your gold (rounded down); your threat is removed unrevealed",
                  "es": "Sobornar al Chantajista — le das la mitad de tu oro (redondeando abajo); tu amenaza se retira sin revelarse"},
        "refuse": {"en": "Refuse — the Blackmailer may reveal your threat; if it is the flowered one, you lose all your gold",
                   "es": "Negarse — el Chantajista puede revelar tu amenaza; si es la florida, pierdes todo tu oro"},
    },
    "Blackmailer.reveal": {
        "reveal": {"en": "Reveal the threat — if it is the flowered one, take all their gold",
                   "es": "Revelar la amenaza — si es la florida, te llevas todo su oro"},
        "pass": {"en": "Do not reveal — the threat stays face down",
                 "es": "No revelar — la amenaza sigue boca abajo"},
    },
    "Wizard.take": {"*": {"en": "Take the {option}", "es": "Tomar {option}"}},
    "Wizard.use": {
        "build": {"en": "Build it now — pay its cost; it does not count toward your build limit",
                  "es": "Construirlo ya — pagas su costo; no cuenta para tu límite de construcción"},
        "keep": {"en": "Keep it — add it to your hand", "es": "Quedártelo — lo añades a tu mano"},
    },
})
SELECT_TEXTS.update({
    "Seer": {"en": "Choose the card to give back to the player named in the log (any card of your hand)",
             "es": "Elige la carta que devuelves al jugador indicado en el registro (cualquier carta de tu mano)"},
})
EVENT_TEXTS.update({
    "bewitched": {"en": "{seat} (Witch) bewitches the {character}.", "es": "{seat} (Bruja) embruja a {character}."},
    "witch_resumed": {"en": "{seat} (Witch) resumes her turn as the {character}; {player} only gathered.",
                      "es": "{seat} (Bruja) reanuda su turno como {character}; {player} sólo recogió recursos."},
    "warrants_placed": {"en": "{seat} (Magistrate) puts three warrants face down on characters.",
                        "es": "{seat} (Magistrado) pone tres órdenes boca abajo sobre personajes."},
    "warrant_signed": {"en": "You signed the warrant on the {character}.", "es": "Firmaste la orden sobre {character}."},
    "warrant_revealed": {"en": "{seat} reveals the signed warrant on the {character}: takes {player}'s {district}; {player} gets {gold} gold back.",
                         "es": "{seat} revela la orden firmada sobre {character}: se queda {district} de {player}; {player} recupera {gold} oro."},
    "warrant_passed": {"en": "{seat} (Magistrate) does not reveal a warrant; {player} builds the {district}.",
                       "es": "{seat} (Magistrado) no revela ninguna orden; {player} construye {district}."},
    "spied": {"en": "{seat} (Spy) looks at {player}'s hand for {option} districts: {count} found, takes {gold} gold.",
              "es": "{seat} (Espía) mira la mano de {player} buscando distritos de tipo {option}: {count} encontrados, toma {gold} oro."},
    "spy_gained": {"en": "{seat} (Spy) gains {count} cards.", "es": "{seat} (Espía) gana {count} cartas."},
    "threats_placed": {"en": "{seat} (Blackmailer) puts two threats face down on characters.",
                       "es": "{seat} (Chantajista) pone dos amenazas boca abajo sobre personajes."},
    "threat_flowered": {"en": "You put the flowered threat on the {character}.",
                        "es": "Pusiste la amenaza florida sobre {character}."},
    "bribed": {"en": "{seat} bribes {player} with {gold} gold; the threat on the {character} is removed unrevealed.",
               "es": "{seat} soborna a {player} con {gold} oro; la amenaza sobre {character} se retira sin revelarse."},
    "bribe_refused": {"en": "{seat} refuses to bribe {player}.", "es": "{seat} se niega a sobornar a {player}."},
    "threat_revealed": {"en": "{seat} reveals the threat on the {character} ({option}): takes {gold} gold from {player}.",
                        "es": "{seat} revela la amenaza sobre {character} ({option}): toma {gold} oro de {player}."},
    "threat_kept": {"en": "{seat} does not reveal the threat on the {character}.",
                    "es": "{seat} no revela la amenaza sobre {character}."},
    "wizard_looked": {"en": "{seat} (Wizard) looks at {player}'s hand.", "es": "{seat} (Mago) mira la mano de {player}."},
    "wizard_took": {"en": "{seat} (Wizard) takes a card from {player}.", "es": "{seat} (Mago) toma una carta de {player}."},
    "seer_took": {"en": "{seat} (Seer) takes a random card from {player}.",
                  "es": "{seat} (Vidente) toma una carta al azar de {player}."},
    "seer_give_to": {"en": "{seat} (Seer) chooses a card to give to {player}.",
                     "es": "{seat} (Vidente) elige una carta para dar a {player}."},
    "seer_gave": {"en": "{seat} (Seer) gives a card to {player}.", "es": "{seat} (Vidente) da una carta a {player}."},
})
# --- end of ranks 1-3 ---------------------------------------------------------------------------
