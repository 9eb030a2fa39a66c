"""A key whose only effect is a binding's action: the action called at once, not routed through
the message queues of the app, the focused widget and its ancestors.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_direct_keys.py compares
the decisions and the screens with Textual's own routing; tests/ui/test_key_paint.py plays whole
games by keys against screens that route them the usual way).

Textual's way for a key the driver posts (`App.on_event`, `App._check_bindings`,
`Widget._forward_event`, `MessagePump._on_message`, `App._on_key`): the app's task takes it,
looks for a priority binding from the app down (`_binding_chain`, reversed), else forwards it to
the focused widget (or the screen), a message in that widget's queue; its task dispatches it to
its key handlers (`_on_key`: `key_<name>` methods) and bubbles it to its parent, each ancestor's
task in turn, up to the app, whose `_on_key` looks for a non-priority binding from the focused
widget up (`_modal_binding_chain`) and runs the first whose target's `check_action` allows it
(`run_action`: `_action_<name>` or `action_<name>` through `invoke`). For a digit on a served
table that was ~9 % of the server's CPU per move around an action of ~4 % (CPU-time samples,
2026-11-27).

`take(app, key)` finds the call Textual's way would come to, and returns it only when that call
is all it would do, in the same order: the app and every node on the key's way (the focused
widget, its ancestors, the screen) waiting for a message with nothing queued or pending (so no
earlier message is overtaken); no maximized widget; none of those nodes handling keys beyond
Textual's own `Widget._on_key` / `App._on_key` (no `on_key`, no `@on(Key)`, no `key_<name>`
method for the key's names, the app's included: a key no binding takes does nothing); no priority
binding for the key whose target's `check_action` allows it; the first non-priority binding whose
target allows it (bindings without a method are passed over, as `_dispatch_action` does) with a
plain function declared to return None; no message hook, debug feature or log record. Else None,
and the caller posts the key (Textual's way). `call(app, key, found)` then does what the app's
task would: `app_focus`, the tooltip cleared (or, with no focused widget, the screen's pointer
shape updated, as `Screen._forward_event` does), the action called with the parameters `invoke`
passes; an action that raises `SkipAction` passes to the next binding as `_check_bindings` does
(the rest of the walk made by Textual's rules, decided before anything ran, is taken again); an
exception is the app's (`_handle_exception`, as in its task); callbacks the action left for after
it (`call_next` on the app) are flushed by the app's task (`check_idle`). The key is not published
on the nodes' `message_signal` (nothing of ours or Textual's subscribes to keys there).

`CITADELS_WITHOUT_PATCHES=direct_keys` leaves it out; `switch_off(app)` does for one app (tests).
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable
from typing import Any

from textual import events
from textual._callback import count_parameters
from textual._context import message_hook
from textual.actions import SkipAction
from textual.app import App
from textual.message_pump import MessagePump
from textual.widget import Widget

from ui.compat import check_verified
from ui.compat.direct_messages import idle, waiting
from ui.compat.dispatch_patch import _logged, _plan

_on = False
_off_apps: weakref.WeakSet[Any] = weakref.WeakSet()
STATS = {"taken": 0, "skipped": 0}
# (node class, key) -> the class handles no key of that name beyond Textual's own key handler
_plain: dict[tuple[type, str], bool] = {}
# an action method's function -> a plain function declared to return None
_plain_actions: dict[Any, bool] = {}

Found = list[tuple[Callable[..., Any], tuple[Any, ...]]]  # the actions to try, in order, with their arguments


def apply() -> None:
    global _on
    check_verified("direct_keys")
    _on = True


def switch_off(app: Any) -> None:
    """This app's keys go Textual's way (tests comparing both in one process)."""
    _off_apps.add(app)


def take(app: App[Any], key: events.Key) -> Found | None:
    """The actions Textual's routing of `key` would try, in order, when that is all it would do; else None."""
    if not _on or app in _off_apps or not idle(app):
        return None
    if message_hook.get(None) is not None or "debug" in app.features or _logged():
        return None
    screen = app.screen
    if screen.maximized is not None:
        return None
    name = key.key
    node: MessagePump | None = app.focused or screen  # where `App.on_event` forwards it
    while node is not None and node is not app:
        if not waiting(node) or not _handles_nothing(node, key, Widget):
            return None
        node = node._parent
    if node is not app or not _handles_nothing(app, key, App):
        return None
    chain = screen._binding_chain
    for namespace, bindings in reversed(chain):
        for binding in bindings.key_to_bindings.get(name, ()):
            if binding.priority:
                owner, action, params = app._parse_action(binding.action, namespace)
                if owner.check_action(action, params):
                    return None  # a priority binding acts: Textual's way
    found: Found = []
    for namespace, bindings in chain:
        for binding in bindings.key_to_bindings.get(name, ()):
            if binding.priority:
                continue
            owner, action, params = app._parse_action(binding.action, namespace)
            if not owner.check_action(action, params):
                continue
            method = getattr(owner, f"_action_{action}", None)
            if not callable(method):
                method = getattr(owner, f"action_{action}", None)
            if not callable(method):
                continue  # (no method: `_dispatch_action` passes it over)
            if not _plain_action(method):
                return None
            found.append((method, params[: count_parameters(method)]))
        if namespace.is_modal:
            break  # (`_modal_binding_chain`)
    return found


def call(app: App[Any], key: events.Key, found: Found) -> None:
    """What the app's task would do with `key` (`take` found it): run it in the app's context."""
    if not app.app_focus:
        app.app_focus = True
    screen = app.screen
    if app.focused:
        screen._clear_tooltip()
    else:  # (forwarded to the screen: `Screen._forward_event` updates its pointer's shape)
        screen.update_pointer_shape()
    STATS["taken"] += 1
    try:
        for method, params in found:
            try:
                method(*params)
            except SkipAction:
                STATS["skipped"] += 1
                continue
            break
    except Exception as error:  # as in the app's task: the app handles it (and ends)
        app._handle_exception(error)
        return
    if app._next_callbacks:
        app.check_idle()


def _handles_nothing(node: MessagePump, key: events.Key, base: type) -> bool:
    """The node's class handles `key` only with `base`'s own `_on_key` and has no `key_` method for it."""
    cls = type(node)
    kept = _plain.get((cls, key.key))
    if kept is None:
        steps = _plan(cls, "on_key", events.Key)
        own = base.__dict__["_on_key"]
        only_own = all(not handlers and method is own for _, handlers, method in steps) and len(steps) == 1
        no_methods = not any(
            hasattr(cls, f"key_{alias}") or hasattr(cls, f"_key_{alias}") for alias in key.name_aliases
        )
        kept = _plain[(cls, key.key)] = only_own and no_methods
    if not kept:
        return False
    # a `key_` method set on the node itself (not its class) would be called by `dispatch_key`
    names = node.__dict__
    return not any(f"key_{alias}" in names or f"_key_{alias}" in names for alias in key.name_aliases)


def _plain_action(method: Any) -> bool:
    fn = getattr(method, "__func__", method)
    kept = _plain_actions.get(fn)
    if kept is None:
        try:
            returns = inspect.signature(fn).return_annotation
        except (TypeError, ValueError):
            returns = inspect.Signature.empty
        kept = _plain_actions[fn] = not inspect.iscoroutinefunction(fn) and returns in (None, "None")
    return kept
