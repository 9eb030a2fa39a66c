"""Socket transports that end without a cycle, on Python 3.11, 3.12 and 3.13.

Verified with CPython 3.11.7, 3.12.1 and 3.13.0 (tests/server/test_served_loop.py and
tests/server/test_session_garbage.py on each).

asyncio's `_SelectorSocketTransport` keeps bound methods of itself in its own
attributes: `_read_ready_cb` (every version) and, since Python 3.12 (the
zero-copy writes of CPython gh-91166), `_write_ready = self._write_sendmsg`.
Each is a reference cycle. `close()` breaks both (gh-100348, gh-106503), but a
connection that ends another way (`abort()`, the peer closing, an error:
`_force_close`) keeps them, and with the server's heap frozen every such
transport would wait for a full collection (tests/server/test_session_garbage.py
failed on 3.13 with one `_SelectorSocketTransport` left: server/transport/ssh.py
breaks the read callback of its connections, not the write one).
`break_transport_cycles()` drops both once the connection is lost, as
`close()` does; the socket is closed and unregistered by then, so nothing calls
them again.

Upstream: CPython could drop them in `_call_connection_lost`, which every way of
closing reaches.
"""

from __future__ import annotations

from asyncio import selector_events
from typing import Any


def break_transport_cycles() -> None:
    """Socket transports drop their bound write callback once their connection is lost (once per process)."""
    transport_class: Any = selector_events._SelectorSocketTransport  # type: ignore[attr-defined]
    if getattr(transport_class, "_citadels_no_write_cycle", False):
        return
    call_connection_lost = transport_class._call_connection_lost

    def _call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            call_connection_lost(self, exc)
        finally:
            self._read_ready_cb = None
            if "_write_ready" in self.__dict__:  # 3.12+: a bound method of the transport itself
                self._write_ready = None

    transport_class._call_connection_lost = _call_connection_lost
    transport_class._citadels_no_write_cycle = True
