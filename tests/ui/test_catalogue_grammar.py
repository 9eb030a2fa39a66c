"""Words by the language's rules: plural forms, Spanish articles, sentences without zeros, a bot's
name marked once (issue 17, item 7)."""

from __future__ import annotations

import pytest

from engine import redact_event
from engine.events import Event
from ui.i18n import Catalogue
from ui.log_text import LogWriter

EN, ES = Catalogue("en"), Catalogue("es")
NAMES = ["Ana", "Mason (bot)"]


@pytest.mark.parametrize(
    ("cat", "key", "forms"),
    [
        (EN, "ui.cards_n", {0: "0 cards", 1: "1 card", 2: "2 cards", 11: "11 cards"}),
        (ES, "ui.cards_n", {0: "0 cartas", 1: "1 carta", 2: "2 cartas"}),
        (EN, "ui.gold_n", {1: "1 gold", 3: "3 gold"}),
        (ES, "ui.gold_n", {1: "1 oro", 3: "3 de oro"}),
        (EN, "replay.points", {1: "1 point", 24: "24 points"}),
        (ES, "replay.points", {1: "1 punto", 24: "24 puntos"}),
        (ES, "ui.chat_unread", {1: "chat: 1 nuevo (Tab)", 4: "chat: 4 nuevos (Tab)"}),
    ],
)
def test_plural_forms_follow_the_language(cat, key, forms):
    for n, text in forms.items():
        assert cat.t(key, n=n) == text


def test_amounts_in_sentences():
    assert EN.t("event.gathered_cards_hidden", who="Ana", count=1) == "Ana draws 1 card."
    assert EN.t("event.gathered_cards_hidden", who="Ana", count=2) == "Ana draws 2 cards."
    assert ES.t("event.gathered_gold", who="Ana", gold=1) == "Ana toma 1 moneda de oro."
    assert ES.t("event.gathered_gold", who="Ana", gold=2) == "Ana toma 2 monedas de oro."
    assert EN.t("event.extra_cards_hidden", who="Ana", count=1) == "Ana draws 1 extra card."
    assert EN.t("event.game_started", count=4, who="Ana") == "A game for 4 players begins; Ana holds the crown."


def test_a_plural_text_asked_without_a_number_is_audited():
    cat = Catalogue("en")
    cat.audit = []
    cat.t("ui.cards_n")
    assert "no-count:ui.cards_n" in cat.audit


def test_spanish_card_names_take_their_article():
    w = LogWriter(ES, seat=0)
    line = w.line(Event("killed", seat=0, character="King"), NAMES).text
    assert line.endswith("asesina al Rey."), line
    assert w.line(Event("killed", seat=0, character="Queen"), NAMES).text.endswith("asesina a la Reina.")
    built = w.line(Event("built", seat=0, district="Stables", gold=2), NAMES).text
    assert built == "Ana construye los Establos por 2 monedas de oro."
    den = w.line(Event("built", seat=0, district="Thieves' Den", gold=1), NAMES).text
    assert "construye la Guarida de Ladrones" in den
    old = Catalogue("es", rules="original-2000")  # an older edition's name has its own gender: el Polvorín
    assert old.t("event.built", who="Ana", district=old.district("Armory"), gold=3).startswith(
        "Ana construye el Polvorín"
    )
    # no article after a possessive: "destruye su Mercado"
    assert "su Mercado" in ES.t("event.sacrificed", who="Ana", district=ES.district("Market"), option="x")


def test_income_never_says_zero():
    for seat in (0, 1):
        w = LogWriter(EN, seat=seat)
        gold = w.line(Event("income", seat=0, character="King", gold=2, count=0, private=[0]), NAMES).text
        assert gold == "Ana (King) takes income: 2 gold.", gold
        cards = Event("income", seat=0, character="Abbot", gold=0, count=1, cards=["Market"], private=[0])
        assert w.line(cards, NAMES).text == "Ana (Abbot) takes income: 1 card."
        both = Event("income", seat=0, character="Abbot", gold=1, count=1, private=[0])
        assert w.line(both, NAMES).text == "Ana (Abbot) takes income: 1 gold and 1 card."
        none = Event("income", seat=0, character="King", gold=0, count=0, private=[0])
        assert w.line(none, NAMES).text == "Ana (King) has no income to take."


def test_a_bot_is_marked_once_and_a_way_of_building_only_when_it_is_another_card():
    w = LogWriter(EN, seat=0)
    line = w.line(Event("income", seat=1, character="Architect", gold=1, count=0), NAMES).text
    assert line == "Mason (bot, Architect) takes income: 1 gold."
    den = w.line(Event("built", seat=0, district="Thieves' Den", option="Thieves' Den", gold=2), NAMES).text
    assert den == "Ana builds the Thieves' Den for 2 gold."
    framework = w.line(Event("built", seat=0, district="Castle", option="Framework", gold=0), NAMES).text
    assert "using the Framework" in framework


