"""A line widget's border, padding and filters, drawn around its lines without Textual's per-line styling.

Textual draws each changed line of a widget through `StylesCache.render_line`:
it reads the border, outline, padding, hatch, tint and opacity rules again,
builds the edge segments and blends colours, for every line, every frame, in
every session. For our line widgets (`LineWidget`) all of that is the same for
every content line of a frame: a `Frame` works it out once per size, colours and
title, and then frames a content line by putting two edge segments and the
padding around it. The framed strip is kept with the content strip, so a line
that only moved (the log scrolled) costs a dictionary lookup.

Rows of border or padding are still drawn by Textual's own `render_line` (once
per frame, not per change). A widget with an effect this module does not draw
(tint, opacity, text opacity, outline, hatch) is left to Textual.
tests/ui/test_line_frame.py compares both on every frame of played games.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual._border import get_box
from textual._segment_tools import make_blank
from textual.strip import Strip
from textual.style import Style

if TYPE_CHECKING:
    from textual.widget import Widget


class Frame:
    """Everything needed to frame a content line of one widget at one size and colouring."""

    __slots__ = ("key", "width", "top", "bottom", "rows", "left", "right", "pad_left", "pad_right", "filters",
                 "background", "content_width", "inner", "blank", "_fixed_args", "_styles_cache")

    def __init__(self, widget: Widget, key: tuple, blank_style: Any) -> None:
        self.key = key
        styles = widget.styles
        size, content_size, base_background, background, opacity, filters = key[:6]
        gutter = styles.gutter
        self.width = size.width
        self.top = gutter.top
        self.bottom = size.height - gutter.bottom  # first row below the content
        self.content_width = content_size.width
        self.filters = filters
        self.background = background
        cache = widget._styles_cache
        self._styles_cache = cache
        inner, outer = cache.get_inner_outer(base_background, background)
        self.inner = inner.rich_style
        (_, (border_right, right_colour), _, (border_left, left_colour)) = styles.border
        self.left: Segment | None = None
        self.right: Segment | None = None
        if border_left:
            self.left = get_box(border_left, inner, outer,
                                Style(foreground=base_background + left_colour.multiply_alpha(opacity)))[1][0]
        if border_right:
            self.right = get_box(border_right, inner, outer,
                                 Style(foreground=base_background + right_colour.multiply_alpha(opacity)))[1][2]
        _, pad_right, _, pad_left = styles.padding
        self.pad_left = make_blank(pad_left, self.inner) if pad_left else None
        self.pad_right = make_blank(pad_right, self.inner) if pad_right else None
        self.rows: dict[int, Strip] = {}  # border and padding rows, drawn by Textual once
        title = None if widget._border_title is None else (
            widget._border_title, *widget._get_title_style_information(base_background))
        subtitle = None if widget._border_subtitle is None else (
            widget._border_subtitle, *widget._get_subtitle_style_information(base_background))
        app = widget.app
        self._fixed_args = (size, content_size, styles.padding, base_background, background, title, subtitle,
                            opacity, app.ansi_theme, app.native_ansi_color)
        self.blank = self.frame(Strip.blank(self.content_width, blank_style))  # rows past the last line

    def fixed_row(self, widget: Widget, y: int) -> Strip:
        """A border or padding row (Textual's own drawing, kept for the frame's lifetime)."""
        row = self.rows.get(y)
        if row is None:
            size, content_size, padding, base_background, background, title, subtitle, opacity, theme, native = \
                self._fixed_args
            self._styles_cache._simple_strip = None  # its one-row memo belongs to a render pass
            row = self._styles_cache.render_line(widget.styles, y, size, content_size, padding, base_background,
                                                 background, widget.render_line, title, subtitle, opacity, theme,
                                                 native)
            row = self.filtered(row)
            self.rows[y] = row
        return row

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
        for line_filter in self.filters:
            strip = strip.apply_filter(line_filter, self.background)
        return strip


def frame_key(widget: Widget) -> tuple | None:
    """What a frame depends on beyond the widget's style rules; None when Textual must draw it."""
    styles = widget.styles
    opacity = widget.opacity
    if opacity != 1.0 or styles.tint.a or styles.text_opacity != 1.0:
        return None
    if any(edge for edge, _ in styles.outline):
        return None
    if styles.has_rule("hatch") and styles.hatch != "none":
        return None
    base_background, background = widget.background_colors
    app: Any = widget.app
    return (widget.region.size, widget.content_region.size, base_background, background, opacity,
            tuple(widget.get_line_filters()), widget._border_title, widget._border_subtitle, app.ansi_theme,
            app.native_ansi_color)
