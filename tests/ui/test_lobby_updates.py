"""The lobby screen shows the newest snapshot it was given (found by a two-node play-again test:
the lobby's broadcast, made before the new game's room existed, was handled after the screen had
read the room itself on leaving the finished table, and "1" became "Watch" of the finished table
instead of "Start the game"). Through Pilot on the served app with a real lobby (no SSH)."""

from __future__ import annotations

from test_lobby_form import served

from server.app import LeaveTable
from ui.lobby_link import LobbySnapshot, LobbyUpdate, TableSpec
from ui.widgets.menu_list import MenuList


def _labels(app) -> list[str]:
    return [item.label for item in app.lobby_screen.query_one(MenuList).items]


def test_snapshots_are_numbered_in_the_order_they_are_made():
    first = LobbySnapshot(you="ana", identity="guest", guest=True)
    second = LobbySnapshot(you="ana", identity="guest", guest=True)
    assert second.seq > first.seq
    assert first == second  # the number is not part of what a snapshot says


async def test_a_snapshot_made_before_the_one_shown_is_not_shown(tmp_path):
    app, lobby = served(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = app.session
        before = session.snapshot()  # the lobby as it was: no room
        lobby.create(session, TableSpec(players=3, bots=2))
        assert session.snapshot().room is not None
        # the screen reads the room at once (as on leaving a table), then the broadcast made before arrives
        app.post_message(LeaveTable(session.gen + 1))
        app.post_message(LobbyUpdate(before))
        await pilot.pause()
        labels = _labels(app)
        assert labels[0] == "Start the game", labels
        # its notice is still said, over the newest snapshot
        app.post_message(LobbyUpdate(before, notice="Something to say."))
        await pilot.pause()
        assert _labels(app)[0] == "Start the game"
        assert app.lobby_screen.notice == "Something to say."
        # a newer snapshot is shown
        t = session.table
        lobby.leave(session)  # the creator leaves: the table closes
        assert t.phase == "closed"
        app.post_message(LobbyUpdate(session.snapshot()))
        await pilot.pause()
        assert "Start the game" not in _labels(app)
        assert app.lobby_screen.page == "main"


async def test_a_room_joined_from_a_tables_page_leaves_that_page(tmp_path):
    """Back from a room (the table closed, the seat left), the list of tables, not the page of the
    table the room was joined from."""
    app, lobby = served(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.lobby_screen
        screen.go("table", "t-gone")  # as after choosing a table's row
        lobby.create(app.session, TableSpec(players=3, bots=2))
        app.post_message(LobbyUpdate(app.session.snapshot()))
        await pilot.pause()
        assert _labels(app)[0] == "Start the game"
        assert (screen.page, screen.selected) == ("main", None)
