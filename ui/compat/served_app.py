"""One Textual app among many on a server's event loop.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`) on Python 3.11, 3.12 and 3.13
(tests/server: every test starts apps this way; tests/server/test_served_loop.py).

A Textual `App` assumes it owns the process: its stdout, its environment, its
event loop. A server runs hundreds of them on one loop, so for each served app
(`serve(app, no_color)` before it runs):

- **No output capture.** `App._process_messages` wraps its loop in
  `contextlib.redirect_stdout/stderr` (names `textual.app` imports), which swap
  the process-global `sys.stdout`. With many apps interleaved on one loop the
  restores come out of order and the server's own output can stay captured by a
  dead app. For served apps they are no-ops; other apps (Pilot tests, the local
  game) keep Textual's behaviour.
- **The client's NO_COLOR.** An app picks its line filters (`App._filters`) from
  the *server process's* environment when it is made; a served app gets the
  client's instead.
- **The loop's task factory stays the server's.** `App.run_async` on Python 3.12+
  calls `loop.set_task_factory(asyncio.eager_task_factory)` on the running loop:
  every task anyone creates on it afterwards starts eagerly. asyncssh 2.24.1's
  server authentication breaks under eager tasks: `ServerAuth.__init__` creates
  the task running `_start`, which (eagerly) sends its reply through
  `ServerAuth.send_packet`, which sends only `if self._conn.auth is self` — but
  the connection assigns `_auth` only after the constructor returns. So the
  public-key "OK", the failure and the success replies were dropped, and every
  connection after the first app started waited for them until it timed out
  (27 tests/server failures on Python 3.13, all first connections fine). The
  served loop ignores a change of its task factory to the eager one; tasks stay
  as on Python 3.11, where everything here was measured.

`queued_messages(app)` reads how far behind an app's message queue is (for the
server's slow-client check).

Upstream: Textual's `run_async` could leave the task factory of a loop it did not
create alone (set it in `run`, which makes its own loop), and let an app opt out
of stdout capture; asyncssh's `ServerAuth` could start its task after the
connection has recorded the handler (or compare in `send_packet` by connection
state rather than identity).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import weakref
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.filter import Monochrome, NoColor

_served: weakref.WeakSet[App[Any]] = weakref.WeakSet()
_guarded_loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


class NullFile(io.StringIO):
    """A text file where writes go nowhere (a served app's console writes through the driver)."""

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return True


def serve(app: App[Any], no_color: bool) -> None:
    """Prepare `app` to run as one of many on the running loop (see the module's docstring)."""
    _install_print_capture_patch()
    _served.add(app)
    keep_task_factory(asyncio.get_running_loop())
    set_no_color(app, no_color)


def is_served(app: Any) -> bool:
    return app in _served


def set_no_color(app: App[Any], no_color: bool) -> None:
    """Colour or not as the client asked, not as the server process's environment says."""
    filters = [f for f in app._filters if not isinstance(f, (NoColor, Monochrome))]
    if no_color:
        filters.append(NoColor() if app.native_ansi_color else Monochrome())
    app._filters = filters
    app.no_color = no_color


def queued_messages(app: App[Any]) -> int:
    """How many messages wait in the app's queue (0 before it runs)."""
    queue = getattr(app, "_message_queue", None)
    return 0 if queue is None else queue.qsize()


def keep_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    """Make `loop` ignore a change of its task factory to asyncio's eager one (Textual's `run_async`)."""
    eager = getattr(asyncio, "eager_task_factory", None)
    if eager is None or loop in _guarded_loops:  # Python 3.11 has no eager tasks
        return
    set_task_factory = loop.set_task_factory

    def set_task_factory_unless_eager(factory: Any) -> None:
        if factory is not eager:
            set_task_factory(factory)

    loop.set_task_factory = set_task_factory_unless_eager  # type: ignore[method-assign]
    _guarded_loops.add(loop)


def _install_print_capture_patch() -> None:
    import textual.app as textual_app

    if getattr(textual_app, "_citadels_print_patch", False):
        return

    def wrap(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def redirect(target: Any) -> Any:
            if is_served(getattr(target, "app", None)):
                return contextlib.nullcontext()
            return original(target)

        return redirect

    for name in ("redirect_stdout", "redirect_stderr"):
        setattr(textual_app, name, wrap(getattr(textual_app, name)))
    textual_app._citadels_print_patch = True  # type: ignore[attr-defined]
