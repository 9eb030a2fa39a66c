"""Every confirmation names its targets, and the gold it names is the gold the engine takes.

Random legal play over every rule set (2-8 players, presets and random line-ups, the older
editions): at each decision offering an `Ability` with targets, its sentence (what the
confirmation shows) must name each target (the player, the district, the card, the character,
the type) and, for the rank-8 abilities that pay, the price; applying the command must then
take exactly that price (the engine's own event says what was paid).
"""

from __future__ import annotations

import copy
import random

import pytest

from engine import GameConfig, apply, copy_state, legal_commands, new_game, view
from engine.cards.lineups import PRESETS
from engine.commands import Ability
from engine.errors import SetupError
from engine.rules import RULESETS
from ui.i18n import Catalogue
from ui.prompt_labels import Ctx, ability_does
from ui.prompt_model import NO_CONFIRM, build_menu
from ui.prompt_prices import ability_price

pytestmark = pytest.mark.slow  # a sweep: random games of every preset, rule set and player count

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox", "Gus", "Hal"]
PRICED = {"Warlord": "destroyed", "Marshal": "seized", "Diplomat": "exchanged"}


def _configs():
    for n in (2, 3, 4, 5, 6, 7, 8):
        for preset in PRESETS:
            yield GameConfig(players=NAMES[:n], preset=preset, seed=300 + n)
        for i in range(3):
            yield GameConfig(players=NAMES[:n], preset="random", seed=3000 + 10 * n + i)
        for rules in RULESETS:
            if rules != "2016":
                yield GameConfig(players=NAMES[:n], rules=rules, seed=4000 + n)


def _positions():
    """(view of the seat to move, the state, a legal targeted Ability) across many games."""
    for cfg in _configs():
        try:
            g, _ = new_game(cfg)
        except SetupError:
            continue
        rng = random.Random(cfg.seed)
        while g.phase != "over":
            seat = g.pending.seat
            legal = legal_commands(g, seat)
            targeted = [c for c in legal if isinstance(c, Ability) and _targets(c)]
            if targeted:
                yield view(g, seat), g, rng.choice(targeted)
            apply(g, rng.choice(legal), check=False)


def _targets(cmd: Ability) -> list[str]:
    return [f for f in ("player", "district", "card", "character", "kind") if getattr(cmd, f) is not None]


@pytest.fixture(scope="module")
def positions():
    out = []
    for v, g, cmd in _positions():  # copy_state: the compiled build's state caches cannot be deep-copied
        out.append((copy.deepcopy(v), copy_state(g), cmd))
    return out


def test_positions_cover_every_priced_ability(positions):
    names = {cmd.name for _, _, cmd in positions}
    assert set(PRICED) <= names, names
    assert len(positions) > 300


FREE_WORDS = {"en": "nothing", "es": "no te cuesta nada"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_confirmation_names_its_targets(positions, lang):
    missing = []
    for v, _g, cmd in positions:
        cat = Catalogue(lang, v.rules)
        sentence = ability_does(Ctx(v, cat), cmd)
        words = {
            "player": v.players[cmd.player].name if cmd.player is not None else None,
            "district": cat.card(cmd.district) if cmd.district else None,
            "card": cat.card(cmd.card) if cmd.card else None,
            "character": cat.character(cmd.character) if cmd.character else None,
            "kind": cat.kind(cmd.kind) if cmd.kind and cmd.name != "Diplomat" else None,  # the Diplomat's: a copy tag
        }
        for f, w in words.items():
            if w is not None and w not in sentence:
                missing.append((cmd, f, sentence))
        price = ability_price(v, cmd)
        # a price of 0 is said in words ("it costs you nothing", issue 17 item 7), any other as a number
        said = (FREE_WORDS[lang] in sentence) if price is not None and price.total == 0 else None
        if cmd.name in PRICED and (price is None or not (said or str(price.total) in sentence)):
            missing.append((cmd, "price", sentence))
    assert not missing, missing[:10]


def test_targeted_abilities_ask_once(positions):
    for v, _g, cmd in positions[:400]:
        cat = Catalogue("en", v.rules)
        menu = build_menu(v, cat)
        stack = list(menu.entries)
        leaves = []
        while stack:
            e = stack.pop()
            if e.submenu is not None:
                stack += e.submenu.entries
            elif e.command == cmd:
                leaves.append(e)
        assert leaves, cmd
        assert all(e.confirm == (cmd.name not in NO_CONFIRM) for e in leaves), cmd


def test_prices_named_are_the_prices_paid(positions):
    checked = 0
    for v, g, cmd in positions:
        if cmd.name not in PRICED:
            continue
        price = ability_price(v, cmd)
        assert price is not None, cmd
        events = apply(copy_state(g), cmd)
        ev = next(e for e in events if e.kind == PRICED[cmd.name])
        paid, to_owner = (ev.gold, 0) if cmd.name == "Warlord" else (ev.gold + ev.count, ev.gold)
        assert (price.total, price.to_owner) == (paid, to_owner), (cmd, price, ev)
        checked += 1
    assert checked > 50
