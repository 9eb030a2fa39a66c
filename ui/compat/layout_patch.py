"""One reflow for a table screen's layout change, not two.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_layout_patch.py counts
the reflows and compares the screen with Textual's own; tests/ui/test_key_paint.py plays whole
games against screens that lay out the usual way).

Textual's `Screen._refresh_layout` tells each widget it placed its region with
`Widget._size_updated(size, virtual_size, container_size)`, which sets the reactive
`virtual_size`, declared with `layout=True`: every widget whose size changed asks for another
layout, and the screen's next update reflows the whole screen again (and draws nothing new).
When the players' panel of the table screen grows a row (a city wraps) the players, the hand and
the log are resized: 2 reflows a seat, the second 3-6 ms at 120x40 (render_cost, 2026-11-27),
a few per cent of a served table's CPU per move.

A widget the table screen places in a box (`TableScreen._place`: offset, width and height set,
`fixed_box = True`) cannot move another widget by its virtual size, which says only how far it
could scroll (our panels never do). For those, the size is taken as Textual takes it for a
scroll-only layout (`layout=False`: `set_reactive`, no refresh asked); the resize events, the
repaint of the resized widget and everything else of the pass are Textual's own. Other widgets
(the lobby's, a chat panel's input) are untouched.

`CITADELS_WITHOUT_PATCHES=layout_patch` leaves it out; `switch_off(app)` lays one app out the
usual way (tests comparing both in one process).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from textual.geometry import Size
from textual.widget import Widget

from ui.compat import check_verified

ORIGINAL: dict[str, Callable[..., Any]] = {}
STATS = {"kept": 0}  # layouts not asked for (tests)
_off_apps: weakref.WeakSet[Any] = weakref.WeakSet()


def apply() -> None:
    check_verified("layout_patch")
    if ORIGINAL:
        return
    ORIGINAL["_size_updated"] = original = Widget._size_updated

    def _size_updated(self: Widget, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        if layout and self.__dict__.get("fixed_box") and self.app not in _off_apps:
            if self.virtual_size != virtual_size:
                STATS["kept"] += 1
            layout = False
        return original(self, size, virtual_size, container_size, layout)

    Widget._size_updated = _size_updated  # type: ignore[method-assign]


def switch_off(app: Any) -> None:
    """This app's screens lay out the usual way."""
    _off_apps.add(app)
