"""`LineWidget.content_rows` (what a table screen's direct paint sends) is, row by row, the content
columns of what `render_lines` draws: the same segments as the framed row cropped to the content,
so the bytes painted directly are those the crop gave (ui/widgets/line_frame.py `Frame.inner_strip`)."""

from __future__ import annotations

from collections import Counter

import pytest
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.geometry import Region
from textual.strip import Strip
from ui_helpers import make_app, play_by_keys

from ui import compat
from ui.widgets.line_widget import LineWidget

if "line_frames" not in compat.apply():
    pytest.fail(compat.why_not_applied("line_frames"), pytrace=False)


def _cropped_rows(widget: LineWidget) -> list[Strip]:
    """Every content row as the direct paint cropped it from `render_lines` before `content_rows`."""
    gutter = widget.styles.gutter
    width, height = widget.drawn_size
    framed = widget.render_lines(Region(0, gutter.top, widget.outer_size.width, height))
    return [strip.crop(gutter.left, gutter.left + width) for strip in framed]


def _check(widget: LineWidget, seen: Counter[str]) -> None:
    width, height = widget.drawn_size
    if width <= 0 or height <= 0:
        return
    rows = list(range(height))
    ours = widget.content_rows(rows)
    if ours is None:  # Textual styles this widget: the direct paint crops `render_lines`
        return
    seen[type(widget).__name__] += 1
    theirs = _cropped_rows(widget)
    assert [list(s) for s in ours] == [list(s) for s in theirs], type(widget).__name__
    assert [s.cell_length for s in ours] == [width] * height
    assert [_codes(s) for s in ours] == [_codes(s) for s in theirs]


def _codes(strip: Strip) -> str:
    """The strip's escape codes, each style rendered from its definition. Not `strip.render`: rich
    keeps a Style instance's codes on it whatever the colour system, so two equal instances first
    rendered under different consoles (other tests in this process, NO_COLOR's) render apart;
    served apps all render in one system (server/transport/colour.py). Seen once in CI (3.12)."""
    return "".join(Style.parse(str(seg.style)).render(seg.text) if seg.style is not None else seg.text for seg in strip)


@pytest.mark.parametrize("size,players,seed,no_color", [((80, 24), 4, 3, False), ((120, 40), 5, 8, True)])
async def test_content_rows_are_the_framed_rows_cropped(monkeypatch, size, players, seed, no_color):
    if no_color:  # a Monochrome filter as well
        monkeypatch.setenv("NO_COLOR", "1")
    app, table = make_app(players=players, seed=seed, show_chat=True)
    table.bot_delay = 0.001
    seen: Counter[str] = Counter()

    def compare_all() -> None:
        for widget in app.screen.query(LineWidget):
            if widget.is_mounted and widget.display:
                _check(widget, seen)

    async with app.run_test(size=size) as pilot:
        await play_by_keys(app, table, pilot, seed=seed, max_presses=60, before_key=compare_all)
    assert {"PlayersPanel", "PromptPanel", "LogView", "StatusBar", "HandPanel"} <= set(seen)


