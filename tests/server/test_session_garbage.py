"""A departed session leaves no reference cycles among the frozen objects.

The server freezes what survives a young collection (server/transport/gc_tuning.py), so a
cycle left by a session that has gone waits for a full collection of the whole
heap (seconds with hundreds of sessions live): RSS grows under churn. Here the
heap is frozen while the session is live, as the server does, and after it has
gone a collection (which never looks at frozen objects) runs: everything of
the session (its SSH connection and socket transport, its app, screens and
widgets) must have been freed by reference counting.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import asyncssh
import pytest
from game_helpers import Screen, create_table, start_game_server, wait_until


@pytest.fixture
async def gs(tmp_path):
    server = await start_game_server(tmp_path)
    yield server
    await server.close()


def _server_side(gs: Any, fingerprint: str) -> list[weakref.ref]:
    """Weak references to a live session's connection, transport, app and every node of its screens."""
    app = gs.app_of(fingerprint)
    assert app is not None
    (conn,) = [
        c
        for c in gs.server._connections
        if c._transport is not None
        and c._owner._identity is not None
        and c._owner._identity.key_fingerprint == fingerprint
    ]
    objects: list[Any] = [conn, conn._transport, app]
    for stack in app._screen_stacks.values():
        for screen in stack:
            objects.extend(screen.walk_children(with_self=True))
    return [weakref.ref(o) for o in objects]


async def _leave_and_check(gs: Any, screen: Screen, refs: list[weakref.ref], sessions_left: int) -> None:
    gc.collect()
    gc.freeze()  # what the server's pacer does to every object that survives a young collection
    try:
        screen.term.close()
        await wait_until(lambda: gs.server.session_count == sessions_left, what="the session to end")
        await asyncio.sleep(0.2)  # the connection's own clean-up runs after its channel's
        gc.collect()  # new garbage only: the frozen objects are not looked at
    finally:
        gc.unfreeze()
    alive = [type(o).__name__ for r in refs if (o := r()) is not None]
    assert alive == [], f"kept alive only by reference cycles: {alive}"


@pytest.mark.parametrize("where", ["lobby", "table"])
async def test_a_departed_session_is_freed_without_the_cycle_collector(gs, open_terminal, where):
    # A first session warms the process-wide caches (parsed CSS, fonts of the catalogue).
    warm = Screen(await open_terminal(gs.server, username="warm", size=(120, 40)))
    await warm.wait_for("Citadels · lobby")
    key = asyncssh.generate_private_key("ssh-ed25519")
    fingerprint = key.get_fingerprint("sha256")
    screen = Screen(await open_terminal(gs.server, username="carol", key=key, size=(120, 40)))
    await screen.wait_for("Citadels · lobby")
    screen.send(b"\x1b[B\x1b[A")  # move in the menu: focus and restyles
    await screen.pump(0.3)
    if where == "table":
        await create_table(screen, players=3, bots=2)
        await screen.wait_for("Start the game")
        screen.send(b"1")
        await screen.wait_for("Your hand", timeout=15)
        await screen.pump(0.5)
    refs = _server_side(gs, fingerprint)
    await _leave_and_check(gs, screen, refs, sessions_left=1)
