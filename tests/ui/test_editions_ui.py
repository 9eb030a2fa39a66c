"""Every card text shown to players is the text of the rule set in play (issue 10).

One test per rule family (2016, Classic 2016 box, 2000, 2000 with The Dark
City): a local table of that rule set (`LocalTable`, bots play instantly), the
help screen opened with F1, the character selection's texts, the "You" panel
after picking a character (its ability text) and the hand (unique districts'
effects and costs). The older editions' names, ranks, costs and texts show;
2016 games keep the 2016 ones. Plus the Hospital's gather-only turn, which is
not a bewitched one, and the texts' one home (the UI catalogues).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ui_helpers import NAMES, screen_text

from engine import GameConfig, new_game, redact_events, view
from engine.cards import editions
from engine.scenario.format import load
from engine.scenario.runner import build_state
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.i18n import Catalogue, _load
from ui.local_game import LocalTable
from ui.screens.help import HelpScreen, help_text
from ui.widgets.hand import HandPanel
from ui.widgets.prompt import PromptPanel

ROOT = Path(__file__).resolve().parents[2]
SIZE = (160, 60)


def flat(s: str) -> str:
    return re.sub(r"\s+", " ", s)


def _config(rules: str, seed: int, **kw) -> GameConfig:
    preset = "first-game" if rules.startswith("2016") else None
    return GameConfig(players=NAMES[:4], rules=rules, seed=seed, preset=preset, **kw)


def _seed_with(rules: str, character: str, **kw) -> int:
    """A seed whose crowned player (who chooses first) is offered `character`."""
    for seed in range(1, 200):
        g, _ = new_game(_config(rules, seed, **kw))
        if character in view(g, g.crown).pool:
            return seed
    raise AssertionError(f"no seed offers the {character} first")


async def _play(rules: str, lang: str, pick: str, hand: list[str], **kw) -> dict[str, str]:
    """Open a table of `rules`, look at the help and the selection, pick `pick`, look at "You"."""
    seed = _seed_with(rules, pick, **kw)
    g0, _ = new_game(_config(rules, seed, **kw))
    table = LocalTable(_config(rules, seed, **kw), human_seat=g0.crown, bot_delay=0)
    table.state.players[g0.crown].hand[: len(hand)] = hand  # the cards whose texts we read
    app = CitadelsApp(table, UiOptions(lang=lang, name=NAMES[g0.crown]))
    out: dict[str, str] = {}
    async with app.run_test(size=SIZE) as pilot:
        prompt = app.table.query_one(PromptPanel)
        for _ in range(100):
            await pilot.pause()
            if prompt.menu is not None and prompt.menu.entries and not prompt.sent:
                break
        assert app.view.rules == rules and app.view.pending.kind == "pick_character"
        entries = prompt.menu.entries
        # the rank is the entry's key (shown before the name): "2 Tax Collector"
        out["selection"] = flat(" | ".join(e.key + " " + e.label.plain + ": " + e.detail for e in entries))
        out["hand"] = flat(" ".join(t.plain for t in app.table.query_one(HandPanel).lines(400)))
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        out["help_screen"] = screen_text(app)
        out["help"] = flat(help_text(app.cat, app.view).plain)
        await pilot.press("escape")
        await pilot.pause()
        i = next(i for i, e in enumerate(entries) if getattr(e.command, "character", None) == pick)
        await pilot.press(entries[i].key)  # its rank
        for _ in range(100):
            await pilot.pause()
            me = app.view.players[app.view.seat]
            if pick in me.characters:
                break
        out["you"] = flat(" ".join(t.plain for t in app.table.query_one(HandPanel).lines(400)))
        out["screen"] = screen_text(app)
    return out


def _text(lang: str, key: str) -> str:
    return flat(_load(lang)[key])


async def test_2016_games_show_the_2016_texts():
    out = await _play("2016", "en", "Warlord", ["Laboratory", "Observatory"])
    warlord = _text("en", "character_text.Warlord")
    assert "not the Keep" in warlord
    for part in ("help", "selection", "you"):
        assert warlord in out[part], part
    assert _text("en", "district_text.Laboratory") in out["hand"]  # 2 gold
    assert "gain 2 gold" in out["hand"] and "U4 Observatory" in out["hand"]
    assert "8 Warlord" in out["help_screen"]
    assert "highest rank" in out["help"] and re.search(r"1 to [89]\.", out["help"])
    es = await _play("2016", "es", "Warlord", [])
    assert "8 Guerrero" in es["help"] and "Condotiero" not in es["help"] + es["screen"]


async def test_classic_box_names_and_texts_in_spanish():
    out = await _play("classic", "es", "Warlord", ["Smithy", "Graveyard"])
    classic = _text("es", "classic:character_text.Warlord")
    assert "cualquier momento de tu turno" in classic
    for part in ("help", "selection", "you"):
        assert classic in out[part], part
        assert "Guerrero" not in out[part] and "Hechicera" not in out[part]
    assert "8 Condotiero" in out["help_screen"] and "8 Condotiero" in out["screen"]
    assert "3 Mago" in out["help"]  # the Classic box's Magician
    assert "U5 Fábrica" in out["hand"] and "Herrería" not in out["hand"]  # its Smithy
    assert "Condotiero destruye" in out["hand"]  # the Graveyard's text names the Warlord as printed
    assert "del 1 al 8" in out["help"]
    en = await _play("classic", "en", "Warlord", ["Laboratory"])
    assert "at any time of your turn" in en["you"] and "gain 2 gold" in en["hand"]  # Classic keeps 2016's Lab


@pytest.mark.slow  # two tables of the 2000 rules, in English and Spanish (the other editions' tables stay fast)
async def test_original_2000_texts_costs_and_names():
    out = await _play("original-2000", "en", "Assassin", ["Laboratory", "Observatory", "Haunted Quarter"])
    assert "gain 1 gold" in out["hand"] and "gain 2 gold" not in out["hand"]  # the 2000 Laboratory
    assert "U5 Observatory" in out["hand"]  # costs 5 in 2000
    assert "Haunted City" in out["hand"] and "built it in the last round" in out["hand"]
    assassin = _text("en", "2000:character_text.Assassin")
    for part in ("help", "selection", "you"):
        assert assassin in out[part], part
    assert _text("en", "2000:character_text.Warlord") in out["help"]
    assert "gain 1 gold" in out["help"] and "most gold left" in out["help"] and "1 to 8" in out["help"]
    es = await _play("original-2000", "es", "Merchant", ["Laboratory"])
    assert "6 Comerciante" in es["help_screen"] and "8 Condottiere" in es["help"]
    assert "ganar 1 oro" in es["hand"]


async def test_dark_city_tax_collector_rank_2_and_its_districts():
    kw = dict(characters=["Tax Collector"], uniques=["Hospital", "Imperial Treasury", "Poor House"])
    out = await _play("dark-city", "en", "Tax Collector", ["Imperial Treasury", "Poor House", "Factory"], **kw)
    assert "2 Tax Collector" in out["help_screen"] and "9 Tax Collector" not in out["help"]
    assert "2 Tax Collector" in out["selection"] and "2 Tax Collector" in out["you"]
    tc = _text("en", "2000:character_text.Tax Collector")
    assert tc in out["help"] and tc in out["you"]
    assert "U4 Imperial Treasury" in out["hand"] and "U5 Poor House" in out["hand"] and "U6 Factory" in out["hand"]
    assert _text("en", "district_text.Hospital") in out["help"]
    assert "Not used without the Assassin" in out["help"]


async def test_hospital_turn_is_not_a_bewitched_turn():
    sc = load((ROOT / "tests/scenarios/editions/dark-city/hospital_killed_still_gathers.toml").read_text())
    g, ev = build_state(sc)
    v = view(g, 0)
    assert v.turn.gather_only_reason == "hospital"
    for lang, want in (("en", "the Hospital"), ("es", "el Hospital")):
        app = CitadelsApp(None, UiOptions(lang=lang))
        async with app.run_test(size=(80, 24)) as pilot:
            app.post_message(ViewUpdate(v, redact_events(ev, 0)))
            await pilot.pause()
            text = screen_text(app)
            prompt = app.table.query_one(PromptPanel)
            assert want in prompt.menu.title
            assert "ewitch" not in text and "echiz" not in text


def test_catalogue_follows_the_rule_set_and_keeps_one_home_for_texts():
    cat = Catalogue("es", "dark-city")
    assert (cat.edition, cat.rank("Tax Collector"), cat.cost("Observatory")) == ("2000", 2, 5)
    assert cat.character("Warlord") == "Condottiere" and cat.district("Armory") == "Polvorín"
    assert cat.set_rules("2016") and (cat.rank("Tax Collector"), cat.cost("Observatory")) == (9, 4)
    assert cat.key == "es" and not cat.set_rules("2016-classic-variant")
    # the older texts live in the UI catalogues only, and override keys that exist
    assert not hasattr(editions, "RULE_TEXTS") and not hasattr(editions, "rule_text")
    for lang in ("en", "es"):
        texts = _load(lang)
        for k in texts:
            ed, sep, base = k.partition(":")
            if sep and ed in editions.EDITIONS:
                assert base in texts, f"{lang}: {k} overrides no 2016 key"
    assert {k for k in _load("en") if ":" in k.split(".")[0]} == {k for k in _load("es") if ":" in k.split(".")[0]}


@pytest.mark.parametrize("rules", ["2016", "classic", "original-2000", "dark-city"])
def test_help_without_a_game_and_after_a_game_of_another_edition(rules):
    g, _ = new_game(_config(rules, 3))
    cat = Catalogue("en")
    t = help_text(cat, view(g, 0)).plain
    assert cat.edition == editions_of(rules) and "?" not in re.findall(r"\{\w*\}", t)
    assert help_text(Catalogue("en"), None).plain  # no game: the keys and the rules


def editions_of(rules: str) -> str:
    from engine.rules import RULESETS

    return RULESETS[rules].edition
