"""Lighter `textual.strip.Strip` caches.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_textual_patches.py
compares every patched method with Textual's own on random strips).

Every `Strip` made by Textual builds seven `FIFOCache` objects in
`__init__` (crop, style, filter, divide, length, crop-extend, offsets), used
or not: eight objects the garbage collector tracks per line of text drawn.
A served screen keeps ~1,300 strips alive, so ~9,000 of its ~25,000 tracked
objects were empty caches, and each frame allocated thousands more: CPU in
`Strip.__init__` and longer, more frequent collections for every session in
the process. Two of those caches also stored the strip itself (`divide` with
one cut at the end returns `[self]`; `adjust_cell_length`), a reference
cycle per strip that only a full collection frees.

`apply()` replaces `__init__` and the seven caching methods with versions that
behave the same (same results, same cache sizes, first-in first-out) but make
a cache (a plain dict in the same slot) only when a method first stores
something, and never cache a strip in itself. Applied once, when `ui` is
imported on a verified Textual (`ui.compat.apply`); on any other, Textual's
own classes are used (correct, only heavier).

Upstream: `Strip.__init__` could set its cache slots to None and each method
create its `FIFOCache` on first store; `divide` and `adjust_cell_length`
should not cache a result that is the strip itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ui.compat import check_verified

# A `Strip` whose cache slots hold a plain dict or None (Textual types them as its FIFOCache).
_Strip = Any


def _put(cache: dict, key: Any, value: Any, maxsize: int) -> None:
    if len(cache) >= maxsize:
        del cache[next(iter(cache))]
    cache[key] = value


def __init__(self: _Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._divide_cache = None
    self._crop_cache = None
    self._style_cache = None
    self._filter_cache = None
    self._line_length_cache = None
    self._crop_extend_cache = None
    self._offsets_cache = None
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def adjust_cell_length(self: _Strip, cell_length: int, style: Style | None = None) -> Strip:
    current = self.cell_length
    if current == cell_length:
        return self
    key = (cell_length, style)
    cache = self._line_length_cache
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    line = self._segments
    if current < cell_length:
        strip = Strip(line + [Segment(" " * (cell_length - current), style)], cell_length)
    else:
        new_line: list[Segment] = []
        append = new_line.append
        length = 0
        for segment in line:
            segment_length = segment.cell_length
            if length + segment_length < cell_length:
                append(segment)
                length += segment_length
            else:
                text, segment_style, _ = segment
                append(Segment(set_cell_size(text, cell_length - length), segment_style))
                break
        strip = Strip(new_line, cell_length)
    if cache is None:
        cache = self._line_length_cache = {}
    _put(cache, key, strip, 4)
    return strip


def apply_filter(self: _Strip, filter: Any, background: Any) -> Strip:
    key = (filter, background)
    cache = self._filter_cache
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    strip = Strip(filter.apply(self._segments, background), self._cell_length)
    if cache is None:
        cache = self._filter_cache = {}
    _put(cache, key, strip, 4)
    return strip


def crop_extend(self: _Strip, start: int, end: int, style: Style | None) -> Strip:
    key = (start, end, style)
    cache = self._crop_extend_cache
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    strip = self.extend_cell_length(end, style).crop(start, end)
    if strip is not self:
        if cache is None:
            cache = self._crop_extend_cache = {}
        _put(cache, key, strip, 4)
    return strip


def crop(self: _Strip, start: int, end: int | None = None) -> Strip:
    start = max(0, start)
    length = self.cell_length
    end = length if end is None else min(length, end)
    if start == 0 and end == length:
        return self
    if end <= start:
        return Strip([], 0)
    key = (start, end)
    cache = self._crop_cache
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    _cell_len = cell_len
    pos = 0
    output: list[Segment] = []
    add = output.append
    segments = iter(self._segments)
    segment: Segment | None = None
    if start >= length:
        strip = Strip([], 0)
    else:
        for segment in segments:
            end_pos = pos + _cell_len(segment.text)
            if end_pos > start:
                segment = segment.split_cells(start - pos)[1]
                break
            pos = end_pos
        if end >= length:
            if segment:
                add(segment)
            output.extend(segments)
            strip = Strip(output, length - start)
        else:
            pos = start
            while segment is not None:
                end_pos = pos + _cell_len(segment.text)
                if end_pos < end:
                    add(segment)
                else:
                    add(segment.split_cells(end - pos)[0])
                    break
                pos = end_pos
                segment = next(segments, None)
            strip = Strip(output, end - start)
    if cache is None:
        cache = self._crop_cache = {}
    _put(cache, key, strip, 16)
    return strip


def divide(self: _Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    length = self.cell_length
    cuts = [cut for cut in cuts if cut <= length]
    if cuts == [length]:
        return [self]  # not cached: it would hold the strip itself
    key = tuple(cuts)
    cache = self._divide_cache
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    strips: list[Strip] = []
    add = strips.append
    pos = 0
    for segments, cut in zip(Segment.divide(self._segments, cuts), cuts):
        add(Strip(segments, cut - pos))
        pos = cut
    if cache is None:
        cache = self._divide_cache = {}
    _put(cache, key, strips, 4)
    return strips


def apply_style(self: _Strip, style: Style) -> Strip:
    cache = self._style_cache
    if cache is not None and (cached := cache.get(style)) is not None:
        return cached
    strip = Strip(Segment.apply_style(self._segments, style), self.cell_length)
    if cache is None:
        cache = self._style_cache = {}
    _put(cache, style, strip, 16)
    return strip


def apply_offsets(self: _Strip, x: int, y: int) -> Strip:
    key = (x, y)
    cache = self._offsets_cache
    if cache is not None and (cached := cache.get(key)) is not None:
        return cached
    out: list[Segment] = []
    for segment in self._segments:
        text, style, _ = segment
        offset_style = Style.from_meta({"offset": (x, y)})
        out.append(Segment(text, style + offset_style if style else offset_style))
        x += len(segment.text)
    strip = Strip(out, self._cell_length)
    strip._render_cache = self._render_cache
    if cache is None:
        cache = self._offsets_cache = {}
    _put(cache, key, strip, 4)
    return strip


_METHODS = {
    "__init__": __init__,
    "adjust_cell_length": adjust_cell_length,
    "apply_filter": apply_filter,
    "crop_extend": crop_extend,
    "crop": crop,
    "divide": divide,
    "apply_style": apply_style,
    "apply_offsets": apply_offsets,
}


ORIGINALS: dict[str, Any] = {}  # Textual's own methods, for tests comparing the two


def apply() -> bool:
    """Patch `Strip` (once); raises `UnverifiedTextual` on a Textual this was not verified with."""
    if getattr(Strip, "_citadels_light_caches", False):
        return True
    check_verified(__name__)
    for name, fn in _METHODS.items():
        ORIGINALS[name] = getattr(Strip, name)
        fn.__doc__ = getattr(Strip, name).__doc__
        fn.__qualname__ = f"Strip.{name}"
        setattr(Strip, name, fn)
    Strip._citadels_light_caches = True  # type: ignore[attr-defined]
    return True
