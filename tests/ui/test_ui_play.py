"""Pilot tests: whole games against bots, driven by key presses only."""

from __future__ import annotations

import pytest
from ui_helpers import make_app, play_by_keys, screen_text

from engine.bots.random_bot import RandomBot
from ui.screens.scores import ScoresScreen


@pytest.mark.slow  # a whole game by keys (test_bots_only_game_reaches_scores_with_tiebreak_text reaches the scores in the fast tier)
async def test_full_game_by_keys_4_players():
    app, table = make_app(players=4, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        presses = await play_by_keys(app, table, pilot, seed=11)
        assert table.over, f"game not over after {presses} key presses"
        assert presses > 20
        assert isinstance(app.screen, ScoresScreen)
        text = screen_text(app)
        assert "Final scores" in text and "Total" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, ScoresScreen)
        await pilot.press("f3")
        assert isinstance(app.screen, ScoresScreen)


@pytest.mark.slow  # a second whole game by keys
async def test_full_game_by_keys_2_players_spanish():
    app, table = make_app(players=2, seed=8, lang="es")
    async with app.run_test(size=(100, 30)) as pilot:
        await play_by_keys(app, table, pilot, seed=4)
        assert table.over
        assert "Puntuación final" in screen_text(app)


async def test_help_language_and_lower_panel_keys():
    app, table = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        text = screen_text(app)
        assert "Characters in this game" in text and "Assassin" in text
        await pilot.press("escape")
        await pilot.press("f2")
        assert "Elige tu personaje" in screen_text(app)
        await pilot.press("f2")
        screen = app.table
        assert screen.lower == "hand"
        await pilot.press("tab")
        assert screen.lower == "log"
        assert "Round 1 begins" in screen_text(app)
        await pilot.press("tab")
        assert screen.lower == "hand"  # no chat locally


async def test_bots_only_game_reaches_scores_with_tiebreak_text():
    app, table = make_app(players=3, seed=5)
    table.bots[0] = RandomBot(seed=9)  # the human seat played by a bot: a finished game quickly
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if table.over:
                break
        await pilot.pause()
        assert table.over
        assert isinstance(app.screen, ScoresScreen)
