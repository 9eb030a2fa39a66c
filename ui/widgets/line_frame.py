"""A line widget's border, padding and filters, drawn around its lines without Textual's per-line styling,
and shared by every app in the process.

Textual draws each changed line of a widget through `StylesCache.render_line`:
it reads the border, outline, padding, hatch, tint and opacity rules again,
builds the edge segments and blends colours, for every line, every frame, in
every session. For our line widgets (`LineWidget`) all of that is the same for
every content line of a frame: a `Frame` works it out once per size, colours and
title, and then frames a content line by putting two edge segments and the
padding around it.

A served table draws the same lines on each of its seats' screens (the status
bar, the players, the log's public sentences, the waiting prompt), and tables
draw the same sentences and menus. So the strips are shared between apps: a
line's strip (`content_strip`) and its framed strip (`Frame.framed`) are made
once for every app with the same colours and panel geometry, and the caches
Textual keeps on a strip (its pieces at the screen's cuts, its ANSI text) are
shared with it. Every cache here is bounded, first in first out; a widget keeps
its own references to the strips on its screen.

A table screen's changed lines are painted directly (`ui/compat/direct_paint.py`) with their
content columns only: `Frame.inner_strip` is a content line as the framed strip has it between the
left and right gutters (filtered, the cells of `framed(...).crop(...)`), made without the edges.

Rows of border or padding are drawn by Textual's own `render_line` when a frame
is made. A widget with an effect this module does not draw (tint, opacity, text
opacity, outline, hatch), or with a line filter it does not know, is left to
Textual. tests/ui/test_line_frame.py compares both on every frame of played
games. What this takes of Textual's internals is in `ui.compat.line_styles`
(frames are used only on a Textual verified with it, `ui.compat.frames_lines()`).
"""

from __future__ import annotations

import functools
import itertools
import weakref
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip

from ui.compat import line_styles

from .line_pieces import pieces_of, styled_segments
from .shared_memo import put_bounded as _put

if TYPE_CHECKING:
    from textual.widget import Widget

    from .line_widget import LineWidget

MAX_LINES = 4096  # content strips shared by every app (~2 KB each with their ANSI text)
MAX_FRAMED = 4096  # framed strips shared by every app
MAX_FRAMES = 512
MAX_FILTERED_STYLES = 1024  # per frame
_UNMAPPED: Any = object()

_lines: dict[tuple, Strip] = {}
_framed: dict[tuple, Strip] = {}
_inner: dict[tuple, Strip] = {}  # the content columns of framed strips (shares MAX_FRAMED)
_entries: dict[tuple, weakref.ref[_Entry]] = {}  # the entries some widget holds (`shared_entry`)
NO_TEXT: Any = object()  # an entry's painted text not made yet
_frames: dict[tuple, Frame] = {}
_serials = itertools.count()


def content_strip(key: tuple, line: Text, width: int, base: Any, console: Any) -> Strip:
    """`line` as a strip of exactly `width` cells on `base`; `key` names its text, spans, style, width, base."""
    strip = _lines.get(key)
    if strip is None:
        segments = styled_segments(line, base, console)
        length = sum([cell_len(segment.text) for segment in segments])  # as `Strip.cell_length` counts
        if length <= width:  # `Strip(segments).crop(0, width).extend_cell_length(width, base)` in one strip
            if length < width:
                segments.append(Segment(" " * (width - length), base))
            strip = Strip(segments, width)
        else:
            strip = Strip(segments, length).crop(0, width).extend_cell_length(width, base)
        _put(_lines, key, strip, MAX_LINES)
    return strip


class _Entry(list):
    """A line's entry (a list, indexed as one): weakly referenced, kept while a widget holds it."""

    __slots__ = ("__weakref__",)


def _forget_entry(key: tuple, ref: weakref.ref[_Entry]) -> None:
    if _entries.get(key) is ref:  # (not a newer entry for the same line)
        del _entries[key]