def test_tax_paid_to_a_player_names_the_player():
    w = LogWriter(EN, seat=0)
    line = w.line(Event("taxed", seat=0, player=1, gold=1, character="Tax Collector"), NAMES).text
    assert line == "Ana pays 1 gold of tax to Mason (bot)."
    on = w.line(Event("taxed", seat=0, district="Market", gold=1, character="Tax Collector"), NAMES).text
    assert on == "Ana pays 1 gold of tax on the Market."


def test_no_zero_amounts_and_the_thiefs_victim_named_once():
    w = LogWriter(EN, seat=0)
    den = Event("thieves_den", seat=0, count=6, gold=0, cards=["Market"] * 6, private=[0])
    assert w.line(den, NAMES).text.startswith("Ana pays for the Thieves' Den with 6 cards (")
    other = LogWriter(EN, seat=1).line(redact_event(den, 1), NAMES).text
    assert other == "Ana pays for the Thieves' Den with 6 cards."
    built = w.line(Event("built", seat=0, district="Thieves' Den", option="Thieves' Den", gold=0), NAMES).text
    assert built == "Ana builds the Thieves' Den without paying gold."
    stole = w.line(Event("stole", seat=0, player=1, gold=0, character="King"), NAMES).text
    assert stole == "Ana robs Mason (bot, King), who has no gold."
    stole = LogWriter(ES, seat=0).line(Event("stole", seat=0, player=1, gold=3, character="King"), NAMES).text
    assert stole == "Ana roba 3 monedas de oro a Mason (bot, Rey)."
    assert w.line(Event("redrew", seat=0, count=0), NAMES).text == "Ana discards no cards."
    one = LogWriter(ES, seat=0).line(Event("redrew", seat=0, count=1, cards=["Market"], private=[0]), NAMES).text
    assert one == "Ana descarta 1 carta y roba otra: Mercado."


BAD = [
    r"\b0 (cards|gold|cartas|monedas?)\b",  # a zero said as an amount
    r"\b1 (cards|cartas|monedas|points|puntos)\b",  # a singular count with a plural unit
    r"\b[02-9] (card|carta|moneda|point|punto)\b",
    r"\(bot\) \(",  # a bot's name marked twice
    r"\?|\{",  # an unfilled field
    r"\b(the the|el el|la la|a el|de el)\b",
]


@pytest.mark.parametrize("rules", ["2016", "classic", "original-2000"])
def test_random_games_read_right_in_both_languages(rules):
    """Every log line of random games, for a player and a spectator, in English and Spanish."""
    import random
    import re

    from engine import GameConfig, apply, legal_commands, new_game

    names = ["Ana", "Ben (bot)", "Cid", "Dee (bot)"]
    lines = 0
    for seed in range(3):
        g, evs = new_game(GameConfig(players=names[: 3 + seed % 2], seed=seed, rules=rules))
        rng = random.Random(seed)
        writers = [LogWriter(Catalogue(lang, rules), seat) for lang in ("en", "es") for seat in (0, None)]
        while True:
            for ev in evs:
                for w in writers:
                    text = w.line(redact_event(ev, w.seat), names).text
                    lines += 1
                    bad = [p for p in BAD if re.search(p, text)]
                    assert not bad, (text, bad)
            if g.phase == "over":
                break
            evs = apply(g, rng.choice(legal_commands(g, g.pending.seat)), check=False)
    assert lines > 1000


@pytest.mark.parametrize("rules", ["2016", "original-2000", "dark-city"])
def test_random_games_menus_and_waiting_lines_read_right(rules):
    """Every menu entry (label and what it does) and waiting line of random games, en and es."""
    import random
    import re

    from engine import GameConfig, apply, legal_commands, new_game, view
    from ui.prompt_model import build_menu, waiting_sentence

    names = ["Ana", "Ben (bot)", "Cid", "Dee (bot)"]
    cats = [Catalogue(lang, rules) for lang in ("en", "es")]
    bad_marks = [p for p in BAD if p != r"\?|\{"] + [r"\{"]  # "?" ends a question here
    texts = 0

    def check(text: str) -> None:
        nonlocal texts
        texts += 1
        bad = [p for p in bad_marks if re.search(p, text)]
        assert not bad, (text, bad)

    def walk(menu, depth=0):
        for e in menu.entries:
            check(e.label.plain)
            check(e.detail or "")
            if e.submenu is not None and depth < 3:
                walk(e.submenu, depth + 1)

    for seed in range(2):
        g, _ = new_game(GameConfig(players=names[: 3 + seed], seed=seed, rules=rules))
        rng = random.Random(seed)
        while g.phase != "over":
            seat = g.pending.seat
            mine, other = view(g, seat), view(g, (seat + 1) % len(g.players))
            for cat in cats:
                walk(build_menu(mine, cat))
                check(waiting_sentence(other, cat))
            apply(g, rng.choice(legal_commands(g, seat)), check=False)
    assert texts > 1000
