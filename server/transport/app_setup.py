"""Adapting an app built by the app factory to its SSH client before it runs: our driver, a console
in true colour (the driver converts each frame to the client's colours), the client's NO_COLOR,
and one app among many on the server's loop (`ui.compat.served_app`: no stdout capture, the
loop's task factory kept), and a silent error console."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from server.transport import asyncio_compat
from server.transport.driver import SSHDriver
from server.transport.session_info import SessionInfo
from ui import compat
from ui.compat import served_app
from ui.compat.app_teardown import record_nodes_at_shutdown


def prepare_app(app: App[Any], info: SessionInfo, driver_class: Callable[..., SSHDriver]) -> None:
    """Adapt an app built by the factory to its client before it runs."""
    from rich.console import Console

    compat.require_verified("citadels serve")  # `citadels serve` says so in one line before it starts
    asyncio_compat.break_transport_cycles()
    record_nodes_at_shutdown(app)
    app.driver_class = driver_class  # type: ignore[assignment]
    # Every served app renders in true colour (see server/transport/driver.py: Rich caches
    # escape codes per Style, whatever the colour system); the driver converts
    # each frame to the client's colours.
    environ = {"TERM": info.term, "COLORTERM": "truecolor"}
    app.console = Console(
        color_system="truecolor",
        file=served_app.NullFile(),
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ=environ,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )
    served_app.serve(app, no_color=bool(info.env.get("NO_COLOR")))
    # A crashed app's traceback is not printed by Textual on the server's stderr: rendering it
    # (syntax-highlighted source, locals) costs the shared loop a fraction of a second per crash,
    # and a player who can crash their own screen at will could repeat it. The session logs the
    # error as one plain traceback instead (server/transport/session.py).
    app.error_console = Console(quiet=True)