def shared_entry(key: tuple, line: Text, width: int, base: Any, console: Any) -> list:
    """The entry of the content line named `key` (see `content_strip`), shared by every app's line
    widgets: [its strip (None until asked: `entry_strip`), its framed strip, the Frame that was for,
    `key`, its content columns in a frame (`Frame.inner_strip`; None until asked), that Frame, the
    colour conversion of its painted text, that text, the line] (`LineWidget._entry`). Each widget
    checks the frame (and conversion) a strip or text was made for before using it, so a line on six
    seats' screens is framed, cropped and rendered once. A directly painted line needs its text
    only (`Frame.painted_text`): its strips are made if Textual draws it. Kept only while a widget
    holds it (a weak reference: no more long-lived objects than lines on screens, fewer than one
    entry per widget and line as before)."""
    ref = _entries.get(key)
    entry = ref() if ref is not None else None
    if entry is None:
        entry = _Entry((None, None, None, key, None, None, NO_TEXT, None, line))
        _entries[key] = weakref.ref(entry, functools.partial(_forget_entry, key))
    return entry


def entry_strip(entry: list, console: Any) -> Strip:
    """An entry's content strip (`content_strip` of its line), made when first asked."""
    strip = entry[0]
    if strip is None:
        key = entry[3]
        strip = entry[0] = content_strip(key, entry[8], key[3], key[4], console)
    return strip


_around: dict[int, tuple[Any, Any, Any, str, str]] = {}  # id(style) -> (style, system, conversion, before, after)
MAX_AROUND = 4096


def _around_of(style: Style, system: Any, convert: Any) -> tuple[Any, Any, Any, str, str]:
    """What `Strip.render_style` puts before and after a text in `style` (its SGR and reset, a link's
    escapes), each converted by `convert`: the converted render of any text without an escape in
    it (the conversion rewrites each SGR alone)."""
    before, after = Strip.render_style(style, "\0", system).split("\0")
    if convert is not None:
        before, after = convert(before), convert(after)
    got = (style, system, convert, before, after)
    _put(_around, id(style), got, MAX_AROUND)
    return got


