"""The table tells what happens (Pilot): a seat away with its countdown, a bot playing for someone,
the turn clock in the prompt, watchers and "You are watching", unread chat at every size, the
table's notices apart from the chat, bot moves tagged in the log, the turn alert and its switch;
and countdowns repaint only while they run, at a modest rate."""

from __future__ import annotations

import asyncio
import time

import pytest
from ui_helpers import make_app, screen_text

from engine import new_game, view
from engine.events import Event
from engine.setup import GameConfig
from ui import ChatLine, CitadelsApp, SeatMark, SeatStates, TableNotice, UiOptions, ViewUpdate
from ui.widgets.log_view import LogView
from ui.widgets.prompt import PromptPanel


async def _ready(pilot) -> PromptPanel:
    prompt = pilot.app.table.query_one(PromptPanel)
    for _ in range(100):
        await pilot.pause()
        if prompt.menu is not None and prompt.menu.entries and not prompt.sent:
            return prompt
    raise AssertionError("no choice offered")


def marks(n: int, **states: SeatMark) -> list[SeatMark]:
    out = [SeatMark("here") for _ in range(n)]
    for seat, m in states.items():
        out[int(seat[1:])] = m
    return out


class FrameCount:
    """Counts the frames the app renders (Compositor.render_update) while in use."""

    def __enter__(self):
        from textual._compositor import Compositor

        self.frames = 0
        self._original = original = Compositor.render_update

        def counting(comp, *a, **k):
            self.frames += 1
            return original(comp, *a, **k)

        Compositor.render_update = counting
        return self

    def __exit__(self, *exc):
        from textual._compositor import Compositor

        Compositor.render_update = self._original


async def test_away_seat_counts_down_then_shows_the_bot_playing_for_them():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot)
        app.post_message(SeatStates(marks(4, s1=SeatMark("away", time.monotonic() + 42.5)), 0))
        await pilot.pause()
        assert "Ben [away 45 s]" in screen_text(app)  # in steps of 5 s while more than 10 s are left
        app.post_message(SeatStates(marks(4, s1=SeatMark("away", time.monotonic() + 7.5)), 0))
        await pilot.pause()
        assert "Ben [away 8 s]" in screen_text(app)
        app.post_message(SeatStates(marks(4, s1=SeatMark("bot_for")), 0))
        await pilot.pause()
        text = screen_text(app)
        assert "Ben [bot plays]" in text and "away" not in text
        # on a large screen the words are whole
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert "Ben [a bot plays for Ben]" in screen_text(app)
        app.post_message(SeatStates(marks(4, s1=SeatMark("away", time.monotonic() + 30)), 0))
        await pilot.pause()
        assert "Ben [away: a bot in 30 s]" in screen_text(app)
        # back: no mark at all
        app.post_message(SeatStates(marks(4), 0))
        await pilot.pause()
        assert "[" not in screen_text(app).split("Ben", 1)[1].splitlines()[0]


@pytest.mark.slow  # counts frames over 6 s of real time
async def test_a_countdown_repaints_only_while_it_runs_and_at_a_modest_rate():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot)
        await pilot.pause(0.2)
        # a long countdown: its label changes every 5 s, so at most one frame in 1.5 s
        app.post_message(SeatStates(marks(4, s2=SeatMark("away", time.monotonic() + 52.2)), 0))
        await pilot.pause(0.1)
        with FrameCount() as long_run:
            await asyncio.sleep(1.5)
        assert long_run.frames <= 1, long_run.frames
        # a short one: a frame a second, then nothing once it has run out
        app.post_message(SeatStates(marks(4, s2=SeatMark("away", time.monotonic() + 2.5)), 0))
        await pilot.pause(0.1)
        with FrameCount() as short_run:
            await asyncio.sleep(2.0)
        assert 1 <= short_run.frames <= 4, short_run.frames
        await asyncio.sleep(1.0)
        assert "Cid [away 0 s]" in screen_text(app)
        with FrameCount() as after:
            await asyncio.sleep(1.0)
        assert after.frames == 0, "nothing repaints once every countdown has ended"
        assert app.table.feedback._timer is None


async def test_turn_clock_in_the_prompt():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot)
        app.post_message(ViewUpdate(app.view, [], turn_deadline=time.monotonic() + 24.5))
        await pilot.pause()
        text = screen_text(app)
        assert "Time left: 25 s" in text and "Choose your character" in text
        app.post_message(ViewUpdate(app.view, [], turn_deadline=time.monotonic() + 95))
        await pilot.pause()
        assert "Time left: 1:35" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert "Time left: 1:35" in screen_text(app)
        app.post_message(ViewUpdate(app.view, []))  # no timer (any more)
        await pilot.pause()
        assert "Time left" not in screen_text(app)
        assert app.table.feedback._timer is None


