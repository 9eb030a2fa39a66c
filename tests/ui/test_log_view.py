"""The log follows the tail by turning pages: new lines are written below the last ones and
cost one line each; a full panel moves up by a third at once; scrolling back and End work. Where
the pages turn does not depend on when the panel was drawn."""

from __future__ import annotations

import random

from textual.app import App

from ui.widgets.log_view import LogView, Row

HEIGHT = 9


class LogApp(App):
    CSS = "LogView { height: %d; width: 40; }" % HEIGHT

    def compose(self):
        yield LogView(max_lines=64)


def shown(log: LogView) -> list[str]:
    width, height = log.content_size
    return [t.plain for t in log.built_lines(width, height)]


def dirty_lines(log: LogView, rows: list[Row]) -> int:
    calls = []
    original = log.refresh

    def counting(*regions, **kw):
        calls.append(sum(r.height for r in regions) if regions else HEIGHT)
        return original(*regions, **kw)

    log.refresh = counting
    try:
        log.add_rows(rows)
    finally:
        log.refresh = original
    return sum(calls)


async def test_new_lines_go_below_and_a_full_panel_turns_a_third():
    app = LogApp()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(LogView)
        log.add_rows([Row("event 0")])
        await pilot.pause()
        assert shown(log) == ["event 0"]
        for i in range(1, HEIGHT):
            assert dirty_lines(log, [Row(f"event {i}")]) == 1  # one new line, nothing moves
        assert shown(log) == [f"event {i}" for i in range(HEIGHT)]
        # the panel is full: the next line turns a third of a page (everything redrawn once) ...
        assert dirty_lines(log, [Row(f"event {HEIGHT}")]) == HEIGHT
        third = HEIGHT // 3
        assert shown(log)[0] == f"event {third + 1}" and shown(log)[HEIGHT - third - 1] == f"event {HEIGHT}"
        assert len(shown(log)) == HEIGHT - third  # room for the next lines below
        # ... and the next lines again cost one line each, the newest always visible
        for i in range(HEIGHT + 1, HEIGHT + 1 + third):
            assert dirty_lines(log, [Row(f"event {i}")]) == 1
            assert shown(log)[-1] == f"event {i}"


def test_the_lines_shown_do_not_depend_on_when_the_panel_was_drawn():
    """A panel drawn after every row, at other heights on the way (a resize), shows the same lines
    as one drawn once at the end: a seat's screen painted directly and Textual's own frames once
    disagreed when a frame came between a resize and a row (tests/ui/test_key_paint.py)."""
    rng = random.Random(5)
    rows = [Row(f"event {i} " + "word " * rng.randrange(12)) for i in range(120)]
    for trial in range(200):
        drawn, fresh = LogView(max_lines=400), LogView(max_lines=400)  # (no rows forgotten here)
        count = rng.randrange(1, len(rows))
        for row in rows[:count]:
            drawn.add_rows([row])
            if rng.random() < 0.5:
                drawn.build(40, rng.choice([HEIGHT, HEIGHT + 6, 3]))  # a frame, at some height
        fresh.add_rows(rows[:count])
        assert [t.plain for t in drawn.build(40, HEIGHT)] == [t.plain for t in fresh.build(40, HEIGHT)], trial


async def test_two_screens_given_the_same_rows_and_sizes_show_the_same_lines():
    """Two panels given the same rows at the same heights, one drawn after every row, the other
    only now and then, show the same lines: a seat's directly painted screen and Textual's own
    frames once differed when a frame came between a resize and a row (tests/ui/test_key_paint.py)."""
    rng = random.Random(5)
    rows = [Row(f"event {i} " + "word " * rng.randrange(12)) for i in range(90)]
    app, other = LogApp(), LogApp()
    async with app.run_test(size=(60, 30)) as pilot, other.run_test(size=(60, 30)) as pilot2:
        drawn, seldom = app.query_one(LogView), other.query_one(LogView)
        for i, row in enumerate(rows):
            if i % 15 == 7:  # both resized (a layout), the next rows at the new height
                height = rng.choice([HEIGHT, HEIGHT + 6, 4])
                drawn.styles.height = seldom.styles.height = height
                await pilot.pause()
                await pilot2.pause()
                if i % 2:
                    shown(drawn)  # a frame between the resize and the next row, on one screen only
            drawn.add_rows([row])
            shown(drawn)  # a frame after every row (as a directly painted screen builds)
            seldom.add_rows([row])
            if rng.random() < 0.2:
                shown(seldom)
            assert shown(drawn) == shown(seldom), i


async def test_scrolling_back_and_end_and_old_rows_forgotten():
    app = LogApp()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(LogView)
        await pilot.pause()
        for i in range(40):
            log.add_rows([Row(f"event {i}")])
        assert "event 39" in shown(log)
        log.page(1)  # back in time: a full panel ending before the newest lines
        back = shown(log)
        assert "event 39" not in back and len([x for x in back if x]) == HEIGHT
        log.add_rows([Row("event 40")])  # while scrolled back the view stays put
        assert shown(log) == back
        log.to_end()  # newest at the bottom
        assert shown(log)[-1] == "event 40"
        for i in range(41, 200):  # past max_lines: forgotten in batches, the newest still shown
            log.add_rows([Row(f"event {i}")])
            assert "event %d" % i in shown(log)
        assert len(log.rows) <= 64 + 64 // 8
        assert log.rows[-1].text == "event 199"


async def test_the_kept_count_of_wrapped_lines_matches_the_lines():
    app = LogApp()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(LogView)
        await pilot.pause()
        for i in range(150):  # rows of 1 to 3 wrapped lines, old ones forgotten in batches
            log.add_rows([Row(f"event {i} " + "word " * (i % 17))])
            width = log.content_size.width
            assert log._total(width) == sum(len(w) for _, w in log._wrapped)
        log.styles.width = 25  # wrapped again at another width
        await pilot.pause()
        width = log.content_size.width
        assert width < 40
        assert log._total(width) == sum(len(w) for _, w in log._wrapped)
        assert shown(log)[-1].strip().endswith("word")  # the newest row's last line, at the bottom
