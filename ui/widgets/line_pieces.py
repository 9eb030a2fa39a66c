"""A line cut into its pieces: (text, style) between its spans' edges, as Rich's `Text.render` cuts it,
each style added to the widget's base style; the layouts (where the pieces fall and their styles)
shared by every app (`ui/widgets/line_frame.py` makes strips and painted texts of them)."""

from __future__ import annotations

import itertools
from itertools import chain, starmap
from operator import itemgetter
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text

from .shared_memo import put_bounded

MAX_PIECES = 4096  # lines' piece layouts shared by every app (`styled_segments`)
_pieces: dict[tuple, tuple] = {}  # a line's spans, style, length and base -> its pieces (`styled_segments`)


def pieces_of(line: Text, base: Style, console: Any) -> list[tuple[str, Any]]:
    """(text, style) of each of `styled_segments(line, base, console)`, without making the segments."""
    plain = line.plain
    spans = line.spans
    if not spans:  # Text.render leaves out the base style of a text without spans: given here
        own = console.get_style(line.style) if line.style else None
        return [(plain, (base + own) if base else own)]
    # The pieces and their styles depend on the spans, the line's style, its length and the base,
    # not on its text: a line new to the process (a player's gold changed) mostly has the layout of
    # one drawn before, whose pieces are cut from the new text (~3/4 of new lines at a table). The
    # key and the pieces are flat tuples (start, end, style, ...): few long-lived objects for the
    # garbage collector (a full collection is ~100 ms at a table's six apps).
    layout = (*chain.from_iterable(spans), line.style, len(plain), base)
    pieces = _pieces.get(layout)
    if pieces is None:
        pieces = _styled_pieces(line, base, console)
        put_bounded(_pieces, layout, pieces, MAX_PIECES)
    at = iter(pieces)
    return [(plain[start:end], style) for start, end, style in zip(at, at, at)]


def styled_segments(line: Text, base: Style, console: Any) -> list[Segment]:
    """`Segment.apply_style(line.render(console), base)` in one pass, the same segments: Rich's
    `Text.render` (each piece between span edges in the spans over it, combined in their order),
    each piece's style added to `base` once per set of spans rather than once per piece. A line
    not yet drawn in the process and drawn by Textual costs this (a directly painted one is made
    from its pieces, `Frame.painted_text`)."""
    return list(starmap(Segment, pieces_of(line, base, console)))


def _styled_pieces(line: Text, base: Style, console: Any) -> tuple[Any, ...]:
    """(start, end, style, start, end, style, ...) of the pieces of `line` (with spans) as
    `styled_segments` cuts them."""
    spans = line.spans
    length = len(line.plain)
    null = Style.null()
    get_style = console.get_style
    style_map = {  # (`get_style` returns a Style as it is: not called for one)
        index: given if isinstance(given := span.style, Style) else get_style(given, default=null)
        for index, span in enumerate(spans, 1)
    }
    style_map[0] = get_style(line.style, default=null)
    combined: dict[tuple[int, ...], Style] = {}
    out: list[Any] = []
    for offset, next_offset, ids in _side_by_side(spans, length) or _nested(spans, length):
        style = combined.get(ids)
        if style is None:
            style = Style.combine([style_map[i] for i in ids])
            if base:
                style = base + style
            combined[ids] = style
        out += (offset, next_offset, style)
    return tuple(out)


def _side_by_side(spans: list[Span], length: int) -> list[tuple[int, int, tuple[int, ...]]] | None:
    """The pieces of a line whose spans follow one another without overlapping (most lines), each
    not empty and within the text, besides spans over the whole line (over every piece): the pieces
    `_nested` gives for them; None for any other."""
    full = tuple(index for index, (start, end, _) in enumerate(spans, 1) if start == 0 and end == length > 0)
    own = (0, *full)
    pieces: list[tuple[int, int, tuple[int, ...]]] = []
    at = 0
    for index, (start, end, _) in enumerate(spans, 1):
        if full and index in full:
            continue
        if not at <= start < end <= length:
            return None
        if start > at:
            pieces.append((at, start, own))
        pieces.append((start, end, tuple(sorted((*own, index))) if full else (0, index)))
        at = end
    if at < length:
        pieces.append((at, length, own))
    return pieces


def _nested(spans: list[Span], length: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Rich's `Text.render` pieces: (start, end, the ids of the spans over it in order, 0 the line's own)."""
    edges = [
        (0, False, 0),
        *((span.start, False, index) for index, span in enumerate(spans, 1)),
        *((span.end, True, index) for index, span in enumerate(spans, 1)),
        (length, True, 0),
    ]
    edges.sort(key=itemgetter(0, 1))
    stack: list[int] = []
    pieces: list[tuple[int, int, tuple[int, ...]]] = []
    for (offset, leaving, style_id), (next_offset, _, _) in itertools.pairwise(edges):
        if leaving:
            stack.remove(style_id)
        else:
            stack.append(style_id)
        if next_offset > offset:
            pieces.append((offset, next_offset, tuple(sorted(stack))))
    return pieces
