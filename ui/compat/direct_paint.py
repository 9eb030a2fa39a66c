"""A table screen's changed lines painted straight to the driver, without Textual's refresh round trip.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_direct_paint.py plays
games with and without it through a terminal model and compares the screens after every move).

Textual's way for a widget whose lines changed: `refresh(region)` marks it dirty and wakes its
task (Idle, `_check_refresh`, a `messages.Update` to the screen), the screen's task, its update
timer, then the compositor's partial update and `App._display`. For a view update on a served
table that round trip was a third of a seat's CPU, on top of the lines themselves.

Here, while a table screen takes in an update (`painting(screen)`, around `TableScreen.show` and
its other entry points), `LineWidget.invalidate` hands its changed content rows to `record`
instead of refreshing. At the end they are painted in one write, as `App._display` writes a
frame: the begin/end-of-update markers when the terminal has them, for each widget the content
columns of its changed rows (the cells Textual's partial update sends, less the left border and
padding it also resends: `LineWidget.painted_rows`, or else one `render_lines` call over the rows
and a crop), a cursor move as text before each, then the cursor's position, then
`driver.flush()` (the SSH driver's back-pressure applies as to any frame: dropped, then a full
repaint). A driver with `convert_rendered` (the SSH driver: the client's colours) has each row's
rendered text converted there, once per process for a text shared by apps (a line widget keeps
the converted text with the line's shared entry), and takes the frame with `write_converted`
(not converted again).

Only when that is what Textual's next frame would draw (`_fits`, `_paintable`); else, per widget,
`refresh()` as before: the screen on top and nothing pending on it (layout, scroll, repaint,
recompose, batch), a running app with a non-inline, non-headless driver; the widget in the
compositor's map at its current size, wholly inside its clip and the screen, not waiting for a
repaint of its own, and no other widget (a toast, a tooltip, another panel) in front of it. What
Textual keeps about the terminal is left as a frame leaves it: the widget's size caches cleared
and, when Textual styles its lines, its `StylesCache` rows marked dirty (as `refresh` does; a line
widget drawn by its frame forgets that cache before Textual styles it again), `App._previous_cursor_position` set,
nothing added to the compositor's dirty regions. A layout still in flight (a `messages.Layout`
queued for the screen) is harmless: the reflow repaints every region whose geometry changed.

`CITADELS_WITHOUT_PATCHES=direct_paint` leaves it out; `switch_off(app)` does for one app (tests).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from typing import Any, Concatenate, ParamSpec, TypeVar

from textual._ansi_sequences import SYNC_END, SYNC_START
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget

from ui.compat import check_verified

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound=Screen)

_LAYOUT_REQUIRED = attrgetter("_layout_required")
_ATTR = "_citadels_paint"  # on a screen while it takes in an update: {widget: changed content rows}
_PLACES = "_citadels_places"  # on a screen: (the compositor's visible widgets, `_places` of them)
_on = False
_off_apps: weakref.WeakSet[Any] = weakref.WeakSet()
# Counts for benchmarks and tests: updates with rows to paint, painted wholly directly, widgets refreshed instead.
STATS = {"updates": 0, "direct": 0, "fallback_widgets": 0}


def apply() -> bool:
    """Switch direct painting on (once); raises `UnverifiedTextual` on a Textual not verified."""
    global _on
    check_verified(__name__)
    _on = True
    return True


def switch_off(app: Any) -> None:
    """This app paints the usual way (tests comparing both in one process)."""
    _off_apps.add(app)


@contextmanager
def painting(screen: Screen) -> Iterator[None]:
    """While `screen` takes in an update: line widgets' changed rows are collected, then painted."""
    if not _on or getattr(screen, _ATTR, None) is not None or screen.app in _off_apps:
        yield  # off, or an update within an update: the outer one paints
        return
    pending: dict[Widget, set[int]] = {}
    setattr(screen, _ATTR, pending)
    try:
        yield
    finally:
        setattr(screen, _ATTR, None)
        if pending:
            _paint(screen, pending)


