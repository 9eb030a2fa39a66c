"""The game screen: a Textual app showing one seat's view of a Citadels table.

    from ui import CitadelsApp, UiOptions, ViewUpdate
    app = CitadelsApp(link, UiOptions(lang="es", name="Ana", show_chat=True, chat_send=...))
    app.post_message(ViewUpdate(view, redacted_events))   # whenever the table changes

See `ui/README.md` for the whole interface.
"""

from .compat import compositor_patch, css_patch, cycle_patch, strip_patch

# Lighter Textual for many apps in one process; before any app starts (see each module).
strip_patch.apply()
css_patch.apply()
compositor_patch.apply()
cycle_patch.apply()

from .app import CitadelsApp  # noqa: E402
from .link import ChatLine, CommandRefused, SeatMark, SeatStates, TableLink, TableNotice, UiOptions, ViewUpdate  # noqa: E402

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
