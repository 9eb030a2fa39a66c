"""Freeing an ended session's app without a full garbage collection: `ui.compat.app_teardown`
(it knows Textual's insides, so it lives with the other Textual patches)."""

import contextlib
from typing import Any

from ui.compat.app_teardown import after_shutdown, break_app_cycles, record_nodes_at_shutdown

__all__ = ["after_shutdown", "break_app_cycles", "free_after_shutdown", "record_nodes_at_shutdown"]


def free_after_shutdown(app: Any) -> None:
    """Empty an ended session's app once its shutdown has ended (a force-stopped app's goes on after
    `run_async` returned: emptied then, it would fail)."""

    def free() -> None:
        with contextlib.suppress(Exception):  # freeing is best effort: the session has ended either way
            break_app_cycles(app)

    after_shutdown(app, free)
