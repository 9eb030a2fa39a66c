"""The game screen: a Textual app showing one seat's view of a Citadels table.

    from ui import CitadelsApp, UiOptions, ViewUpdate
    app = CitadelsApp(link, UiOptions(lang="es", name="Ana", show_chat=True, chat_send=...))
    app.post_message(ViewUpdate(view, redacted_events))   # whenever the table changes

See `ui/README.md` for the whole interface.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import compat

# Lighter Textual for many apps in one process, before any app starts: on a verified Textual
# only; on another, Textual's own public paths (see ui/compat/__init__.py).
compat.apply()

if TYPE_CHECKING:
    from .app import CitadelsApp
    from .link import ChatLine, CommandRefused, SeatMark, SeatStates, TableLink, TableNotice, UiOptions, ViewUpdate

# Imported when first asked for, so that `ui.compat` (the version check) can be imported alone.
_EXPORTS = {
    "CitadelsApp": ".app",
    "ChatLine": ".link",
    "CommandRefused": ".link",
    "SeatMark": ".link",
    "SeatStates": ".link",
    "TableLink": ".link",
    "TableNotice": ".link",
    "UiOptions": ".link",
    "ViewUpdate": ".link",
}

__all__ = [
    "ChatLine",
    "CitadelsApp",
    "CommandRefused",
    "SeatMark",
    "SeatStates",
    "TableLink",
    "TableNotice",
    "UiOptions",
    "ViewUpdate",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ui' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