class Frame:
    """Everything needed to frame a content line of one widget at one size and colouring."""

    __slots__ = (
        "background",
        "blank",
        "bottom",
        "content_width",
        "filtered_styles",
        "filters",
        "gutter_left",
        "inner",
        "inner_blank",
        "left",
        "pad_left",
        "pad_right",
        "right",
        "rows",
        "serial",
        "top",
        "width",
    )

    def __init__(self, widget: Widget, key: tuple, blank_style: Any) -> None:
        self.serial = next(_serials)
        styles = widget.styles
        size, content_size, base_background, background, opacity, filters = key[:6]
        gutter = styles.gutter
        self.width = size.width
        self.top = gutter.top
        self.bottom = size.height - gutter.bottom  # first row below the content
        self.content_width = content_size.width
        self.filters = filters
        # a style -> the style the filters make of it (None: a filter not known to map styles alone)
        known = all(line_styles.filter_signature(f) is not None for f in filters)
        self.filtered_styles: dict[Style | None, Style | None] | None = {} if known else None
        self.background = background
        # border and padding rows drawn by Textual now (a frame keeps no widget: it is shared)
        rows = [*range(self.top), *range(max(self.bottom, self.top), size.height)]
        drawn = line_styles.frame_styles(widget, size, content_size, base_background, background, opacity, rows)
        self.inner = drawn.inner
        self.left = drawn.left
        self.right = drawn.right
        _, pad_right, _, pad_left = styles.padding
        self.pad_left = Segment(" " * pad_left, self.inner) if pad_left else None
        self.pad_right = Segment(" " * pad_right, self.inner) if pad_right else None
        self.rows: dict[int, Strip] = {y: self.filtered(row) for y, row in drawn.rows.items()}
        self.gutter_left = gutter.left
        blank = Strip.blank(self.content_width, blank_style)
        self.blank = self.frame(blank)  # rows past the last line
        self.inner_blank = self.make_inner(blank)

    def framed(self, key: tuple, content: Strip) -> Strip:
        """The framed strip of the content line named `key` (see `content_strip`)."""
        fkey = (self.serial, key)
        strip = _framed.get(fkey)
        if strip is None:
            strip = self.frame(content)
            _put(_framed, fkey, strip, MAX_FRAMED)
        return strip

    def inner_strip(self, key: tuple, content: Strip) -> Strip:
        """The content columns of `framed(key, content)` (its cells between the gutters), made without the edges."""
        ikey = (self.serial, key)
        strip = _inner.get(ikey)
        if strip is None:
            strip = self.make_inner(content)
            _put(_inner, ikey, strip, MAX_FRAMED)
        return strip

    def painted_text(self, line: Text, width: int, base: Style, console: Any, convert: Any) -> str | None:
        """`make_inner(content_strip(line...)).render(console)`, converted by `convert` when given, made
        from the line's pieces without the strips (the same texts: each piece through the filters'
        style map, the edge pieces the crop drops left out, each rendered by Textual's
        `Strip.render_style`, then the whole converted); None when this frame cannot (a line wider than
        its width, a filter that does not map styles alone): then make the strips."""
        if width != self.content_width:
            return None
        styles = self.filtered_styles
        filters = self.filters
        if filters and styles is None:
            return None
        pieces = pieces_of(line, base, console)
        length = cell_len(line.plain)  # (the pieces' cells, as `content_strip` sums them)
        if length > width:
            return None
        if length < width:
            pieces.append((" " * (width - length), base))
        if filters:
            assert styles is not None
            mapped: list[tuple[str, Any]] = []
            for text, style in pieces:
                new = styles.get(style, _UNMAPPED)
                if new is _UNMAPPED:
                    new = self._map_style(style)
                mapped.append((text, new))
            pieces = mapped
        right_gutter = self.width > self.gutter_left + self.content_width
        if self.gutter_left or right_gutter:  # the crop drops the empty pieces at the edges it cuts
            start, end = 0, len(pieces)
            while start < end and not pieces[start][0]:
                start += 1
            if right_gutter:
                while end > start and not pieces[end - 1][0]:
                    end -= 1
            pieces = pieces[start:end]
        system = line_styles.colour_system(console)
        out: list[str] = []
        for piece, style in pieces:
            if style is None:
                out.append(piece)
            elif "\x1b" in piece:  # an escape in the text: the conversion must see it with the rest
                render = Strip.render_style
                text = "".join([p if s is None else render(s, p, system) for p, s in pieces])
                return text if convert is None else convert(text)
            else:
                got = _around.get(id(style))
                if got is None or got[0] is not style or got[1] is not system or got[2] is not convert:
                    got = _around_of(style, system, convert)
                out += (got[3], piece, got[4])
        return "".join(out)

    def make_inner(self, content: Strip) -> Strip:
        """`self.frame(content).crop(gutter_left, gutter_left + content_width)`, the same segments: the
        filters map segment by segment, and the crop drops the empty segments at the edges it cuts."""
        strip = self.filtered(content.adjust_cell_length(self.content_width, self.inner))
        right_gutter = self.width > self.gutter_left + self.content_width
        if not self.gutter_left and not right_gutter:  # the crop of the whole strip is the strip
            return strip
        segments = list(strip)
        start, end = 0, len(segments)
        while start < end and not segments[start].text:
            start += 1
        if right_gutter:  # else the crop keeps the end as it is
            while end > start and not segments[end - 1].text:
                end -= 1
        if start or end < len(segments):
            return Strip(segments[start:end], self.content_width)
        return strip

    def frame(self, content: Strip) -> Strip:
        """A content line (already `content_width` cells) with padding, edges and filters."""
        segments: list[Segment] = list(content.adjust_cell_length(self.content_width, self.inner))
        if self.pad_left is not None:
            segments.insert(0, self.pad_left)
        if self.pad_right is not None:
            segments.append(self.pad_right)
        if self.left is not None:
            segments.insert(0, self.left)
        if self.right is not None:
            segments.append(self.right)
        return self.filtered(Strip(segments, self.width))

    def filtered(self, strip: Strip) -> Strip:
        """`strip` through the line filters: Textual's filters (`line_styles.filter_signature`) map each
        segment's style alone, so each style is mapped once per frame and a segment whose style
        stays is kept (the same segments as `Strip.apply_filter`, fewer made); any other filter,
        or a control segment, goes through `apply_filter`."""
        filters = self.filters
        if not filters:
            return strip
        styles = self.filtered_styles
        if styles is None:
            return self._apply_filters(strip)
        segments = list(strip)
        changed = False
        for index, (text, style, control) in enumerate(segments):
            if control is not None:
                return self._apply_filters(strip)
            new = styles.get(style, _UNMAPPED)
            if new is _UNMAPPED:
                new = self._map_style(style)
            if new is not style:
                segments[index] = Segment(text, new)
                changed = True
        return Strip(segments, strip.cell_length) if changed else strip

    def _map_style(self, style: Style | None) -> Style | None:
        styles = self.filtered_styles
        assert styles is not None
        probe = [Segment(" ", style)]
        for line_filter in self.filters:
            probe = line_filter.apply(probe, self.background)
        if len(styles) >= MAX_FILTERED_STYLES:
            styles.clear()
        new = styles[style] = probe[0].style
        return new

    def _apply_filters(self, strip: Strip) -> Strip:
        for line_filter in self.filters:
            strip = strip.apply_filter(line_filter, self.background)
        return strip


