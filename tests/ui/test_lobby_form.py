"""The lobby's new-table form and the table menu are forms (issue 17, items 3 and 7), through Pilot
on the served app with a real lobby (no SSH): a number moves to a row and never changes a value;
←/→ and the picker (Enter) do; the form says what line-ups contain and how long timers are."""

from __future__ import annotations

import dataclasses

from ui_helpers import screen_text

from server.app import ServerApp
from server.config import ServerConfig
from server.lobby.lobby import Lobby
from server.transport.session_info import SessionInfo
from ui.screens.table_menu import TableMenuScreen
from ui.widgets.key_bar import KeyBar
from ui.widgets.menu_list import MenuList


def served(tmp_path, lang: str = "en") -> tuple[ServerApp, Lobby]:
    cfg = ServerConfig(
        port=0,
        keys_dir=str(tmp_path / "keys"),
        saves_dir=str(tmp_path / "saves"),
        bot_delay_seconds=0.0,
        turn_timer_relaxed_seconds=90.0,
    )
    lobby = Lobby(cfg, None)
    info = SessionInfo(
        session_id="t1",
        username="ana",
        key_fingerprint="SHA256:ana",
        is_guest=False,
        peer_host="127.0.0.1",
        peer_port=1,
        term="xterm-256color",
        color_system="truecolor",
        size=(80, 24),
        lang=lang,
    )
    return ServerApp(info, lobby), lobby


def _rows(app) -> dict[str, int]:
    menu = app.lobby_screen.query_one(MenuList)
    return {item.label: i for i, item in enumerate(menu.items)}


async def test_numbers_move_to_rows_and_never_change_values(tmp_path):
    app, lobby = served(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1")  # the lobby is a list: 1 opens "New table…" at once
        await pilot.pause()
        screen = app.lobby_screen
        assert screen.page == "create"
        menu = screen.query_one(MenuList)
        before = dataclasses.asdict(screen.spec)
        for digit in "2345678990":
            await pilot.press(digit)
            await pilot.pause()
            assert menu.highlighted == "1234567890".index(digit)  # moved to that row
            assert dataclasses.asdict(screen.spec) == before  # and changed nothing
        assert screen.page == "create" and not lobby.tables
        assert "1-9 go to a row" in screen.query_one(KeyBar).plain


async def test_arrows_and_the_picker_change_values(tmp_path):
    app, lobby = served(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        screen = app.lobby_screen
        rows = _rows(app)
        await pilot.press(str(rows["Players"] + 1), "right")
        assert screen.spec.players == 5
        await pilot.press(*["right"] * 5)  # numbers stop at their end
        assert screen.spec.players == 8
        await pilot.press(str(rows["Line-up"] + 1), "enter")  # the picker: every line-up, its characters
        await pilot.pause()
        menu = screen.query_one(MenuList)
        assert menu.picking and "1-9 choose" in screen.query_one(KeyBar).plain
        text = screen_text(app)
        assert "ambitious aristocrats" in text and "1 Magistrate · 2 Thief · 3 Wizard" in text
        await pilot.press("escape")  # unchanged
        assert not menu.picking and screen.spec.lineup == "first-game"
        await pilot.press("enter", "3")  # a number in the picker chooses
        await pilot.pause()
        assert screen.spec.lineup == "cunning-agents" and not menu.picking
        text = screen_text(app)
        assert "Line-up: ‹ cunning agents ›" in text and "1 Witch · 2 Blackmailer" in text  # shown under it


async def test_timers_show_their_seconds_and_the_table_gets_what_the_form_said(tmp_path):
    app, lobby = served(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        screen = app.lobby_screen
        rows = _rows(app)
        assert "No time limit." in screen_text(app)
        await pilot.press(str(rows["Turn timer"] + 1), "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "relaxed (90 s)" in text and "blitz (30 s)" in text
        assert "90 s for each turn and each character choice" in text
        await pilot.press("2")
        await pilot.pause()
        assert screen.spec.timer == "relaxed" and "relaxed (90 s)" in screen_text(app)
        await pilot.press(str(rows["Bots"] + 1), "right", "right")
        menu = screen.query_one(MenuList)
        create = next(i for i, item in enumerate(menu.items) if item.label == "Create the table")
        await pilot.press("end", "up")
        assert menu.highlighted == create
        await pilot.press("enter")
        await pilot.pause()
        (table,) = lobby.tables.values()
        assert table.meta.timer == "relaxed" and sum(1 for s in table.seats if s.bot) == 2


async def test_table_menu_is_a_form(tmp_path):
    app, lobby = served(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        rows = _rows(app)
        await pilot.press(str(rows["Players"] + 1), "left", "left", str(rows["Bots"] + 1), "right")
        await pilot.press("end", "up", "enter")  # create: a table of 2 with a bot
        await pilot.pause()
        (table,) = lobby.tables.values()
        await pilot.press("1")  # the waiting room is a list: Start
        for _ in range(20):
            await pilot.pause()
            if app.at_table:
                break
        assert app.at_table and table.phase == "playing"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, TableMenuScreen)
        menu = app.screen.query_one(MenuList)
        labels = [item.label for item in menu.items]
        chat_row = labels.index("Spectators may chat")
        for i in range(len(labels)):  # every number: moves only (Quit included)
            await pilot.press("1234567890"[i])
            await pilot.pause()
            assert isinstance(app.screen, TableMenuScreen) and menu.highlighted == i
        assert table.meta.spectator_chat is False and app.is_running
        await pilot.press(str(chat_row + 1), "right")
        await pilot.pause()
        assert table.meta.spectator_chat is True
        await pilot.press("1", "enter")  # Back to the game
        await pilot.pause()
        assert not isinstance(app.screen, TableMenuScreen)


async def test_a_click_on_a_row_does_what_enter_does_there(tmp_path):
    app, _ = served(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.lobby_screen
        menu = screen.query_one(MenuList)
        new_table = next(i for label, i in _rows(app).items() if label.startswith("New table"))
        row = min(y for y, i in menu._row_map.items() if i == new_table)
        await pilot.click(MenuList, offset=(3, row + menu.content_offset.y))
        await pilot.pause()
        assert screen.page == "create"
