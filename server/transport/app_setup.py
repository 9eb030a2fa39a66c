"""Adapting an app built by the app factory to its SSH client before it runs: our driver, a console
in true colour (the driver converts each frame to the client's colours), the client's NO_COLOR,
App's stdout/stderr capture made a no-op for served apps, and a silent error console."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from textual.app import App

from server.transport.app_cleanup import record_nodes_at_shutdown
from server.transport.driver import SSHDriver
from server.transport.session_info import SessionInfo


def _install_print_capture_patch() -> None:
    """Make App's redirect_stdout/stderr a no-op for served apps.

    ``App._process_messages`` wraps its loop in ``contextlib.redirect_stdout``
    and ``redirect_stderr``, which swap the process-global ``sys.stdout``.
    With many apps interleaved on one loop the restores come out of order and
    the server's own output can stay captured by a dead app. Apps not served
    by us (tests with Pilot, the CLI) keep Textual's behaviour.
    """
    import textual.app as textual_app

    if getattr(textual_app, "_citadels_print_patch", False):
        return

    def wrap(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def redirect(target: Any) -> Any:
            app = getattr(target, "app", None)
            if app is not None and getattr(app, "_citadels_served", False):
                return contextlib.nullcontext()
            return original(target)

        return redirect

    textual_app.redirect_stdout = wrap(textual_app.redirect_stdout)  # type: ignore[attr-defined]
    textual_app.redirect_stderr = wrap(textual_app.redirect_stderr)  # type: ignore[attr-defined]
    textual_app._citadels_print_patch = True  # type: ignore[attr-defined]


def prepare_app(app: App[Any], info: SessionInfo, driver_class: Callable[..., SSHDriver]) -> None:
    """Adapt an app built by the factory to its client before it runs."""
    from rich.console import Console
    from textual.app import _NullFile  # type: ignore[attr-defined]
    from textual.filter import Monochrome, NoColor

    _install_print_capture_patch()
    app._citadels_served = True  # type: ignore[attr-defined]
    record_nodes_at_shutdown(app)
    app.driver_class = driver_class  # type: ignore[assignment]
    # Every served app renders in true colour (see server/transport/driver.py: Rich caches
    # escape codes per Style, whatever the colour system); the driver converts
    # each frame to the client's colours.
    environ = {"TERM": info.term, "COLORTERM": "truecolor"}
    app.console = Console(
        color_system="truecolor",
        file=_NullFile(),
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ=environ,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )
    # NO_COLOR as the client asked, not as the server process's environment says.
    no_color = bool(info.env.get("NO_COLOR"))
    app._filters = [f for f in app._filters if not isinstance(f, (NoColor, Monochrome))]
    app.no_color = no_color
    if no_color:
        app._filters.append(NoColor() if app.native_ansi_color else Monochrome())
    # A crashed app's traceback is not printed by Textual on the server's stderr: rendering it
    # (syntax-highlighted source, locals) costs the shared loop a fraction of a second per crash,
    # and a player who can crash their own screen at will could repeat it. The session logs the
    # error as one plain traceback instead (server/transport/session.py).
    app.error_console = Console(quiet=True)
