"""Snapshots of the screens the key and confirmation rules changed, at 80x24 and 120x40, in English
and Spanish: a Warlord's confirmation naming the district and the price, the Magician's cards
marked before redrawing, the end-of-turn question, the chat while typing, the new-table form and
its line-up picker. Update with `pytest tests/ui/test_keys_snapshots.py --snapshot-update` after
looking at the new pictures (tests/ui/__snapshots__/test_keys_snapshots/)."""

from __future__ import annotations

import pytest
from scene import ARCHITECT, MAGICIAN, WARLORD, choices, scene_app
from test_lobby_form import served
from ui_helpers import make_app

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = ["en", "es"]  # snapshots: en at 80x24 in the fast tier, the rest slow (tests/conftest.py)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_warlord_confirmation(snap_compare, lang, size):
    app, _ = scene_app(WARLORD, "Ben", lang=lang)

    async def run_before(pilot):
        prompt = await choices(pilot)
        await pilot.press("3", "1", "3")  # Warlord › Ana › her (beautified) Market
        await pilot.pause()
        assert prompt.confirming

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_magician_cards_marked(snap_compare, lang, size):
    app, _ = scene_app(MAGICIAN, "Ana", lang=lang)

    async def run_before(pilot):
        prompt = await choices(pilot)
        await pilot.press("4", "1", "3")  # Discard and redraw: two cards marked
        await pilot.pause()
        assert prompt.menu.checklist is not None

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_end_of_turn_question(snap_compare, lang, size):
    app, _ = scene_app(ARCHITECT, "Ana", lang=lang)

    async def run_before(pilot):
        await choices(pilot)
        await pilot.press("1")
        prompt = await choices(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert prompt.confirming

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_chat_while_typing(snap_compare, lang, size):
    app, _ = make_app(players=4, seed=1, lang=lang, show_chat=True, chat_send=lambda t: None)

    async def run_before(pilot):
        await choices(pilot)
        await pilot.press("c", "h", "o", "l", "a")
        await pilot.pause()
        assert pilot.app.focused.id == "chat-input"

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_new_table_form(snap_compare, tmp_path, lang, size):
    app, _ = served(tmp_path, lang)

    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("1", "7")  # New table…, then the turn timer's row (moved to, unchanged)
        await pilot.pause()
        assert pilot.app.lobby_screen.spec.timer == "off"

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_line_up_picker(snap_compare, tmp_path, lang, size):
    app, _ = served(tmp_path, lang)

    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("1", "4", "enter", "down")  # the line-ups, each with its characters
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
