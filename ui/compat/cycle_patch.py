"""Fewer garbage cycles from two Textual internals.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_cycle_patch.py
compares both with Textual's own methods, tests/server/test_session_garbage.py checks
that a departed session leaves nothing in cycles).

A server keeps hundreds of apps in one process and freezes what survives a
young collection (``server.transport.gc_tuning``): a cycle that becomes garbage after
that waits for a full collection of the whole heap, a pause of seconds. Two
of Textual's internals made such cycles all the time:

- ``LRUCache.clear`` drops its dictionary but leaves the entries, links of a
  circular list (``[prev, next, key, value]``), pointing at each other, with
  the values still in them. Textual clears the node-query cache of a widget
  or screen on every change of its children, so each clear left a ring of
  widgets behind. Now ``clear`` empties the links first.
- ``Stylesheet._process_component_classes`` built a new virtual ``DOMNode``
  (with its styles, message queue, signals, bindings: ~40 objects in a cycle,
  the node's ``Styles.node`` pointing back) for every component class each
  time a widget was restyled (focus, hover, a class toggled), dropping the
  last ones. Now each widget keeps its virtual nodes and restyles them in
  place: their rules are emptied, then the stylesheet applied as to a new
  node, so they end with the rules a new one would get (a test compares with
  Textual's method); the widget is refreshed when they changed, as before.

With the asyncssh and input-parser cycles broken too (server/transport/ssh.py,
server/transport/driver.py), a departed lobby session left 380 objects in frozen cycles
before and none after (in-process probe, 2026-11-22); under churn with 300
players seated, RSS stays flat (docs/server.md). Applied by
``ui.compat.apply`` on a verified Textual only (the stock methods are correct,
only leakier).

Upstream: ``LRUCache.clear`` could empty its links before dropping them, and
``Stylesheet._process_component_classes`` could keep a widget's virtual nodes
and restyle them in place.
"""

from __future__ import annotations

from typing import Any

from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from ui.compat import check_verified

ORIGINALS: dict[str, Any] = {}


def _clear(self: LRUCache[Any, Any]) -> None:
    """Clear the cache."""
    for link in self._cache.values():
        link.clear()  # break the ring: prev, next, key and value
    self._head.clear()
    self._cache.clear()
    self._full = False
    self._head = []


def _process_component_classes(self: Stylesheet, node: DOMNode) -> None:
    """Process component classes for the given node (reusing its virtual nodes)."""
    component_classes = node._get_component_classes()
    if not component_classes:
        return
    virtual: dict[str, DOMNode] | None = node.__dict__.get("_citadels_component_nodes")
    if virtual is None:
        virtual = node.__dict__["_citadels_component_nodes"] = {}
    refresh_node = False
    old_component_styles = node._component_styles.copy()
    node._component_styles.clear()
    for component in sorted(component_classes):
        virtual_node = virtual.get(component)
        before = old_component_styles.get(component)
        if virtual_node is None:
            virtual_node = virtual[component] = DOMNode(classes=component)
            virtual_node._attach(node)
            self.apply(virtual_node, animate=False)
            changed = before != virtual_node.styles
        else:
            styles = virtual_node.styles
            rules_before = (dict(styles.base._rules), dict(styles.inline._rules))
            styles.base.reset()  # `apply` leaves the rules alone when none match now
            self.apply(virtual_node, animate=False)
            changed = before is not styles or rules_before != (styles.base._rules, styles.inline._rules)
        refresh_node = refresh_node or changed
        node._component_styles[component] = virtual_node.styles
    if refresh_node:
        node.refresh()


_PATCHES: dict[tuple[type, str], Any] = {
    (LRUCache, "clear"): _clear,
    (Stylesheet, "_process_component_classes"): _process_component_classes,
}


def apply() -> bool:
    """Patch both methods (once); raises `UnverifiedTextual` on a Textual this was not verified with."""
    if getattr(Stylesheet, "_citadels_fewer_cycles", False):
        return True
    check_verified(__name__)
    for (cls, name), fn in _PATCHES.items():
        ORIGINALS[name] = getattr(cls, name)
        fn.__qualname__ = f"{cls.__name__}.{name}"
        setattr(cls, name, fn)
    Stylesheet._citadels_fewer_cycles = True  # type: ignore[attr-defined]
    return True
