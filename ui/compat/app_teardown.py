"""Freeing an ended session's app without a full garbage collection.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`;
tests/server/test_session_garbage.py: nothing of a departed session is left in
frozen cycles, in the lobby or at a table).

Apps hold reference cycles (widgets, styles, timers, render caches); with the
heap frozen for speed, a departed session's cycles would wait for a full
collection. `break_app_cycles` empties the app's nodes and the objects only
they own, so reference counting frees most of it at once. It knows Textual's
insides: the app's registry, screen stacks and installed screens, its
`_close_all` (to list the nodes before shutdown forgets them), the private
classes it owns (animator, styles cache, node lists, queues, compositor) and
the links of `LRUCache`.

Upstream: an app could drop its nodes' references to each other when it has
shut down (children, styles, message queues), which is what this does from
outside.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App


def record_nodes_at_shutdown(app: App[Any]) -> None:
    """Keep a list of the app's DOM nodes as its shutdown begins (for break_app_cycles).

    Textual's ``_close_all`` pops every screen and empties ``app._registry``;
    the nodes still refer to each other (parent, children, styles, message
    queues) but no longer to the app, so they are listed just before.
    """
    close_all = app._close_all

    async def recording_close_all() -> None:
        nodes: list[Any] = list(app._registry)
        for stack in app._screen_stacks.values():
            for screen in stack:
                nodes.append(screen)
                nodes.extend(screen.walk_children(with_self=False))
        for installed in app._installed_screens.values():
            if not callable(installed) or hasattr(installed, "walk_children"):
                nodes.append(installed)
        app._citadels_nodes = nodes  # type: ignore[attr-defined]
        await close_all()

    app._close_all = recording_close_all  # type: ignore[method-assign]

    # `run_async` runs `_shutdown` shielded and returns when its own task is cancelled meanwhile (a
    # session force-stopped: the server stopping with many apps exiting), while the shutdown goes on;
    # emptying the app then breaks it ("no attribute 'devtools'"). Its end is recorded here.
    shutdown = app._shutdown
    app._citadels_after_shutdown = []  # type: ignore[attr-defined]

    async def recording_shutdown() -> None:
        try:
            await shutdown()
        finally:
            callbacks = app.__dict__.pop("_citadels_after_shutdown", None) or []
            for callback in callbacks:
                callback()

    app._shutdown = recording_shutdown  # type: ignore[method-assign]


def after_shutdown(app: App[Any], callback: Callable[[], None]) -> None:
    """Call ``callback`` once the app's shutdown has ended: now, if it has (or never will be recorded)."""
    waiting = app.__dict__.get("_citadels_after_shutdown")
    if waiting is None:
        callback()
    else:
        waiting.append(callback)


def break_app_cycles(app: App[Any]) -> int:
    """Free an ended app's widget trees by reference counting, without the cycle collector.

    A Textual app is a web of cycles (parent <-> children, node <-> styles,
    node <-> message queue, bound methods in signals and timers): once its
    session ends only a collection of the whole heap would find it, and with
    hundreds of sessions live (the heap frozen, millions of objects) that is a
    pause of seconds. Emptying the instance dictionaries of its nodes (the
    app, its screens, their widgets, mounted or not) and of the objects
    only they own (animator, timers, signals, render caches, stylesheet),
    which nothing uses after the app has exited, lets reference counting
    free more of it at once. With Textual's cache and component-style cycles
    gone (``ui.compat.cycle_patch``) and the connection's broken (``server.transport.ssh``,
    ``server.transport.driver``), nothing of a departed session is left in frozen cycles
    (tests/server/test_session_garbage.py). Returns the number of nodes emptied.
    """
    from textual.dom import DOMNode

    nodes: list[Any] = [app, *getattr(app, "_citadels_nodes", ())]
    # Screens and widgets the app made but never mounted (a table screen kept for
    # later, its widgets) are found through the nodes' attributes: containers and
    # the UI's own objects, never the server's (they lead to the lobby, to others).
    listed = {id(node) for node in nodes}
    index = 0
    while index < len(nodes):
        stack: list[tuple[Any, int]] = [(v, 4) for v in (getattr(nodes[index], "__dict__", None) or {}).values()]
        index += 1
        visited: set[int] = set()
        while stack:
            obj, level = stack.pop()
            if level <= 0 or id(obj) in visited or isinstance(obj, (str, bytes, int, float, type)) or obj is None:
                continue
            visited.add(id(obj))
            if isinstance(obj, DOMNode):
                if id(obj) not in listed:
                    listed.add(id(obj))
                    nodes.append(obj)
                continue
            if isinstance(obj, dict):
                stack.extend((v, level - 1) for v in obj.values())
            elif isinstance(obj, (list, tuple, set, frozenset)):
                stack.extend((v, level - 1) for v in obj)
            elif (type(obj).__module__ or "").startswith(("ui.", "textual._node_list")):
                if type(obj).__name__ == "NodeList":
                    stack.extend((v, level - 1) for v in list(obj))
                else:
                    stack.extend((v, level - 1) for v in (getattr(obj, "__dict__", None) or {}).values())
    seen: set[int] = set()
    reached: set[int] = set()
    node_ids = {id(node) for node in nodes} | {id(app)}
    count = 0
    for node in nodes:
        if id(node) in seen:
            continue
        seen.add(id(node))
        node_dict = getattr(node, "__dict__", None)
        if node_dict is None:
            continue
        for value in list(node_dict.values()):
            _clear_owned(value, seen=reached, nodes=node_ids)
        node_dict.clear()
        count += 1
    return count


