"""The presence board after a table changed owner (a cluster's failover or hand-over): a seat whose
session was at the table before is not announced as back when it resumes; a seat that was away is."""

from __future__ import annotations

from server.tables.presence import PresenceBoard
from server.tables.seats import SeatSlot

HERE = object()


def _notices(board: PresenceBoard, seats: list[SeatSlot], now: float = 0.0) -> list[tuple[int, str]]:
    _presence, notices = board.update(seats, 0, now, 60.0, True)
    return [(i, n.key) for i, n in notices]


def test_only_a_seat_that_was_away_is_announced_back_after_a_takeover() -> None:
    # ana was at the table under the previous owner; bob was away
    seats = [SeatSlot("ana", key="ka", away_since=0.0, resuming=True), SeatSlot("bob", key="kb", away_since=0.0)]
    board = PresenceBoard()
    assert _notices(board, seats) == []  # the first states: nothing said
    seats[0].client, seats[0].away_since = HERE, None  # type: ignore[assignment]
    assert _notices(board, seats) == []  # ana resumes: she never left
    seats[1].client, seats[1].away_since = HERE, None  # type: ignore[assignment]
    assert _notices(board, seats) == [(1, "back")]  # bob really comes back
    # from now on ana is like anyone: away, then back, both said
    seats[0].client, seats[0].away_since = None, 1.0
    assert _notices(board, seats, 1.0) == [(0, "away")]
    seats[0].client, seats[0].away_since = HERE, None  # type: ignore[assignment]
    assert _notices(board, seats, 2.0) == [(0, "back")]


def test_a_resuming_seat_a_bot_played_for_is_announced_back() -> None:
    seats = [SeatSlot("ana", key="ka", away_since=0.0, resuming=True)]
    board = PresenceBoard()
    assert _notices(board, seats) == []
    assert _notices(board, seats, 61.0) == [(0, "bot_for")]  # her session never resumed
    seats[0].client, seats[0].away_since = HERE, None  # type: ignore[assignment]
    assert _notices(board, seats, 62.0) == [(0, "back")]


def test_without_a_takeover_a_return_is_announced() -> None:
    seats = [SeatSlot("ana", key="ka", away_since=0.0)]
    board = PresenceBoard()
    assert _notices(board, seats) == []
    seats[0].client, seats[0].away_since = HERE, None  # type: ignore[assignment]
    assert _notices(board, seats) == [(0, "back")]