def spectator_app() -> tuple[CitadelsApp, object]:
    g, events = new_game(GameConfig(players=["Ana", "Ben", "Cid"], preset="first-game", seed=2))
    app = CitadelsApp(None, UiOptions(name="Zoe", show_chat=True))
    return app, (view(g, None), events)


async def test_spectators_are_told_they_watch_and_players_see_how_many_watch():
    app, (v, events) = spectator_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(ViewUpdate(v, events))
        await pilot.pause()
        text = screen_text(app)
        assert "You are watching" in text.splitlines()[0]
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot)
        assert "watching" not in screen_text(app)
        app.post_message(SeatStates(marks(4), 2))
        await pilot.pause()
        first = screen_text(app).splitlines()[0]
        assert first.rstrip().endswith("2 watching") and "You are watching" not in first


async def test_unread_chat_is_marked_at_every_size():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda text: None)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot)
        app.post_message(ChatLine("Ben", "hola"))
        app.post_message(ChatLine("Cid", "hi"))
        app.post_message(ChatLine("Ana", "my own line"))  # your own lines are not news
        await pilot.pause()
        assert "chat: 2 new (Tab)" in screen_text(app).splitlines()[0]
        await pilot.press("tab", "tab")  # hand -> log -> chat: read
        assert app.table.lower == "chat"
        assert "new" not in screen_text(app).splitlines()[0]
        await pilot.press("escape")
        app.post_message(ChatLine("Ben", "while you read the chat"))  # the chat is still the panel shown
        await pilot.pause()
        assert app.table.feedback.unread == 0
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda text: None)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = await _ready(pilot)
        app.post_message(ChatLine("Ben", "hola"))
        await pilot.pause()
        text = screen_text(app)
        assert "Chat · 1 new" in text and "chat: 1 new" not in text
        prompt.activate(0)  # a move: the chat was in view
        await pilot.pause()
        assert "Chat · 1 new" not in screen_text(app)


async def test_notices_are_drawn_apart_from_chat_lines_and_follow_the_language():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda text: None)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        app.post_message(ChatLine("*", "Ben is back."))
        app.post_message(TableNotice("back", {"name": "Ben"}))
        app.post_message(TableNotice("slow_down", where="chat"))
        await pilot.pause()
        log_rows = [(r.tag, r.text, r.tag_style) for r in app.table.query_one("#log", LogView).rows]
        chat_rows = [(r.tag, r.text, r.tag_style) for r in app.table.query_one("#chat-lines", LogView).rows]
        assert ("»", "Ben is back.", "bold reverse") in log_rows
        assert ("*:", "Ben is back.", "bold") in chat_rows
        assert ("»", "Slow down: too many lines at once.", "bold reverse") in chat_rows
        text = screen_text(app)
        assert "» Ben is back." in text and "*: Ben is back." in text
        await pilot.press("f2")
        await pilot.pause()
        assert "» Ben ha vuelto." in screen_text(app)


async def test_moves_a_bot_made_for_a_person_are_tagged_in_the_log():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot)
        ev = Event(kind="income", seat=1, gold=2, character="King")
        app.post_message(ViewUpdate(app.view, [ev], by_bot=[True]))
        app.post_message(ViewUpdate(app.view, [Event(kind="income", seat=2, gold=1, character="Bishop")]))
        await pilot.pause()
        rows = app.table.query_one("#log", LogView).rows[-2:]
        assert rows[0].tag == "[bot]" and "Ben" in rows[0].text
        assert rows[1].tag == "" and "Cid" in rows[1].text
        assert "[bot] Ben" in screen_text(app)
        # told again in another language, still tagged
        await pilot.press("f2")
        await pilot.pause()
        assert app.table.query_one("#log", LogView).rows[-2].tag == "[bot]"


async def test_turn_alert_when_a_decision_becomes_yours_and_its_switch():
    app, table = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await _ready(pilot)
        assert app.alerts_given == 1  # the first decision of the game is this seat's
        prompt.activate(0)
        for _ in range(50):
            await pilot.pause()
            if table.state.pending.seat == 0 and not prompt.sent and table.state.seq > 1:
                break
        assert app.alerts_given == 2
        app.set_alerts(False)
        seq = table.state.seq
        prompt.activate(0)
        for _ in range(50):
            await pilot.pause()
            if table.state.pending.seat == 0 and not prompt.sent and table.state.seq > seq:
                break
        assert table.state.pending.seat == 0 and app.alerts_given == 2
