"""The prompt is built generically from `view.legal`; the log from event kinds.

Unknown cards, options, choices and event kinds (added to the engine later)
must still get a usable label and sentence; targets are offered one field at a
time and only among legal commands.
"""

from __future__ import annotations

import msgspec

from engine import GameConfig, new_game, view
from engine.commands import Ability, Build, Choose, Confirm, Select, Unselect
from engine.events import Event
from engine.view import PendingView
from ui.i18n import Catalogue
from ui.log_text import LogWriter
from ui.prompt_model import build_menu, waiting_sentence

EN, ES = Catalogue("en"), Catalogue("es")


def a_view(seat: int = 0):
    g, _ = new_game(GameConfig(players=["Ana", "Ben", "Cid", "Dee"], preset="first-game", seed=1))
    return view(g, seat)


def with_legal(v, legal, pending=None):
    return msgspec.structs.replace(v, legal=legal, pending=pending or msgspec.structs.replace(v.pending, seat=0))


def test_warlord_targets_narrow_player_then_district():
    v = a_view()
    legal = [
        Ability(0, "Warlord", player=1, district="Temple"),
        Ability(0, "Warlord", player=1, district="Market"),
        Ability(0, "Warlord", player=2, district="Manor"),
    ]
    menu = build_menu(with_legal(v, legal), EN)
    assert len(menu.entries) == 1
    group = menu.entries[0]
    assert "Destroy a district" in group.label.plain
    players = group.submenu.entries
    assert [e.label.plain.split()[0] for e in players] == ["Ben", "Cid"]
    ben = players[0].submenu.entries
    assert [e.command.district for e in ben] == ["Temple", "Market"]
    assert "Ben's Temple" in ben[0].detail and ben[0].confirm
    cid = players[1]  # a single target: a leaf straight away
    assert cid.command == legal[2] and "Cid's Manor" in cid.detail


def test_unknown_card_and_option_get_generic_labels():
    v = a_view()
    legal = [
        Ability(0, "Gizmo", option="spin", kind="trade"),
        Ability(0, "Gizmo", option="spin", kind="noble"),
        Ability(0, "Laboratory", card="Temple"),
    ]
    menu = build_menu(with_legal(v, legal), EN)
    labels = [e.label.plain for e in menu.entries]
    assert labels[0] == "Gizmo · Gizmo: spin"
    assert [e.label.plain for e in menu.entries[0].submenu.entries] == ["trade", "noble"]
    assert labels[1] == "Laboratory · Discard a card for 2 gold"
    assert "Temple" in menu.entries[1].detail
    es = build_menu(with_legal(v, legal), ES)
    assert es.entries[1].label.plain.startswith("Laboratorio")
    assert [e.label.plain for e in es.entries[0].submenu.entries] == ["comercial", "noble"]


def test_choice_and_select_use_catalogue_or_the_raw_option():
    v = a_view()
    pending = PendingView(kind="choice", seat=0, waiting="", about="Theater.swap", options=["yes", "maybe"])
    menu = build_menu(with_legal(v, [Choose(0, "yes"), Choose(0, "maybe")], pending), EN)
    assert [e.label.plain for e in menu.entries] == ["Yes", "maybe"]
    pending = PendingView(
        kind="select_cards",
        seat=0,
        waiting="",
        about="Magician",
        min=0,
        max=4,
        options=["Temple", "Manor"],
        selected=["Manor"],
    )
    menu = build_menu(with_legal(v, [Select(0, "Temple"), Unselect(0, "Manor"), Confirm(0)], pending), EN)
    # the Done step names the cards that go (issue 17: "which cards go and how many come back")
    assert [e.label.plain for e in menu.entries] == [
        "[ ]  R1 Temple ",
        "[x]  N3 Manor ",
        "Discard Manor and draw 1 card",
    ]  # count with its unit


def test_build_alternatives_are_grouped_by_way_of_building():
    v = a_view()
    legal = [
        Build(0, "Temple"),
        Build(0, "Manor"),
        Build(0, "Manor", via="Framework"),
        Build(0, "Temple", via="Necropolis", using="Market"),
    ]
    menu = build_menu(with_legal(v, legal), EN)
    labels = [e.label.plain for e in menu.entries]
    assert labels[0] == "Build a district"
    assert labels[1].startswith("Build using the Framework")
    builds = [e for e in menu.entries[0].submenu.entries if not e.disabled]
    assert [e.command.district for e in builds] == ["Temple", "Manor"]


def test_build_list_shows_every_district_in_hand():
    """The districts in hand that cannot be built now follow the others, dimmed, with the gold missing;
    choosing one does nothing."""
    v = a_view()
    me = v.players[0]
    hand = ["Temple", "Palace", "Cathedral", "Manor"]
    players = list(v.players)
    players[0] = msgspec.structs.replace(me, hand=hand, gold=3)
    v = msgspec.structs.replace(v, players=players)
    menu = build_menu(with_legal(v, [Build(0, "Temple"), Build(0, "Manor")]), EN)
    entries = menu.entries[0].submenu.entries
    assert [e.command.district for e in entries if not e.disabled] == ["Temple", "Manor"]
    shown = [e for e in entries if e.disabled]
    assert [e.label.plain.strip() for e in shown] == ["N5 Palace  2 gold short", "R5 Cathedral  2 gold short"]
    assert all(e.command is None and e.submenu is None for e in shown)
    assert "costs 5 gold; you have 3" in shown[0].detail
    # a single legal build is still a list when other cards cannot be built
    one = build_menu(with_legal(v, [Build(0, "Temple")]), EN)
    assert one.entries[0].submenu is not None and len(one.entries[0].submenu.entries) == 4


def test_waiting_sentence_names_the_character():
    v = a_view(seat=1)
    assert not v.legal
    assert waiting_sentence(v, EN).startswith("Waiting for")
    menu = build_menu(v, ES)
    assert menu.entries == [] and menu.title.startswith("Esperando")


def test_log_sentences_private_hidden_and_unknown():
    names = ["Ana", "Ben"]
    w = LogWriter(EN, seat=0)
    assert w.line(Event("revealed", seat=1, character="Warlord"), names).text == "Ben reveals the Warlord."
    line = w.line(Event("destroyed", seat=1, player=0, district="Market", gold=1, character="Warlord"), names)
    assert line.text == "Ben (Warlord) destroys Ana's Market for 1 gold."
    mine = w.line(Event("character_picked", seat=0, character="King", private=[0]), names)
    assert mine.private and mine.text == "Ana chose the King."
    theirs = w.line(Event("character_picked", seat=1, private=[1]), names)
    assert not theirs.private and theirs.text == "Ben chose a character."
    odd = w.line(Event("gizmo_spun", seat=1, player=0, gold=2), names)
    assert odd.text.startswith("gizmo_spun: Ben") and "Ana" in odd.text
    es = LogWriter(ES, seat=0)
    assert (
        es.line(Event("built", seat=0, district="Watchtower", gold=1), names).text
        == "Ana construye la Atalaya por 1 moneda de oro."  # the article, the plural form (issue 17 item 7)
    )


def test_spanish_catalogue_has_every_english_key():
    from ui.i18n import _load

    missing = set(_load("en")) - set(_load("es"))
    assert not missing, sorted(missing)
