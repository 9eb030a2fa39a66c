"""Sub-menus made when first opened (`ui.prompt_menu.LazyMenu`, issue 23) hold what the same
sub-menus made at once held: an audited catalogue makes every one at once, and the two menus of
every decision of bots' games are compared whole, every sub-menu opened."""

from __future__ import annotations

import dataclasses

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.random_bot import RandomBot
from ui.i18n import Catalogue
from ui.prompt_menu import Entry, LazyMenu, Menu
from ui.prompt_model import build_menu

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva"]


def _views(seed: int, preset: str):
    g, _ = new_game(GameConfig(players=NAMES, preset=preset, seed=seed))
    bots = [RandomBot(seed=seed * 10 + s) for s in range(len(NAMES))]
    while g.phase != "over":
        s = g.pending.seat
        yield view(g, s)
        apply(g, bots[s].choose(legal_commands(g, s), view(g, s)))


def _whole(menu: Menu) -> tuple:
    """All of a menu, its sub-menus opened (a `LazyMenu` is never equal to a `Menu` as such)."""
    entries = []
    for e in menu.entries:
        fields = dataclasses.astuple(dataclasses.replace(e, submenu=None), tuple_factory=tuple)
        label = (e.label.plain, tuple(e.label.spans), e.label.style)
        entries.append((label, fields, _whole(e.submenu) if e.submenu is not None else None))
    return (menu.title, menu.hint, menu.checklist, tuple(entries))


def _lazy(menu: Menu) -> int:
    """How many sub-menus below `menu` are lazy."""
    return sum(isinstance(e.submenu, LazyMenu) + _lazy(e.submenu) for e in menu.entries if e.submenu is not None)


def test_sub_menus_made_when_opened_are_those_made_at_once():
    lazy = 0
    for lang in ("en", "es"):
        for seed, preset in ((3, "first-game"), (4, "random")):
            for v in _views(seed, preset):
                eager_cat = Catalogue(lang, v.rules)
                eager_cat.audit = []
                eager = build_menu(v, eager_cat)
                cat = Catalogue(lang, v.rules)
                got = build_menu(v, cat)
                lazy += _lazy(got)
                assert _lazy(eager) == 0
                assert _whole(got) == _whole(eager), (lang, seed, v.pending)
    assert lazy > 50


def test_a_lazy_menu_is_made_once_and_replaced_like_a_menu():
    made = []

    def make() -> list[Entry]:
        made.append(1)
        return [Entry(label=None, detail="a")]  # type: ignore[arg-type]

    menu = LazyMenu("title", "hint", make=make)
    assert made == []
    first = menu.entries
    assert menu.entries is first and made == [1]
    other = dataclasses.replace(menu, entries=[])
    assert isinstance(other, LazyMenu) and other.entries == [] and other.title == "title" and other.hint == "hint"
    menu.entries = []
    assert menu.entries == [] and made == [1]


def test_whether_a_card_in_hand_cannot_be_built_is_told_without_its_labels():
    from engine.commands import Build
    from ui.build_list import unbuildable
    from ui.prompt_model import _unbuildable_in_hand

    cat = Catalogue("en")
    answers = set()
    for v in _views(5, "first-game"):
        hand = set(v.players[v.seat].hand or [])
        legal = {c.district for c in v.legal if isinstance(c, Build)}
        for buildable in (set(), legal, hand, hand - {min(hand, default="")}):
            answer = _unbuildable_in_hand(v, buildable)
            assert answer == bool(unbuildable(v, cat, buildable))
            answers.add(answer)
    assert answers == {True, False}