async def test_inner_strips_keep_the_crops_edges():
    """Empty segments at a content line's edges: the crop drops those at the left, and those at the
    right when a gutter follows (a right border or padding); the inner strip does the same."""
    from ui.widgets.players import PlayersPanel

    app, _ = make_app(players=4, seed=2, show_chat=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for widget in app.screen.query(LineWidget):
            frame = widget._current_frame()
            if frame is None:
                continue
            width = frame.content_width
            style = Style(color="red")
            contents = [
                Strip([Segment("", style), Segment("x" * width, style), Segment("", style)]),
                Strip([Segment("", style), Segment("", None), Segment("ab", style), Segment("", style)]),
                Strip([Segment("a" * (width - 1), style), Segment("", style), Segment("b")]),
                Strip.blank(width, style),
            ]
            left = frame.gutter_left
            for content in contents:
                inner = frame.make_inner(content)
                cropped = frame.frame(content).crop(left, left + width)
                assert list(inner) == list(cropped), (type(widget).__name__, list(content))
                assert inner.cell_length == width
        assert app.screen.query(PlayersPanel)


async def test_inner_strips_are_kept_by_frame_and_line():
    """Two lines, two inner strips: asking again gives each its own, not another line's."""
    from ui.widgets import line_frame

    app, _ = make_app(players=4, seed=2, show_chat=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        widget = next(w for w in app.screen.query(LineWidget) if w._current_frame() is not None)
        frame = widget._current_frame()
        width = frame.content_width
        strips = {
            text: Strip([Segment(text.ljust(width), Style(color=colour))])
            for text, colour in (("one", "red"), ("two", "blue"))
        }
        made = {text: frame.inner_strip(("test", text), strip) for text, strip in strips.items()}
        for text, strip in strips.items():
            again = frame.inner_strip(("test", text), strip)
            assert again is made[text]
            assert Strip.join([again]).text.startswith(text)
        assert ("test", "one") != ("test", "two") and made["one"] is not made["two"]
        assert len(line_frame._inner) <= line_frame.MAX_FRAMED


@pytest.mark.parametrize("no_color", [False, True])
async def test_filtered_strips_are_textuals(monkeypatch, no_color):
    """A frame maps each style through its filters once (`Frame.filtered`): the same segments as
    Textual's `apply_filter`, for ANSI colours, dim text, no style and true colour, again and
    after its map was cleared."""
    from ui.widgets import line_frame

    if no_color:  # a Monochrome filter as well
        monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(line_frame, "MAX_FILTERED_STYLES", 5)
    styles = [
        None,
        Style(),
        Style(color="red"),
        Style(color="bright_blue", bgcolor="yellow", bold=True),
        Style(color="#336699", dim=True),
        Style(color="green", dim=True),
        Style(color="#fea62b", bgcolor="#121212"),
        Style(color="color(200)", italic=True),
        Style(bgcolor="magenta"),
    ]
    if no_color:  # Textual's Monochrome takes no unstyled segment (ANSIToTruecolor makes None of Style())
        styles = styles[2:]
    app, _ = make_app(players=4, seed=2, show_chat=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        frames = {w._current_frame() for w in app.screen.query(LineWidget)} - {None}
        assert frames and all(frame.filters for frame in frames)
        for frame in frames:
            for round_ in range(3):
                for start in range(len(styles)):
                    picked = styles[start:] + styles[:start]
                    strip = Strip([Segment(f"{round_}{i}ab", style) for i, style in enumerate(picked)])
                    ours, theirs = frame.filtered(strip), frame._apply_filters(strip)
                    assert list(ours) == list(theirs), (frame.filters, picked)
                    assert [s.style for s in ours] == [s.style for s in theirs]


def test_styled_segments_are_richs():
    """A line's segments (`line_pieces.styled_segments`: side-by-side spans without Rich's edge sort)
    are Rich's `Text.render` with the base style added, for any spans: side by side, nested,
    overlapping, empty, over the whole line; named styles, Style objects, a line's own style."""
    import random

    from rich.console import Console

    from ui.widgets.line_pieces import styled_segments

    console = Console(width=80, file=None, color_system="truecolor")
    rng = random.Random(5)
    named = ["bold", "red on black", "italic #336699", "dim", Style(color="green"), Style(bgcolor="#121212")]
    for case in range(600):
        plain = "".join(rng.choice("ab é中") for _ in range(rng.randrange(0, 14)))
        line = Text(plain, style=rng.choice(["", "underline", Style(bold=True)]), end="")
        at = 0
        for _ in range(rng.randrange(0, 5)):
            if case % 3:  # side by side, now and then a gap
                start = at + rng.randrange(0, 3)
                end = start + rng.randrange(1, 4)
            else:  # anywhere in the text
                start = rng.randrange(0, len(plain) + 1)
                end = min(start + rng.randrange(0, 5), len(plain))
            if end <= len(plain):  # (Rich's own render fails past the text's end)
                line.spans.append(Span(start, end, rng.choice(named)))
                at = end
        if case % 3 == 1 and plain:  # a span over the whole line, among the others
            line.spans.insert(rng.randrange(len(line.spans) + 1), Span(0, len(plain), rng.choice(named)))
        base = rng.choice([Style(color="#fea62b", bgcolor="#000000"), Style.null()])
        ours = styled_segments(line, base, console)
        if line.spans:
            theirs = list(Segment.apply_style(line.render(console), base))
        else:  # Text.render leaves out a line's own style without spans: styled_segments gives it
            own = console.get_style(line.style) if line.style else None
            theirs = [Segment(plain, (base + own) if base else own)]
        assert ours == theirs, (plain, line.spans)
