"""Freeing an ended session's app without a full garbage collection: `ui.compat.app_teardown`
(it knows Textual's insides, so it lives with the other Textual patches)."""

from ui.compat.app_teardown import after_shutdown, break_app_cycles, record_nodes_at_shutdown

__all__ = ["after_shutdown", "break_app_cycles", "record_nodes_at_shutdown"]
