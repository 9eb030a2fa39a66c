"""ui/widgets/line_frame.py (with ui/compat/line_styles.py) draws a line widget's border and padding
as Textual's `StylesCache` would.

Every `render_lines` call of every line widget during played games (compact and
roomy screens, NO_COLOR, the help and score screens on top, the lower panel
switched by Tab) is answered both ways, ours first, and the strips must be equal segment by
segment. The lobby's menus are line widgets too (tests/server covers them through
SSH; here the table screen's panels and the replay's).
"""

from __future__ import annotations

from collections import Counter

import pytest
from textual.widget import Widget
from ui_helpers import make_app, play_by_keys

from ui import compat
from ui.widgets.line_widget import LineWidget

if "line_frames" not in compat.apply():  # never skipped: these tests are what makes a Textual version verified
    pytest.fail(compat.why_not_applied("line_frames"), pytrace=False)


@pytest.mark.parametrize(
    "size,players,seed,no_color",
    [
        # whole games compared frame by frame: the slow tier (the strip sharing below stays in the fast tier)
        pytest.param((80, 24), 4, 3, False, marks=pytest.mark.slow),
        pytest.param((120, 40), 6, 5, False, marks=pytest.mark.slow),
        pytest.param((160, 48), 7, 2, False, marks=pytest.mark.slow),
        pytest.param((120, 40), 5, 8, True, marks=pytest.mark.slow),
    ],
)
async def test_framed_lines_are_textuals(monkeypatch, size, players, seed, no_color):
    if no_color:  # the app adds a Monochrome filter
        monkeypatch.setenv("NO_COLOR", "1")
    ours = LineWidget.render_lines
    framed: Counter[str] = Counter()

    def both(self, crop):
        mine = ours(self, crop)
        if self._frame_key is not None:  # drawn by the frame
            framed[type(self).__name__] += 1
        theirs = Widget.render_lines(self, crop)
        assert [list(s) for s in mine] == [list(s) for s in theirs], (type(self).__name__, crop)
        assert [s.cell_length for s in mine] == [s.cell_length for s in theirs]
        return mine

    monkeypatch.setattr(LineWidget, "render_lines", both)
    app, table = make_app(players=players, seed=seed, show_chat=True)
    assert app.no_color == no_color
    table.bot_delay = 0.001
    presses = 0

    async def now_and_then():
        nonlocal presses
        presses += 1
        if presses % 40 == 7:
            await pilot.press("f1")
            await pilot.press("escape")
        elif presses % 40 == 21:
            await pilot.press("tab")

    async with app.run_test(size=size) as pilot:
        await play_by_keys(app, table, pilot, seed=seed, before_key=now_and_then)
        assert table.over
    # the frame drew every panel, many times (not a test of Textual against itself)
    assert {"PlayersPanel", "PromptPanel", "LogView", "StatusBar", "HandPanel"} <= set(framed)
    assert sum(framed.values()) > 300


async def test_two_apps_showing_the_same_lines_share_their_strips():
    """Two screens of the same game at the same size: the players panel's framed lines are the
    same strip objects (made once), and a third screen of another size has its own."""
    from ui.widgets.players import PlayersPanel

    async def panel_strips(size):
        app, table = make_app(players=5, seed=4, show_chat=True)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            panel = app.table.query_one(PlayersPanel)
            return panel.render_lines(panel.region.reset_offset)

    first = await panel_strips((120, 40))
    second = await panel_strips((120, 40))
    other = await panel_strips((100, 40))
    assert len(first) == len(second) > 3
    assert all(a is b for a, b in zip(first, second))
    assert not any(a is b for a, b in zip(first, other))


def test_shared_caches_are_bounded(monkeypatch):
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    from ui.widgets import line_frame

    monkeypatch.setattr(line_frame, "_lines", {})
    monkeypatch.setattr(line_frame, "MAX_LINES", 50)
    console = Console(width=40, file=None)
    base = Style(bgcolor="black")
    strips = []
    for i in range(200):
        line = Text(f"line {i}", end="")
        key = (line.plain, tuple(line.spans), line.style, 20, base)
        strips.append(line_frame.content_strip(key, line, 20, base, console))
        assert strips[-1].cell_length == 20
    assert len(line_frame._lines) == 50
    # the newest are kept: asking again gives the same strip
    line = Text("line 199", end="")
    assert line_frame.content_strip((line.plain, (), "", 20, base), line, 20, base, console) is strips[-1]
