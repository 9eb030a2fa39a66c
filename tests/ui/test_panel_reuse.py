"""What the table's panels keep from one view to the next (issue 23) must be what they would make
afresh: the log's lines below the ones shown, the footer's line shared by every app, the hand's
wrapped lines (not copied), the titles looked up again only when what they say changes."""

from __future__ import annotations

import random

import pytest
from textual.app import App

from ui.widgets.log_view import LogView, Row


def _texts(lines):
    return [(t.plain, tuple(t.spans), t.style) for t in lines]


class LogApp(App):
    CSS = "LogView { height: 9; width: 40; }"

    def __init__(self, max_lines: int) -> None:
        super().__init__()
        self.max_lines = max_lines

    def compose(self):
        yield LogView(max_lines=self.max_lines)


@pytest.mark.parametrize("max_lines", [48, 6])  # 6: rows forgotten while the panel is not full
async def test_the_logs_lines_kept_below_are_the_lines_made_afresh(max_lines):
    """Random rows (1 to 3 wrapped lines, tagged or styled), pages back and forth, the end, a
    resize, rows forgotten in batches: after each, the lines built equal those made from scratch."""
    rnd = random.Random(5)
    app = LogApp(max_lines)
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(LogView)
        await pilot.pause()
        for i in range(400):
            op = rnd.random()
            if op < 0.75:
                words = "word " * rnd.randrange(12 if max_lines > 8 else 2)
                style, tag = rnd.choice(["", "dim"]), rnd.choice(["", "[you]"])
                log.add_rows([Row(f"event {i} " + words, style=style, tag=tag) for _ in range(rnd.randrange(1, 3))])
            elif op < 0.85:
                log.page(rnd.choice([1, -1]))
            elif op < 0.95:
                log.to_end()
            else:
                log.styles.width = rnd.choice([40, 31, 25])
                await pilot.pause()
            width, height = log.drawn_size
            kept = log.built_lines(width, height)
            first, last = log._window(height, log._total(width))  # the same window, every line made again
            afresh = log._lines_back(log._total(width) - last, last - first)
            assert _texts(kept) == _texts(afresh), i
