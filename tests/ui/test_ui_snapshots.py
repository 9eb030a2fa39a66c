"""Snapshots of the table at 80x24 and 120x40, in English and Spanish:
at character selection, mid-turn with an ability's target list open, and at
the end of the game (the score table). Seeds are fixed, bots play instantly,
and nothing on the screen depends on the clock.

Update the baselines with `pytest tests/ui --snapshot-update` after checking
the new pictures (tests/ui/__snapshots__/).
"""

from __future__ import annotations

import pytest
from ui_helpers import make_app

from engine.bots.random_bot import RandomBot
from ui.widgets.prompt import PromptPanel

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = ["en", "es"]  # snapshots: en at 80x24 in the fast tier, the rest slow (tests/conftest.py)


async def wait_for_choices(pilot, tries: int = 100) -> PromptPanel:
    for _ in range(tries):
        await pilot.pause()
        if not pilot.app.table.is_mounted or not pilot.app.table.query(PromptPanel):
            continue
        prompt = pilot.app.table.query_one(PromptPanel)
        if prompt.menu is not None and prompt.menu.entries and not prompt.sent:
            return prompt
    raise AssertionError("the prompt never offered a choice")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_selection(snap_compare, lang, size):
    app, _ = make_app(players=4, seed=1, lang=lang)

    async def run_before(pilot):
        prompt = await wait_for_choices(pilot)
        assert pilot.app.view.pending.kind == "pick_character"
        assert prompt.depth == 1

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_mid_turn_ability_targets(snap_compare, lang, size):
    app, _ = make_app(players=4, seed=1, lang=lang)

    async def run_before(pilot):
        await wait_for_choices(pilot)
        await pilot.press("3")  # the Magician (a character is chosen by its rank)
        await wait_for_choices(pilot)
        await pilot.press("1")  # take 2 gold
        prompt = await wait_for_choices(pilot)
        await pilot.press("3")  # the Magician's swap (it keeps its number 3 for the turn): choose a player
        await pilot.pause()
        assert pilot.app.view.turn.character == "Magician"
        assert prompt.depth == 2

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_end_of_game_scores(snap_compare, lang, size):
    app, table = make_app(players=4, seed=2, lang=lang)
    table.bots[0] = RandomBot(seed=3)  # every seat played by a bot: the end comes at once

    async def run_before(pilot):
        for _ in range(50):
            await pilot.pause()
            if table.over and pilot.app.view is not None and pilot.app.view.phase == "over":
                break
        await pilot.pause()
        assert pilot.app.screen.id == "scores"

    assert snap_compare(app, terminal_size=size, run_before=run_before)
