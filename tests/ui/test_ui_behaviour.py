"""The screen's behaviour: resize, mouse, chat, refusals, idle cost, monochrome."""

from __future__ import annotations

import asyncio

from ui_helpers import make_app, screen_text

from engine.commands import EndTurn
from ui import ChatLine
from ui.screens.table import TableScreen
from ui.widgets.prompt import PromptPanel


async def _choices(pilot) -> PromptPanel:
    prompt = pilot.app.table.query_one(PromptPanel)
    for _ in range(100):
        await pilot.pause()
        if prompt.menu is not None and prompt.menu.entries and not prompt.sent:
            return prompt
    raise AssertionError("no choice offered")


async def test_resize_switches_between_compact_and_roomy():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(160, 48)) as pilot:
        await _choices(pilot)
        screen: TableScreen = app.table
        assert not screen.compact and screen.has_class("-roomy")
        assert "Log" in screen_text(app)  # hand and log side by side
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert screen.compact and screen.has_class("-compact")
        text = screen_text(app)
        assert "Choose your character" in text and "1-9 choose" in text
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not screen.compact


async def test_mouse_click_chooses_a_character():
    app, table = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await _choices(pilot)
        # the list is in rank order: click the Warlord's row (the second character passed)
        warlord = next(i for i, e in enumerate(prompt.menu.entries) if e.command.character == "Warlord")
        row = min(y for y, i in prompt._row_map.items() if i == warlord)
        await pilot.click(PromptPanel, offset=(3, row + prompt.content_offset.y))
        await pilot.pause()
        # the second character passed was chosen
        assert app.view.players[0].characters == [table.state.players[0].characters[0]]
        assert table.state.players[0].characters[0] == "Warlord"


async def test_refused_command_is_shown():
    app, table = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _choices(pilot)
        table.send(EndTurn(0))  # not legal while choosing characters
        await pilot.pause()
        assert "Refused:" in screen_text(app)


async def test_chat_panel_when_enabled():
    said = []
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=said.append)
    async with app.run_test(size=(80, 24)) as pilot:
        await _choices(pilot)
        app.post_message(ChatLine("Ben", "hola"))
        await pilot.press("tab", "tab")  # prompt -> log -> chat: its lines, never its input
        assert app.table.lower == "chat"
        assert app.focused.id == "chat-lines"
        await pilot.press("c")  # the chat's own key enters the input
        assert app.focused.id == "chat-input"
        assert app.focused.cursor_blink is False
        await pilot.press("h", "i", "enter")
        assert said == ["hi"]
        assert "Ben: hola" in screen_text(app)
        assert isinstance(app.focused, PromptPanel)  # sending returns to the game
        await pilot.press("c", "x", "escape")  # Esc returns too, without sending
        assert isinstance(app.focused, PromptPanel) and said == ["hi"]


async def test_chat_hidden_locally():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _choices(pilot)
        assert not app.table.query("#chat")


async def test_nothing_repaints_when_idle():
    """No timers, blinking or animation: an idle table renders no frame at all."""
    from textual._compositor import Compositor

    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _choices(pilot)
        await pilot.pause(0.2)
        frames = 0
        original = Compositor.render_update

        def counting(self, *a, **k):
            nonlocal frames
            frames += 1
            return original(self, *a, **k)

        Compositor.render_update = counting
        try:
            await asyncio.sleep(1.0)
        finally:
            Compositor.render_update = original
        assert frames == 0


async def test_monochrome_keeps_types_readable(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _choices(pilot)
        text = screen_text(app)
        # each hand card carries its type letter and cost: N5 Palace, R3 Monastery, T4 Harbor, U6 Thieves' Den
        for token in ("N5 Palace", "R3 Monastery", "T4 Harbor", "U6 Thieves' Den"):
            assert token in text
