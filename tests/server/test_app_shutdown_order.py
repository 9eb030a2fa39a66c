"""A force-stopped session's app is emptied only once its shutdown has ended.

Textual's `run_async` runs `_shutdown` shielded and returns when its task is cancelled meanwhile
(the server force-stops apps that do not exit within the grace, as when it stops with many
sessions): the shutdown goes on. Emptying the app then (`break_app_cycles`) made every such
shutdown fail ("'ServerApp' object has no attribute 'devtools'", "... 'features'": hundreds of
"Task exception was never retrieved" when a server with 300 sessions stopped with a short grace).
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from textual.app import App
from textual.widgets import Static

from server.transport.app_cleanup import after_shutdown, break_app_cycles, record_nodes_at_shutdown


class Small(App[None]):
    def compose(self):  # type: ignore[no-untyped-def]
        yield Static("hello")


async def test_the_app_is_emptied_after_a_shutdown_that_outlives_its_cancelled_run() -> None:
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        app = Small()
        record_nodes_at_shutdown(app)
        closing = asyncio.Event()
        close_all = app._close_all

        async def slow_close_all() -> None:  # a shutdown that takes a while (many apps exiting at once)
            closing.set()
            await asyncio.sleep(0.3)
            await close_all()

        app._close_all = slow_close_all  # type: ignore[method-assign]
        run = asyncio.create_task(app.run_async(headless=True))
        for _ in range(200):
            if app.is_running:
                break
            await asyncio.sleep(0.01)
        app.exit()
        await asyncio.wait_for(closing.wait(), 5)
        run.cancel()  # the server's force stop, while the shutdown runs
        await asyncio.wait_for(run, 5)  # run_async returns: the shielded shutdown goes on
        emptied: list[int] = []
        after_shutdown(app, lambda: emptied.append(break_app_cycles(app)))
        assert emptied == []  # not while it shuts down
        for _ in range(200):
            if emptied:
                break
            await asyncio.sleep(0.01)
        assert emptied and emptied[0] > 1  # then: the app and its nodes
        # an app whose shutdown has ended is emptied at once
        done: list[bool] = []
        after_shutdown(app, lambda: done.append(True))
        assert done == [True]
        await asyncio.sleep(0.1)
        gc.collect()
        await asyncio.sleep(0)
        assert not errors, [str(c.get("exception") or c.get("message")) for c in errors]
    finally:
        loop.set_exception_handler(previous)
