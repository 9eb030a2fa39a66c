"""The end of a game and the way back (local table): the final scores offer play again with the same
seats, the replay from your seat, and quit; nothing after the end speaks of a seat waiting."""

from __future__ import annotations

from ui_helpers import make_app, screen_text

from engine.bots.random_bot import RandomBot
from ui.screens.replay import ReplayScreen
from ui.screens.scores import ScoresScreen


async def finished(pilot, table) -> None:
    for _ in range(80):
        await pilot.pause()
        if table.over and isinstance(pilot.app.screen, ScoresScreen):
            return
    raise AssertionError("the game did not end")


async def test_scores_offer_play_again_replay_and_quit():
    app, table = make_app(players=4, seed=2)
    table.bots[0] = RandomBot(seed=3)  # every seat played by a bot: the end comes at once
    async with app.run_test(size=(80, 24)) as pilot:
        await finished(pilot, table)
        text = screen_text(app)
        assert "Final scores" in text
        for choice in ("1 Play again with the same seats", "2 Watch the replay", "3 Quit"):
            assert choice in text
        assert "wait" not in text.lower()  # no seat waits for anyone after the end
        await pilot.press("escape")  # look at the table: the game is over, no one is waited for
        text = screen_text(app)
        assert "Game over" in text and "Waiting for" not in text
        await pilot.press("f3")
        assert isinstance(app.screen, ScoresScreen)


async def test_watch_the_replay_from_your_seat_only():
    app, table = make_app(players=4, seed=2)
    table.bots[0] = RandomBot(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await finished(pilot, table)
        await pilot.press("2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.views == [0] and not screen.everything  # never every hand
        assert screen.replay.total == len(table.log) == table.state.seq
        await pilot.press("end")
        await pilot.pause()
        assert "Final scores" in screen_text(app) or screen.position == screen.replay.total
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.table


async def test_play_again_deals_a_new_game_with_the_same_seats():
    app, table = make_app(players=4, seed=2)
    table.bots[0] = RandomBot(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await finished(pilot, table)
        names = list(table.config.players)
        first_seed = table.config.seed
        table.bots.pop(0)  # the person plays the new game
        await pilot.press("1")
        for _ in range(40):
            await pilot.pause()
            if app.view is not None and app.view.phase == "selection" and not table.over:
                break
        assert not table.over and table.config.players == names and table.config.seed != first_seed
        assert app.screen is app.table
        text = screen_text(app)
        assert "Round 1" in text and "Final scores" not in text
        assert len(app._events) < 20  # the log starts again with the new game
