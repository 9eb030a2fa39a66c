"""What our line widgets need of Textual's per-line styling, for `ui/widgets/line_frame.py`.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_line_frame.py
answers every `render_lines` call of played games both ways, ours and Textual's
`Widget.render_lines`, and compares the strips segment by segment).

A line widget frames its content lines itself (border edges, padding, line
filters worked out once per size and colouring, and shared by every app in the
process) instead of styling every line again through Textual's `StylesCache`.
Doing it as Textual would takes Textual's own pieces, which are private:

- `StylesCache.get_inner_outer` (the content and outer styles), `get_box` from
  `textual._border` (a border's edge segments), `StylesCache.render_line` for
  the rows of border and padding (drawn once per frame, with the titles);
- the border title and subtitle as the widget keeps them (`_border_title`,
  `_get_title_style_information`; the public `border_title` is console markup,
  rebuilt on each read);
- the terminal theme of an `ANSIToTruecolor` filter, to tell filters apart;
- `Widget._styles_cache.clear()`, when a widget goes back to Textual's styling;
- `RenderStyles._cache_key` (a count of the rule changes) of a widget and its ancestors, to keep
  what a frame's key reads of their styles until one of them changes (`styles_versions`);
- the app's reactives behind its ANSI theme (`_reactive_theme`, ...) and its registered themes,
  to keep `App.ansi_theme` and `App.native_ansi_color` until one of them changes (`ansi_colours`).

Used only when `ui.compat.frames_lines()` (a verified Textual): on another version
line widgets draw through `Widget.render_lines` and nothing here runs. Private
modules are imported inside the functions, so importing this is safe anywhere.

Upstream: a public way to frame a content strip as `StylesCache` would (edge
segments, padding and the border rows for a size), for widgets that render
their own lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.filter import ANSIToTruecolor, DimFilter, Monochrome, NoColor
from textual.strip import Strip
from textual.style import Style

if TYPE_CHECKING:
    from textual.app import App
    from textual.color import Color
    from textual.geometry import Size
    from textual.widget import Widget


@dataclass(frozen=True, slots=True)
class FrameStyles:
    """A widget's frame at one size and colouring, as Textual would draw it."""

    inner: RichStyle  # the content area's style (padding is drawn with it)
    left: Segment | None  # the left border's segment on a content row
    right: Segment | None  # the right border's segment on a content row
    rows: dict[int, Strip]  # the rows of border and padding, not yet filtered


def frame_styles(
    widget: Widget,
    size: Size,
    content_size: Size,
    base_background: Color,
    background: Color,
    opacity: float,
    rows: list[int],
) -> FrameStyles:
    """The content style, the edge segments and the border/padding `rows` of `widget` at `size`."""
    from textual._border import get_box

    styles = widget.styles
    cache = widget._styles_cache
    inner, outer = cache.get_inner_outer(base_background, background)
    (_, (border_right, right_colour), _, (border_left, left_colour)) = styles.border
    left = right = None
    if border_left:
        edge = Style(foreground=base_background + left_colour.multiply_alpha(opacity))
        left = get_box(border_left, inner, outer, edge)[1][0]
    if border_right:
        edge = Style(foreground=base_background + right_colour.multiply_alpha(opacity))
        right = get_box(border_right, inner, outer, edge)[1][2]
    title = (
        None
        if widget._border_title is None
        else (widget._border_title, *widget._get_title_style_information(base_background))
    )
    subtitle = (
        None
        if widget._border_subtitle is None
        else (widget._border_subtitle, *widget._get_subtitle_style_information(base_background))
    )
    app = widget.app
    drawn: dict[int, Strip] = {}
    for y in rows:
        cache._simple_strip = None  # its one-row memo belongs to a render pass
        drawn[y] = cache.render_line(
            styles,
            y,
            size,
            content_size,
            styles.padding,
            base_background,
            background,
            widget.render_line,
            title,
            subtitle,
            opacity,
            app.ansi_theme,
            app.native_ansi_color,
        )
    return FrameStyles(inner.rich_style, left, right, drawn)


def titles(widget: Widget) -> tuple[Any, Any]:
    """The border title and subtitle as the widget keeps them (None when unset): part of a frame's key."""
    return widget._border_title, widget._border_subtitle


def title_signature(widget: Widget, base_background: Color) -> tuple[Any, ...]:
    """What the border title and subtitle rows depend on, comparable between widgets of different apps."""
    signature: list[Any] = []
    for content, style_of in (
        (widget._border_title, widget._get_title_style_information),
        (widget._border_subtitle, widget._get_subtitle_style_information),
    ):
        if content is None:
            signature.append(None)
        else:
            signature.append(((content.plain, tuple(content.spans)), *style_of(base_background)))
    return tuple(signature)


def filter_signature(line_filter: Any) -> tuple[Any, ...] | None:
    """What a line filter's output depends on, for the filters Textual's apps use; None for any other."""
    kind = type(line_filter)
    if kind is ANSIToTruecolor:
        return ("truecolor", id(line_filter._terminal_theme))  # a theme is a module-level constant
    if kind is DimFilter:
        return ("dim", line_filter.dim_factor)
    if kind in (Monochrome, NoColor):
        return (kind.__name__,)
    return None


_ANSI = "_citadels_ansi_colours"  # on an app: (what they were read from, (ansi_theme, native_ansi_color))
_UNSET = object()


def ansi_colours(app: App[Any]) -> tuple[Any, bool]:
    """`(app.ansi_theme, app.native_ansi_color)`, part of every frame key: ~2.8 us through Textual's
    properties (each looks the current theme up twice, copying the registered themes each time).
    Kept on the app with what they are read from: the theme's name and the theme registered under
    it, `ansi_color` and the dark and light ANSI themes (the reactives' own attributes, read
    without their descriptors); read again when any of those is another object."""
    name = getattr(app, "_reactive_theme", _UNSET)
    theme = app._registered_themes.get(name) if isinstance(name, str) else None
    if theme is None:  # not set yet, or a list of names: as Textual reads them
        return app.ansi_theme, app.native_ansi_color
    key = (
        name,
        theme,
        getattr(app, "_reactive_ansi_color", _UNSET),
        getattr(app, "_reactive_ansi_theme_dark", _UNSET),
        getattr(app, "_reactive_ansi_theme_light", _UNSET),
    )
    kept = getattr(app, _ANSI, None)
    if kept is not None and kept[0] == key:
        return kept[1]
    value = (app.ansi_theme, app.native_ansi_color)
    setattr(app, _ANSI, (key, value))
    return value


def styles_versions(widget: Widget) -> tuple[Any, ...]:
    """A key that changes when a style rule of `widget` or of any of its ancestors changes: each
    node (its id: a mounted widget keeps its ancestors alive) with its styles' `_cache_key`
    (Textual's own count of rule changes, kept for its cached rich style and gutter; every rule set
    through the stylesheet or inline goes through `set_rule`/`clear_rule`/`merge`, which count)."""
    versions = []
    node: Any = widget
    while node is not None:  # `ancestors_with_self` without its list
        versions.append((id(node), node.styles._cache_key))
        node = node._parent
    return tuple(versions)


def forget_styled_lines(widget: Widget) -> None:
    """Drop the lines Textual's `StylesCache` kept for `widget` (they missed changes drawn by our frame)."""
    widget._styles_cache.clear()


def colour_system(console: Any) -> Any:
    """The colour system `Strip.render` renders in for `console` (Textual 8.2.8: the console's own,
    else true colour)."""
    return console._color_system or ColorSystem.TRUECOLOR