def painted(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """A screen's method that changes line widgets' content: runs within `painting(self)`."""

    @functools.wraps(method)
    def within(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        with painting(self):
            return method(self, *args, **kwargs)

    return within


def record(widget: Widget, rows: Iterable[int]) -> bool:
    """A line widget's changed content rows: True if kept for the screen's direct paint (else refresh them)."""
    if not _on:
        return False
    node = widget._parent
    while node is not None and not isinstance(node, Screen):
        node = node._parent
    pending = getattr(node, _ATTR, None)
    if pending is None:
        return False
    kept = pending.get(widget)
    if kept is None:
        pending[widget] = set(rows)
    else:
        kept.update(rows)
    return True


def _fits(app: Any, screen: Screen) -> bool:
    """The screen as Textual would draw a partial update of it now (`Screen._on_timer_update`,
    `App._display`), nothing pending that a frame would do first."""
    driver = app._driver
    try:
        if app.screen is not screen:
            return False
    except Exception:  # no screen stack: the app is starting or stopping
        return False
    return not (
        driver is None
        or not app._running
        or app._closed
        or app.is_headless
        or app.is_inline
        or driver.is_inline
        or app._batch_count
        or screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._recompose_required
        or screen._layout_widgets
        or any(map(_LAYOUT_REQUIRED, screen._nodes))  # (in C, not a generator: this runs for every paint)
    )


def _places(screen: Screen) -> dict[Widget, tuple[int, Region, bool]]:
    """Each visible widget: (its place front to back, its region, whether it is wholly inside its clip
    and the screen with no widget in front of it). Kept while the compositor keeps its map of visible
    widgets (the same dict until the next layout): working it out walked every widget on every paint."""
    compositor = screen._compositor
    visible = compositor.visible_widgets
    kept = getattr(screen, _PLACES, None)
    if kept is not None and kept[0] is visible:
        return kept[1]
    screen_region = compositor.size.region
    front: list[Region] = []  # what widgets in front of the next one cover
    places: dict[Widget, tuple[int, Region, bool]] = {}
    for place, (widget, (region, clip)) in enumerate(visible.items()):
        whole = (
            clip.contains_region(region)
            and screen_region.contains_region(region)
            and not any(map(region.overlaps, front))
        )
        places[widget] = (place, region, whole)
        front.append(region.intersection(clip))
    setattr(screen, _PLACES, (visible, places))
    return places


def _paintable(widget: Widget, region: Region) -> bool:
    if widget._layout_required or widget._repaint_required:  # (the map holds visible widgets only)
        return False
    return region.size == widget.outer_size  # else sized since the last layout: its next frame redraws it


def _paint(screen: Screen, pending: dict[Widget, set[int]]) -> None:
    app = screen.app
    STATS["updates"] += 1
    left = dict(pending)
    out: list[str] = []
    driver = app._driver
    # a row's rendered text in the client's colours (the SSH driver); None: written as rendered
    convert: Callable[[str], str] | None = getattr(driver, "convert_rendered", None)
    if _fits(app, screen):
        dirty_widgets = screen._dirty_widgets
        console = app.console
        places = _places(screen)
        # in the compositor's order (front to back), as before: the same frame
        for _, widget in sorted([(place[0], w) for w in pending if (place := places.get(w)) is not None]):
            _, region, whole = places[widget]
            if whole and widget not in dirty_widgets and _paintable(widget, region):
                _render_rows(widget, region, left.pop(widget), console, convert, out)
    if out and driver is not None:
        cursor = screen.outer_size.clamp_offset(app.cursor_position)  # as `App._display` places it
        out.append(f"\x1b[{cursor.y + 1};{cursor.x + 1}H")
        app._previous_cursor_position = cursor
        sync = app._sync_available
        frame = f"{SYNC_START}{''.join(out)}{SYNC_END}" if sync else "".join(out)
        # its rows converted above (cursor moves have no colours): not converted again
        write = driver.write if convert is None else driver.write_converted  # type: ignore[attr-defined]
        write(frame)
        driver.flush()
        app.post_display_hook()
    if left:
        STATS["fallback_widgets"] += len(left)
        for widget, rows in left.items():
            repaint = getattr(widget, "repaint_rows", None)
            if repaint is not None:
                repaint(rows)
            else:
                widget.refresh()
    else:
        STATS["direct"] += 1


def _render_rows(
    widget: Widget,
    region: Region,
    rows: set[int],
    console: Any,
    convert: Callable[[str], str] | None,
    out: list[str],
) -> None:
    """Cursor moves and the content cells of `rows` (content coordinates)."""
    gutter = widget.styles.gutter
    left_gutter, top = gutter.left, gutter.top
    width = region.width - gutter.width
    height = region.height - gutter.height
    ys = sorted(y for y in rows if 0 <= y < height)
    if not ys or width <= 0:
        return
    # Size caches cleared, as `refresh(region)` does.
    widget._layout_cache.clear()
    widget.clear_cached_dimensions()
    painted_rows = getattr(widget, "painted_rows", None)  # a line widget's: its content columns only, as text
    texts = painted_rows(ys, console, convert) if painted_rows is not None else None
    if texts is None:
        # Textual's own line cache (a border effect our frames leave to it) draws these rows again,
        # as `refresh(region)` would have marked them (the rows between too: from its cache). A line
        # widget drawn by its frame needs none of that: it clears that cache before Textual uses it.
        first = ys[0] + top
        span = Region(0, first, region.width, ys[-1] + top + 1 - first)
        widget._styles_cache.set_dirty(span)
        framed = widget.render_lines(span)  # one call over the span, each row cropped to the content
        strips = [framed[y + top - first].crop(left_gutter, left_gutter + width) for y in ys]
        texts = [strip.render(console) if convert is None else convert(strip.render(console)) for strip in strips]
    x = region.x + left_gutter + 1
    y0 = region.y + top + 1
    for y, text in zip(ys, texts):
        out.append(f"\x1b[{y0 + y};{x}H")
        out.append(text)