# Textual objects made for one app only (its animator, timers, signals, render
# caches, stylesheet, message queues, node lists): emptied with its nodes.
_APP_OWNED = frozenset(
    {
        "textual._animator.Animator",
        "textual.timer.Timer",
        "textual.signal.Signal",
        "textual._styles_cache.StylesCache",
        "textual.widget._RenderCache",
        "textual._node_list.NodeList",
        "textual.css.stylesheet.Stylesheet",
        "textual._queue.Queue",
        "textual._compositor.Compositor",
        "textual.binding.BindingsMap",
    }
)
# Styles belong to one node: emptied when that node is one of the app's.
_NODE_STYLES = frozenset({"textual.css.styles.RenderStyles", "textual.css.styles.Styles"})


def _clear_owned(value: Any, depth: int = 6, seen: set[int] | None = None, nodes: set[int] | None = None) -> None:
    """Empty the caches reachable from one of a node's attributes.

    Textual's caches are full of cycles: a ``Strip`` keeps its crops in its
    own FIFO caches, and cropping a strip to its full width gives the strip
    itself. Only caches are emptied (Textual rebuilds any entry on a miss),
    so touching one shared with live apps costs them a recomputation, never
    a wrong frame. Nodes themselves are not entered (each is emptied once).
    """
    from textual.cache import FIFOCache, LRUCache
    from textual.dom import DOMNode

    if seen is None:
        seen = set()
    stack: list[tuple[Any, int]] = [(value, depth)]
    while stack:
        obj, level = stack.pop()
        if (
            level <= 0
            or id(obj) in seen
            or isinstance(obj, (str, bytes, int, float, bool, type, DOMNode))
            or obj is None
        ):
            continue
        seen.add(id(obj))
        if isinstance(obj, LRUCache):
            # Its entries are links of a circular list ([prev, next, key, value]):
            # emptying the cache leaves them in a cycle, holding the values.
            children = []
            for link in list(getattr(obj, "_cache", {}).values()):
                children.extend(link[2:])
                link.clear()
            obj.clear()
        elif isinstance(obj, FIFOCache):
            children = list(getattr(obj, "_cache", {}).values())
            obj.clear()
        elif isinstance(obj, dict):
            children = list(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            children = list(obj)
        else:
            module = type(obj).__module__ or ""
            if not module.startswith(("textual.", "rich.")):
                continue
            obj_dict = getattr(obj, "__dict__", None)
            children = list(obj_dict.values()) if obj_dict is not None else []
            for name in getattr(type(obj), "__slots__", ()):
                children.append(getattr(obj, name, None))
            kind = f"{module}.{type(obj).__qualname__}"
            owned = kind in _APP_OWNED or (
                kind in _NODE_STYLES and nodes is not None and id(getattr(obj, "node", None)) in nodes
            )
            if owned and obj_dict is not None:
                stack.extend((child, level - 1) for child in children)
                obj_dict.clear()
                continue
        stack.extend((child, level - 1) for child in children)
