"""A message's handlers found once per kind of widget and message, not by walking the MRO every time.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_textual_patches.py
compares the patched method with Textual's own for every widget class and message class the
game's screens dispatch).

Textual finds a message's handlers (`MessagePump._get_dispatch_methods`) by walking the
receiving widget's class MRO (15-25 classes) for every message, and every `Idle` of every
widget: per class a dict look-up of its `@on` handlers for each class of the message's MRO and
two of `_on_x` / `on_x`, with the names formatted anew. A served table's move dispatches a few
hundred messages per seat; that walk was 3.6 % of the server's CPU per move (CPU-time samples,
docs/performance.md). What it finds depends only on the classes, which do not change once
defined, so `apply()` replaces the method with one that keeps, per (widget class, handler
name, message class), the classes that have a handler and their handlers, and walks only those.
What depends on the message is still checked at each step, as Textual does: `prevent_default()`
stops before the next class, an `@on` handler with selectors is matched against the message's
widgets, a handler reached twice is called once.

And every message's dispatch (`MessagePump._dispatch_message`, `_on_message`) skips two things that
do nothing on a served app yet cost ~2 % of a served move's CPU (docs/performance.md): the record
of each handler call for Textual's devtools (`log.event.verbosity(...)(...)`: three `Logger`
objects and a formatted string, then `Logger.__call__` returns at once when no devtools console is
connected and no `TEXTUAL_LOG` file is set: checked first here, and logged as Textual does when
either is), and the `prevent()` context manager entered with no message types (a bare `yield` in
Textual). Everything else is Textual's, in its order: the message hook (Pilot's), events to
`on_event`, the debug feature's timing (Textual's own method then), the handlers from
`_get_dispatch_methods` through `invoke`, bubbling, the next-callbacks.

Upstream: `_get_dispatch_methods` could cache the static part the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual import constants, log
from textual._callback import invoke
from textual._context import active_app
from textual._context import message_hook as message_hook_context_var
from textual.css.match import match
from textual.events import Event
from textual.message import Message
from textual.message_pump import MessagePump, OnNoWidget
from textual.widget import Widget

from ui.compat import check_verified

# (class with handlers, its @on handlers for the message's classes, its _on_x / on_x method or None)
_Step = tuple[type, tuple[tuple[Callable[..., Any], dict[str, Any]], ...], Callable[..., Any] | None]

_plans: dict[tuple[type, str, type], tuple[_Step, ...]] = {}


def _plan(pump_class: type, method_name: str, message_class: type) -> tuple[_Step, ...]:
    """The classes of `pump_class`'s MRO that have a handler for `message_class`, with those handlers."""
    message_mro = [kind for kind in message_class.__mro__ if issubclass(kind, Message)]
    steps: list[_Step] = []
    for cls in pump_class.__mro__:
        decorated = cls.__dict__.get("_decorated_handlers")
        handlers = tuple(h for kind in message_mro for h in decorated.get(kind, [])) if decorated else ()
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None  # decorated: called through its @on entry
        if handlers or method is not None:
            steps.append((cls, handlers, method))
    return tuple(steps)


def _get_dispatch_methods(self: MessagePump, method_name: str, message: Message) -> Iterator[tuple[type, Any]]:
    key = (self.__class__, method_name, message.__class__)
    steps = _plans.get(key)
    if steps is None:
        steps = _plans[key] = _plan(*key)
    dispatched: set[Callable[..., Any]] = set()
    for cls, handlers, method in steps:
        if message._no_default_action:
            break
        for handler, selectors in handlers:
            if handler in dispatched:
                continue
            if selectors and (not message._sender or not _matches(message, selectors)):
                continue  # an @on handler for other widgets
            yield cls, handler.__get__(self, cls)
            dispatched.add(handler)
        if method is not None:
            yield cls, method.__get__(self, cls)


def _matches(message: Message, selectors: dict[str, Any]) -> bool:
    for attribute, selector in selectors.items():
        node = getattr(message, attribute)
        if node is None:
            return False
        if not isinstance(node, Widget):
            raise OnNoWidget(f"on decorator can't match against {attribute!r} as it is not a widget.")
        if not match(selector, node):
            return False
    return True


def _logged() -> bool:
    """Whether Textual's `Logger.__call__` would record anything now (Textual 8.2.8, textual/__init__.py)."""
    if constants.LOG_FILE:
        return True
    try:
        app = active_app.get()
    except LookupError:
        return bool(constants.DEBUG)  # (printed then)
    return bool(app._is_devtools_connected)


async def _dispatch_message(self: MessagePump, message: Message) -> None:
    """Textual's `MessagePump._dispatch_message` without entering `prevent()` for no message types."""
    _rich_traceback_guard = True  # (read by Rich's traceback filter, as in Textual)
    event = isinstance(message, Event)
    if message._prevent or (not event and "debug" in self.app.features):
        await original_dispatch_message(self, message)  # Textual's own, all of it
        return
    if message.no_dispatch:
        return
    try:
        message_hook = message_hook_context_var.get()
    except LookupError:
        pass
    else:
        message_hook(message)
    if isinstance(message, Event):
        await self.on_event(message)
    else:
        await self._on_message(message)
    if self._next_callbacks:
        await self._flush_next_callbacks()


async def _on_message(self: MessagePump, message: Message) -> None:
    """Textual's `MessagePump._on_message`, its log records made only when something records them."""
    _rich_traceback_guard = True
    handler_name = message.handler_name
    logged = _logged()
    dispatched = False
    for cls, method in self._get_dispatch_methods(handler_name, message):
        if logged:
            log.event.verbosity(message.verbose)(message, ">>>", self, f"method=<{cls.__name__}.{handler_name}>")
        dispatched = True
        await invoke(method, message)
    if not dispatched and logged:
        log.event.verbosity(message.verbose)(message, ">>>", self, "method=None")
    if message.bubble and self._parent and not message._stop_propagation:
        if message._sender is not None and message._sender == self._parent:
            message.stop()
        if self.is_parent_active and self.is_attached:
            message._bubble_to(self._parent)


original_get_dispatch_methods = MessagePump._get_dispatch_methods
original_dispatch_message = MessagePump._dispatch_message
original_on_message = MessagePump._on_message


def apply() -> None:
    check_verified("dispatch_patch")
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
    MessagePump._dispatch_message = _dispatch_message  # type: ignore[method-assign]
    MessagePump._on_message = _on_message  # type: ignore[method-assign]
