"""The table's marks are not written again when nothing they are made from changed (`TableScreen._feedback`
skips its work): each input changed in turn gives the marks made afresh, and a countdown is never skipped."""

from __future__ import annotations

import time

import msgspec
from ui_helpers import make_app

from ui import SeatMark
from ui.i18n import Catalogue


def _marks(n: int, **states: SeatMark) -> list[SeatMark]:
    out = [SeatMark("here") for _ in range(n)]
    for seat, m in states.items():
        out[int(seat[1:])] = m
    return out


def _shown(screen) -> tuple:
    """Everything `_feedback` writes on the widgets."""

    def markup(text):
        return text.markup if text is not None else None

    return (
        {seat: t.markup for seat, t in screen.players._marks.items()},
        markup(screen.prompt._clock),
        markup(screen.status_bar._prefix),
        markup(screen.status_bar._suffix),
        screen.query_one("#chat").border_title,
    )


def _renamed(view, seat: int, name: str):
    players = list(view.players)
    players[seat] = msgspec.structs.replace(players[seat], name=name)
    return msgspec.structs.replace(view, players=players)


async def test_every_input_of_the_marks_is_in_what_they_were_made_from():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda text: None)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if app.table._view is not None:
                break
        screen = app.table
        fb = screen.feedback

        def spectator():
            screen._view = msgspec.structs.replace(screen._view, seat=None)

        changes = [
            ("marks", lambda: setattr(fb, "marks", _marks(4, s1=SeatMark("bot_for")))),
            ("names", lambda: setattr(screen, "_view", _renamed(screen._view, 1, "Benito"))),
            ("compact", lambda: setattr(screen, "compact", not screen.compact)),
            ("language", lambda: setattr(screen, "cat", Catalogue("es"))),
            ("watchers", lambda: setattr(fb, "watchers", 3)),
            ("unread", lambda: setattr(fb, "unread", 2)),
            ("compact again", lambda: setattr(screen, "compact", not screen.compact)),
            ("spectator", spectator),
            ("marks again", lambda: setattr(fb, "marks", _marks(4, s1=SeatMark("away")))),
        ]
        screen._feedback()
        for what, change in changes:
            before = _shown(screen)
            change()
            screen._feedback()
            kept = _shown(screen)
            screen._feedback_of = None  # made afresh
            screen._feedback()
            assert kept == _shown(screen), what
            assert kept != before, f"{what}: the change shows nothing (the test would not catch a stale mark)"
        fb.stop()


async def test_a_countdown_is_written_on_every_call():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if app.table._view is not None:
                break
        screen = app.table
        fb = screen.feedback
        clock = [1000.0]
        fb.now = lambda: clock[0]
        fb.marks = _marks(4, s2=SeatMark("away", 1042.5))
        screen._feedback()
        assert screen.players._marks[2].plain == "[away 45 s]"
        clock[0] = 1035.0  # nothing else changed: the countdown's label did
        screen._feedback()
        assert screen.players._marks[2].plain == "[away 8 s]"
        fb.turn_deadline = time.monotonic() + 1000
        fb.stop()
