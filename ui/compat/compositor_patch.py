"""Partial screen updates that draw only the changed rows.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_textual_patches.py
plays games comparing the bytes of both on every frame).

To send a partial update, Textual's `Compositor.render_partial_update` takes
the bounding box of every changed region and asks each widget overlapping it
for *all* of its visible lines, then keeps only the changed rows. One change
at the top of the screen (the status bar) and one at the bottom (the log) make
that box the whole screen: every widget, the screen's background included,
went through its line cache, filters, crops and cuts for every row, per frame
and per session. That was most of a served move's CPU.

`apply()` replaces it with the same algorithm restricted per widget: a widget
draws only the rows where it has a piece (between two cuts) that the update
sends and that no widget in front of it filled. Widgets are still painted
front to back into the same cuts, so every changed cell gets the same strip
as before: the bytes sent are identical (tests/ui/test_textual_patches.py
plays games comparing both on every frame). Applied by `ui.compat.apply` on a
verified Textual only.

`ChopsUpdate.render_segments` is replaced by the same loop writing each cursor move as its text
(`Control.move_to` made a `Control` and a `Segment` for every piece sent); the same bytes.

Upstream: `Compositor.render_partial_update` could ask each widget only for
the rows where it has a piece the update sends, as here, instead of every row
of the changed regions' bounding box; `ChopsUpdate.render_segments` could format its cursor
moves directly.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region

from ui.compat import check_verified

ORIGINAL: dict[str, Any] = {}  # Textual's own methods, for tests comparing the two
_NO_CHOPS: dict = {}  # the chops of a row the update does not send (never written)


def _wanted_cuts(
    cuts: list[list[int]], row_spans: dict[int, list[tuple[int, int]]], changed_rows: list[int]
) -> dict[int, list[int]]:
    """Per changed row, the cuts whose piece overlaps a span the update sends (as
    `ChopsUpdate.render_segments` decides): worked out once per row, not once per widget."""
    wanted: dict[int, list[int]] = {}
    for y in changed_rows:
        spans = row_spans[y]
        row_cuts = cuts[y]
        xs = []
        for i in range(len(row_cuts) - 1):
            x, end = row_cuts[i], row_cuts[i + 1]
            for x1, x2 in spans:
                if not (x > x2 or end <= x1):
                    xs.append(x)
                    break
        wanted[y] = xs
    return wanted


def _render_changed_rows(
    self: Compositor, update_regions: list[Region], row_spans: dict[int, list[tuple[int, int]]]
) -> list[dict]:
    cuts = self.cuts
    changed_rows = sorted(row_spans)  # the rows the update sends (its regions' spans, row by row)
    # Only the rows sent are read (`ChopsUpdate.render_segments` goes by the spans): the others
    # get one shared empty dict rather than a dict of every cut.
    chops: list[dict] = [_NO_CHOPS] * len(cuts)
    for y in changed_rows:
        chops[y] = dict.fromkeys(cuts[y][:-1])
    wanted = _wanted_cuts(cuts, row_spans, changed_rows)
    intersection = Region.intersection
    for widget, (region, clip) in self.visible_widgets.items():  # front to back
        visible = intersection(region, clip)
        vx, vy, vw, vh = visible
        if not (vw and vh):
            continue
        first_cut, last_cut = vx, vx + vw
        # The rows where this widget has a piece still empty that the update sends: rows where
        # widgets in front filled every such piece are skipped (the screen's background behind
        # the panels; a tall panel beside the one that changed). Only the changed rows within the
        # widget's visible rows are looked at (not a loop over every changed region per widget).
        rows = []
        for y in changed_rows[bisect_left(changed_rows, vy) : bisect_left(changed_rows, vy + vh)]:
            chops_line = chops[y]
            for x in wanted[y]:
                if first_cut <= x < last_cut and chops_line[x] is None:
                    rows.append(y)
                    break
        if not rows:
            continue
        top = rows[0]
        strips = widget.render_lines(Region(vx - region.x, top - region.y, vw, rows[-1] + 1 - top))
        for y in rows:
            chops_line = chops[y]
            final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            cut_strips = strips[y - top].divide([cut - vx for cut in final_cuts[1:]])
            get = chops_line.get
            for cut, piece in zip(final_cuts, cut_strips):
                if get(cut) is None:  # the front-most widget wins the cut
                    chops_line[cut] = piece
    return chops


def render_partial_update(self: Compositor) -> ChopsUpdate | None:
    screen_region = self.size.region
    update_regions = [r for r in (region.intersection(screen_region) for region in self._dirty_regions) if r]
    self._dirty_regions.clear()
    if not update_regions:
        return None
    spans = list(self._regions_to_spans(update_regions))
    row_spans: dict[int, list[tuple[int, int]]] = {}
    for y, x1, x2 in spans:
        row_spans.setdefault(y, []).append((x1, x2))
    chops = _render_changed_rows(self, update_regions, row_spans)
    chop_ends = [cut_set[1:] for cut_set in self.cuts]
    return ChopsUpdate(chops, spans, chop_ends)


def _move_to(x: int, y: int) -> str:
    """`rich.control.Control.move_to(x, y).segment.text`, without making a `Control` and a `Segment`."""
    return f"\x1b[{y + 1};{x + 1}H"


def render_segments(self: ChopsUpdate, console: Any) -> str:
    # Textual's `ChopsUpdate.render_segments`, the cursor moves written as text (a `Control` made
    # for every piece sent was ~1.5 % of a served move); the same bytes (tests/ui/test_textual_patches.py).
    sequences: list[str] = []
    append = sequences.append
    chops = self.chops
    chop_ends = self.chop_ends
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        line = chops[y]
        ends = chop_ends[y]
        for end, (x, strip) in zip(ends, line.items()):
            if strip is None:
                continue
            if x > x2 or end <= x1:
                continue
            if x2 > x >= x1 and end <= x2:
                append(_move_to(x, y))
                append(strip.render(console))
                continue
            strip = strip.crop(0, min(end, x2) - x)
            append(_move_to(x, y))
            append(strip.render(console))
        if y != last_y:
            append("\n")
    return "".join(sequences)


def apply() -> bool:
    """Patch `Compositor.render_partial_update` (once); raises `UnverifiedTextual` on a Textual not verified."""
    if getattr(Compositor, "_citadels_changed_rows", False):
        return True
    check_verified(__name__)
    ORIGINAL["render_partial_update"] = Compositor.render_partial_update
    render_partial_update.__doc__ = Compositor.render_partial_update.__doc__
    Compositor.render_partial_update = render_partial_update  # type: ignore[method-assign]
    ORIGINAL["render_segments"] = ChopsUpdate.render_segments
    render_segments.__doc__ = ChopsUpdate.render_segments.__doc__
    ChopsUpdate.render_segments = render_segments  # type: ignore[method-assign]
    Compositor._citadels_changed_rows = True  # type: ignore[attr-defined]
    return True
