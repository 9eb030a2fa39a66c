"""A sub-menu's hint always says what is chosen: with one choice left (a single card to build) it
read "Choose :" (the target word was made only from fields that differ between the choices)."""

from __future__ import annotations

import random

from engine import GameConfig, apply, legal_commands, new_game, view
from ui.i18n import Catalogue
from ui.prompt_model import build_menu

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva"]


def _menus(menu):
    yield menu
    for e in menu.entries:
        if e.submenu is not None:
            yield from _menus(e.submenu)


def test_every_sub_menus_hint_names_what_is_chosen() -> None:
    cat = Catalogue("en")
    single_choice_hints = 0
    for seed in (1, 2, 3, 4):
        g, _ = new_game(GameConfig(players=NAMES, preset="first-game", seed=seed))
        rng = random.Random(seed)
        while g.phase != "over":
            seat = g.pending.seat
            legal = legal_commands(g, seat)
            for menu in _menus(build_menu(view(g, seat), cat)):
                hint = menu.hint.plain if hasattr(menu.hint, "plain") else str(menu.hint or "")
                assert " :" not in hint and not hint.startswith("Choose :"), (seed, g.seq, menu.title, hint)
                if hint.startswith("Choose ") and len([e for e in menu.entries if not e.back and not e.disabled]) == 1:
                    single_choice_hints += 1
            apply(g, rng.choice(legal), check=False)
    assert single_choice_hints, "the games reached a sub-menu with one choice (the case this is about)"