def _style_part(widget: LineWidget) -> tuple | None:
    """What a frame reads of the styles of `widget` and its ancestors: (opacity, base background,
    background), or None for an effect the frame does not draw. Kept on the widget until a style
    rule of it or of an ancestor changes (`line_styles.styles_versions`): the two walks over the
    ancestors (opacity, background colours) and the colour blending were ~40 % of a frame key."""
    versions = line_styles.styles_versions(widget)
    kept = widget._style_part
    if kept is not None and kept[0] == versions:
        return kept[1]
    styles = widget.styles
    opacity = widget.opacity
    drawn_by_textual = (
        opacity != 1.0
        or styles.tint.a
        or styles.text_opacity != 1.0
        or any(edge for edge, _ in styles.outline)
        or (styles.has_rule("hatch") and styles.hatch != "none")
    )
    part = None if drawn_by_textual else (opacity, *widget.background_colors)
    widget._style_part = (versions, part)
    return part


def frame_key(widget: LineWidget) -> tuple | None:
    """What a frame depends on beyond the widget's style rules; None when Textual must draw it."""
    part = _style_part(widget)
    if part is None:
        return None
    opacity, base_background, background = part
    # The size of the last layout, not `widget.region` (the compositor's map): while a frame is
    # drawn a look-up of another widget may rebuild the map with styles set since (a panel moved),
    # and the rows asked for are those of the last layout. (`drawn_size` from the same outer size.)
    outer = widget.outer_size
    gutter = widget.styles.gutter
    drawn = Size(max(outer.width - gutter.width, 0), max(outer.height - gutter.height, 0))
    return (
        outer,
        drawn,
        base_background,
        background,
        opacity,
        tuple(widget.get_line_filters()),
        *line_styles.titles(widget),
        *line_styles.ansi_colours(widget.app),
    )


def shared_frame(widget: Widget, key: tuple, blank_style: Any) -> Frame:
    """The frame for `widget` at `key`: one made for another app's widget with the same look, or a new one."""
    filters = [line_styles.filter_signature(f) for f in key[5]]
    if None in filters:
        return Frame(widget, key, blank_style)  # not shared
    styles = widget.styles
    signature = (
        key[:5],
        tuple(filters),
        id(key[8]),
        key[9],
        styles.border,
        styles.padding,
        styles.border_title_align,
        styles.border_subtitle_align,
        blank_style,
        line_styles.title_signature(widget, key[2]),
    )
    frame = _frames.get(signature)
    if frame is None:
        frame = Frame(widget, key, blank_style)
        _put(_frames, signature, frame, MAX_FRAMES)
    return frame
