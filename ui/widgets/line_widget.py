"""A widget drawn line by line from Rich `Text` lines, repainting only the lines that changed.

Textual's default path re-wraps and re-styles every line of a widget each
time it changes. Here a subclass builds its lines (`build(width, height)`,
already wrapped and at most `width` cells). `invalidate()` rebuilds them,
compares them with the lines on screen and marks only the changed lines dirty
(a partial repaint of this widget; `layout=True` only when its height may
change). `render_line` converts each line to a `Strip` through a small cache
keyed by the line's text and styles: the strips of the lines on screen and of
the lines before the last change (an unchanged line is not converted again),
nothing older, so a screen keeps few strips alive (fewer objects for the
garbage collector in a server of many sessions); the strips themselves come
from a cache shared by every app (`line_frame.content_strip`). `render_lines`
puts the border and padding around those lines itself (`line_frame.Frame`,
also shared) and keeps the framed strip with the line's, rather than styling
each line again through Textual's `StylesCache`; on a Textual that `ui.compat`
was not verified with, it leaves that to Textual (`Widget.render_lines`).
`content_rows` gives a table screen's direct paint (`ui/compat/direct_paint.py`) the
content columns of changed rows only, as the framed rows have them (`Frame.inner_strip`), and
`painted_rows` the same rendered in the client's colours. A line's cache entry is shared by
every app's widgets showing it (`line_frame.shared_entry`): framed, cropped and rendered once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from ui import compat
from ui.compat import direct_paint, line_styles

from .line_frame import NO_TEXT, Frame, entry_strip, frame_key, shared_entry, shared_frame


def _same(a: Text, b: Text) -> bool:
    return a.plain == b.plain and a.spans == b.spans and a.style == b.style


class LineWidget(Widget):
    can_focus = False

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._built: tuple[int, int, list[Text]] | None = None
        # line key -> its entry, shared by every app (`line_frame.shared_entry`)
        self._strips: dict[tuple, list] = {}  # lines of the current build
        self._old_strips: dict[tuple, list] = {}  # lines of the build before
        # The same, by the line object: id -> (line, width, entry). Shared memos hand the same `Text`
        # to every build and app, so most rows are found without making and hashing their key.
        self._by_line: dict[int, tuple[Text, int, list]] = {}
        self._old_by_line: dict[int, tuple[Text, int, list]] = {}
        self._base: Style | None = None
        self._frame: Frame | None = None
        self._frame_key: tuple | None = None
        self._style_part: tuple | None = None  # (styles' versions, what the frame key read of them)
        self._styles_cache_stale = False  # Textual's line cache missed changes drawn by the frame

    def build(self, width: int, height: int) -> list[Text]:  # pragma: no cover - abstract
        return []

    @property
    def drawn_size(self) -> Size:
        """The content size of the last layout (what the compositor draws this frame). Not
        `content_size`, which asks the compositor's map: a look-up during a frame can rebuild the
        map with sizes set since, while the rows asked for are still those of the last layout."""
        outer = self.outer_size
        gutter = self.styles.gutter
        return Size(max(outer.width - gutter.width, 0), max(outer.height - gutter.height, 0))

    def invalidate(self, layout: bool = False) -> None:
        """The content changed: repaint the lines that differ (all of them if the size changed)."""
        old = self._built
        self._built = None
        if layout or old is None or not self.is_mounted:
            self.refresh(layout=layout)
            return
        width, height = self.drawn_size
        if (width, height) != (old[0], old[1]) or width <= 0:
            self.refresh()
            return
        new = self.built_lines(width, height)
        before = old[2]
        # the same object is common (shared memos): told apart without a call
        rows = [y for y, (a, b) in enumerate(zip(new, before)) if a is not b and not _same(a, b)]
        if len(new) != len(before):
            rows.extend(range(min(len(new), len(before)), max(len(new), len(before))))
        # within a table screen's update the rows are painted with the others at its end (ui/compat/direct_paint.py)
        if rows and not direct_paint.record(self, rows):
            self.repaint_rows(rows)

    def repaint_rows(self, rows: Iterable[int]) -> None:
        """Textual's partial repaint of these content rows (at the next frame)."""
        width = self.drawn_size.width
        self.refresh(*[Region(0, y, width, 1) for y in rows])

    def built_lines(self, width: int, height: int) -> list[Text]:
        built = self._built
        if built is None or built[0] != width or built[1] != height:
            built = self._built = (width, height, self.build(width, height) if width > 0 and height > 0 else [])
            if self._strips:
                self._old_strips, self._strips = self._strips, {}
                self._old_by_line, self._by_line = self._by_line, {}
        return built[2]

    def notify_style_update(self) -> None:
        self._base = None
        self._frame = self._frame_key = self._style_part = None
        self._strips.clear()
        self._old_strips.clear()
        self._by_line.clear()
        self._old_by_line.clear()
        super().notify_style_update()

    def _on_resize(self, event: events.Resize) -> None:
        # The Resize event can come after the first frame at the new size was drawn: lines built
        # again now (a subclass may reset its state here) must be repainted too.
        self._built = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.drawn_size
        entry = self._entry(y, self.built_lines(width, height), width)
        return entry_strip(entry, self.app.console) if entry is not None else Strip.blank(width, self._base_style())

    def _base_style(self) -> Style:
        base = self._base
        if base is None:
            base = self._base = self.rich_style
        return base

    def _entry(self, y: int, lines: list[Text], width: int) -> list | None:
        """The cache entry of content line `y` of `lines` (built at `width`); None past the last line."""
        if y >= len(lines) or width <= 0:
            return None
        line = lines[y]
        # A line is not changed once built (`invalidate` already takes the same object as unchanged);
        # the pair keeps it alive, so its id is not reused while the pair is kept.
        known = self._by_line.get(id(line))
        if known is not None and known[0] is line and known[1] == width:
            return known[2]
        known = self._old_by_line.get(id(line))
        if known is not None and known[0] is line and known[1] == width:
            entry = known[2]
            self._strips[entry[3][:4]] = entry
        else:
            key = (line.plain, tuple(line.spans), line.style, width)
            found = self._strips.get(key)
            if found is None:
                found = self._old_strips.get(key)
                if found is None:
                    base = self._base_style()
                    found = shared_entry((*key, base), line, width, base, self.app.console)
                self._strips[key] = found
            entry = found
        self._by_line[id(line)] = (line, width, entry)
        return entry

    def _current_frame(self) -> Frame | None:
        """The frame our lines are drawn in now; None when Textual styles them (`Widget.render_lines`)."""
        if not compat.frames_lines():  # a Textual not verified with our frames: its own styling
            return None
        key = frame_key(self)
        if key is None:  # an effect the frame does not draw: Textual's own styling
            if self._styles_cache_stale:
                line_styles.forget_styled_lines(self)
                self._styles_cache_stale = False
            return None
        self._styles_cache_stale = True
        frame = self._frame
        if frame is None or self._frame_key != key:
            frame = self._frame = shared_frame(self, key, self._base_style())
            self._frame_key = key
        return frame

    def content_rows(self, rows: list[int]) -> list[Strip] | None:
        """The content columns of content `rows` (within the drawn size), the cells `render_lines`
        gives there; None when Textual styles the lines (then ask `render_lines`). Textual's line cache
        (`StylesCache`) is not told: it is forgotten before Textual styles these lines again."""
        frame = self._current_frame()
        if frame is None:
            return None
        width, height = self._frame_key[1]  # type: ignore[index]  # the drawn size the frame key just read
        lines = self.built_lines(width, height)
        strips: list[Strip] = []
        for y in rows:
            entry = self._entry(y, lines, width)
            strips.append(frame.inner_blank if entry is None else _inner_of(entry, frame, self.app.console))
        return strips

    def painted_rows(self, rows: list[int], console: Any, convert: Callable[[str], str] | None) -> list[str] | None:
        """`content_rows(rows)` as the terminal gets them: each strip rendered, then converted by
        `convert` (the client's colours) when given; None when Textual styles the lines. A row's text
        is kept in its entry (shared by apps) with the frame and conversion it was made for: a line
        shown on every seat is rendered and converted once, not once per seat."""
        frame = self._current_frame()
        if frame is None:
            return None
        width, height = self._frame_key[1]  # type: ignore[index]  # the drawn size the frame key just read
        lines = self.built_lines(width, height)
        texts: list[str] = []
        for y in rows:
            entry = self._entry(y, lines, width)
            if entry is None:
                text = frame.inner_blank.render(console)
                texts.append(text if convert is None else convert(text))
                continue
            if entry[5] is frame and entry[6] is convert:
                texts.append(entry[7])
                continue
            if entry[5] is not frame and (
                painted := frame.painted_text(entry[8], width, entry[3][4], console, convert)
            ):
                entry[4] = None  # (its content columns for this frame: made if asked, `_inner_of`)
                entry[5] = frame
            else:
                painted = _inner_of(entry, frame, console).render(console)
                if convert is not None:
                    painted = convert(painted)
            entry[6] = convert
            entry[7] = painted
            texts.append(painted)
        return texts

    def render_lines(self, crop: Region) -> list[Strip]:
        frame = self._current_frame()
        if frame is None:
            return super().render_lines(crop)
        top, bottom = frame.top, frame.bottom
        width, height = self._frame_key[1]  # type: ignore[index]  # the drawn size the frame key just read
        lines = self.built_lines(width, height)
        strips: list[Strip] = []
        for y in crop.line_range:
            if y < top or y >= bottom:
                strips.append(frame.rows[y])
                continue
            entry = self._entry(y - top, lines, width)
            if entry is None:
                strips.append(frame.blank)
            elif entry[2] is frame:
                strips.append(entry[1])
            else:
                framed = entry[1] = frame.framed(entry[3], entry_strip(entry, self.app.console))
                entry[2] = frame
                strips.append(framed)
        if crop.column_span != (0, frame.width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips


def _inner_of(entry: list, frame: Frame, console: Any) -> Strip:
    """A shared line entry's content columns in `frame`, made (and its painted text forgotten, it was
    another frame's) when the entry last served another frame; made (its text kept) when only its
    text was made for this frame (`Frame.painted_text`)."""
    if entry[5] is not frame:
        entry[4] = frame.inner_strip(entry[3], entry_strip(entry, console))
        entry[5] = frame
        entry[6] = NO_TEXT
    elif entry[4] is None:
        entry[4] = frame.inner_strip(entry[3], entry_strip(entry, console))
    return entry[4]
