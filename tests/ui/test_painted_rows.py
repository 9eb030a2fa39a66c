"""What the direct paint writes per row (`LineWidget.painted_rows`): each row's text kept in its
line's entry, shared by apps, must be the rendered `content_rows` in the client's colours, for the
frame and colour conversion it is asked for now, never another's (ui/widgets/line_frame.py
`shared_entry`); and a line's pieces cut from a layout drawn before (`styled_segments`) must be
Rich's for the new text."""

from __future__ import annotations

import gc
import random

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.filter import Monochrome
from ui_helpers import make_app

from server.transport.colour import rendered_colours
from ui import compat
from ui.widgets import line_frame, line_pieces
from ui.widgets.line_widget import LineWidget

if "line_frames" not in compat.apply():
    pytest.fail(compat.why_not_applied("line_frames"), pytrace=False)


def _expected(widget: LineWidget, rows: list[int], convert) -> list[str]:
    console = widget.app.console
    strips = widget.content_rows(rows)
    assert strips is not None
    return [s.render(console) if convert is None else convert(s.render(console)) for s in strips]


async def test_painted_rows_follow_the_frame_and_the_conversion():
    app, _ = make_app(players=4, seed=2, show_chat=True)
    convert = rendered_colours("256")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        widgets = [w for w in app.screen.query(LineWidget) if w._current_frame() is not None]
        assert widgets
        held = []  # the entries stay alive (and keep their texts) across the style change
        for widget in widgets:
            rows = list(range(widget.drawn_size.height))
            for conv in (convert, None, convert):  # the text kept is for the conversion asked
                assert widget.painted_rows(rows, app.console, conv) == _expected(widget, rows, conv)
            held.extend(widget._strips.values())
        before = {w: w.painted_rows(list(range(w.drawn_size.height)), app.console, convert) for w in widgets}
        # another frame for the same lines (the same entries): a filter that greys every colour
        app._filters.append(Monochrome())
        changed = 0
        for widget in widgets:
            rows = list(range(widget.drawn_size.height))
            widget.content_rows(rows)  # the entries' inner strips made for the new frame first
            texts = widget.painted_rows(rows, app.console, convert)
            assert texts == _expected(widget, rows, convert), type(widget).__name__
            changed += texts != before[widget]
        assert changed  # (the frame did change what is painted)
        assert held


async def test_two_apps_share_a_lines_entry_and_text():
    from ui.widgets.status_bar import StatusBar

    async def bar_entries():
        app, _ = make_app(players=4, seed=2, show_chat=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            bar = app.screen.query_one(StatusBar)
            rows = list(range(bar.drawn_size.height))
            texts = bar.painted_rows(rows, app.console, None)
            assert texts == _expected(bar, rows, None)
            return list(bar._strips.values()), texts

    first, first_texts = await bar_entries()
    second, second_texts = await bar_entries()
    assert first and all(a is b for a, b in zip(first, second))
    assert first_texts == second_texts


def test_entries_are_forgotten_when_no_widget_holds_them():
    console = Console(width=40, file=None)
    base = Style(bgcolor="black")
    line = Text("a line no screen shows", end="")
    key = (line.plain, (), "", 30, base, "test")
    entry = line_frame.shared_entry(key, line, 30, base, console)
    assert line_frame.shared_entry(key, line, 30, base, console) is entry
    del entry
    gc.collect()
    assert key not in line_frame._entries


def test_pieces_cut_from_a_layout_drawn_before_are_richs(monkeypatch):
    """The same spans over other texts of the same length, and over the same text on another base:
    each line's segments are Rich's, not the first line's."""
    monkeypatch.setattr(line_pieces, "_pieces", {})
    console = Console(width=80, file=None, color_system="truecolor")
    rng = random.Random(11)
    named = ["bold", "red on black", "italic #336699", Style(color="green"), Style(bgcolor="#121212")]
    bases = [Style(color="#fea62b", bgcolor="#000000"), Style.null(), Style(bgcolor="#202020")]
    for _ in range(200):
        length = rng.randrange(1, 14)
        spans = []
        for _ in range(rng.randrange(1, 5)):
            start = rng.randrange(0, length)
            spans.append(Span(start, min(start + rng.randrange(1, 5), length), rng.choice(named)))
        for base in bases:
            for _ in range(3):
                plain = "".join(rng.choice("abc é") for _ in range(length))
                line = Text(plain, style=rng.choice(["", "underline"]), end="", spans=list(spans))
                ours = line_pieces.styled_segments(line, base, console)
                assert ours == list(Segment.apply_style(line.render(console), base)), (plain, spans)
    assert len(line_pieces._pieces) < 200 * len(bases) * 3 * 2  # (layouts were cut again)


async def test_a_lines_painted_text_without_its_strips_is_the_strips_text():
    """`Frame.painted_text` (a new line's text made from its pieces, no strips) against the strips'
    way, `make_inner(content_strip(...)).render(console)` converted, on the frames of a table screen's
    panels (with and without a filter that maps every colour) and random lines: spans nested and
    side by side, wide characters, empty lines, lines of exactly the width; wider ones are refused."""
    app, _ = make_app(players=4, seed=2, show_chat=True)
    rng = random.Random(5)
    named = ["bold", "red on black", "italic #336699", Style(color="green"), Style(bgcolor="#121212"), "reverse"]
    conversions = [None, rendered_colours("256"), rendered_colours("standard"), rendered_colours(None)]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        checked = refused = 0
        for round_ in range(2):
            if round_:
                app._filters.append(Monochrome())
            for widget in app.screen.query(LineWidget):
                frame = widget._current_frame()
                if frame is None:
                    continue
                width = widget.drawn_size.width
                base = widget._base_style()
                console = app.console
                for n in range(60):
                    length = rng.choice([0, 1, width // 2, width - 1, width, width + 3])
                    plain = "".join(rng.choice(["a", "b", " ", "c", "é", "城", "\x1b[31m"]) for _ in range(length))
                    spans = []
                    for _ in range(rng.randrange(0, 4)):
                        if plain:
                            start = rng.randrange(0, len(plain))
                            spans.append(Span(start, min(start + rng.randrange(1, 6), len(plain)), rng.choice(named)))
                    line = Text(plain, style=rng.choice(["", "underline"]), end="", spans=spans)
                    convert = conversions[n % len(conversions)]
                    key = (line.plain, tuple(line.spans), line.style, width, base)
                    ours = frame.painted_text(line, width, base, console, convert)
                    if line.cell_len > width:
                        assert ours is None
                        refused += 1
                        continue
                    strip = frame.make_inner(line_frame.content_strip(key, line, width, base, console))
                    theirs = strip.render(console) if convert is None else convert(strip.render(console))
                    assert ours == theirs, (type(widget).__name__, plain, spans)
                    checked += 1
        assert checked > 300 and refused
