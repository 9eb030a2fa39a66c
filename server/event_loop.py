"""The event loop the server runs on: uvloop where it is installed, else asyncio's own.

    run(main(), config.event_loop)        # asyncio.run with the chosen loop; returns main's result
    loop_name()                           # "uvloop" or "asyncio": the running loop's kind (logs, admin)

Why uvloop: a served move is many small things on one loop (each seat's app wakes, paints and
writes a frame; SSH packets in and out; timers), and asyncio's loop, its handles and its socket
transports are Python. uvloop's are C (libuv): at 1,000 sessions with `--workers 2` the server's
CPU per move fell by about a tenth with nothing else changed (docs/performance.md, "The event
loop"). asyncssh and Textual run on it unchanged; the server uses no loop internals.

`event_loop` in the configuration: "auto" (the default) takes uvloop when it can be imported (a
dependency on Linux and macOS; there is no uvloop for Windows) on Python 3.11 and 3.12, and
asyncio's loop otherwise: on 3.13 uvloop 0.23 hands the loop's task factory `eager_start=None`,
which the eager task factory Textual sets (asyncio's, 3.13.0) does not take; the server's metering
factory drops it (server/transport/input_budget.py), but the suite has not been run on uvloop there;
"uvloop" refuses to start without it; "asyncio" never uses it (a fallback if uvloop ever
misbehaves on a host).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

T = TypeVar("T")
LoopChoice = Literal["auto", "uvloop", "asyncio"]


class EventLoopUnavailable(RuntimeError):
    """`event_loop = "uvloop"` on a host without uvloop."""


def loop_factory(choice: LoopChoice) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the loop `choice` asks for; None for asyncio's own."""
    if choice == "asyncio" or (choice == "auto" and sys.version_info >= (3, 13)):
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise EventLoopUnavailable(
                'event_loop = "uvloop", but uvloop is not installed (pip install uvloop, or event_loop = "auto")'
            ) from None
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T], choice: LoopChoice) -> T:
    """`asyncio.run(main)` on the chosen loop (asyncio.Runner: 3.11 has no `loop_factory` on run)."""
    try:
        factory = loop_factory(choice)
    except EventLoopUnavailable:
        main.close()  # never awaited: no "coroutine was never awaited" warning
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def loop_name() -> str:
    """The running loop's kind: "uvloop" or "asyncio"."""
    return "uvloop" if type(asyncio.get_running_loop()).__module__.startswith("uvloop") else "asyncio"
