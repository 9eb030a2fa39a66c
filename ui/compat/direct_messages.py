"""A message handed to an app that is waiting for one: dispatched without waking its task.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_direct_messages.py
compares it with Textual's own round trip; tests/server/test_direct_paint_ssh.py uses it over SSH).

Textual's way for a message posted to an app: `post_message` checks it and puts it in the app's
queue, which sets the queue's event; the app's task wakes (a loop step), takes the message,
dispatches it (`_dispatch_message`: the handlers along the app's class MRO, then the callbacks
`call_next` left), publishes it on `message_signal`, dispatches an `Idle` event to the app (whose
only work is a pending resize, `App._on_idle`) and waits again. A served table's move pays that
round trip once for every seat's view.

When the app's task is waiting for its next message (`idle`: its queue empty, no message held
back, its queue's event awaited, no resize pending, not closing, on its own thread), nothing of
the app is running and nothing is queued ahead of the message, so `dispatch` can do what that task
would do with it, in that loop step or in the next one (`loop.call_soon`: a message posted
meanwhile wakes the app's task after it): `post_message`'s checks, `_dispatch_message` (the message hook,
the handlers, the next callbacks), `message_signal`. The caller runs it in the app's context (the
context variables Textual's handlers read: the active app and message pump). The Idle is left out:
no resize is pending. Only messages whose handlers are all plain functions are taken this way
(`takes`); should a dispatch still await something (a handler returning an awaitable), the rest
of it runs as a task in the same context, awaiting what it awaited. When the handlers are methods
of (self, message) declared to return None, without `@on` handlers, and nothing else of
`_dispatch_message` applies (no prevented types, debug feature, message hook or log record, no
parent to bubble to), they are called directly in the MRO's order, each class's unless an earlier
one prevented the default, as `_dispatch_message` would call them through `invoke` (`_call`).

Used by the server for a table's view updates (server/app.py, `ServerApp.take_now`).
`CITADELS_WITHOUT_PATCHES=direct_messages` leaves it out (every message posted).
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Coroutine, Generator
from typing import Any

from textual._context import message_hook
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump

from ui.compat import check_verified
from ui.compat.dispatch_patch import _logged, _plan

_on = False
# (app class, message class) -> (every handler a plain function, the handlers to call directly or None)
_kinds: dict[tuple[type, type], tuple[bool, tuple[Callable[..., Any], ...] | None]] = {}
STATS = {"taken": 0, "called": 0, "awaited": 0}
_resting: set[asyncio.Future[None]] = set()  # dispatches finishing in a task (`dispatch`)


def apply() -> None:
    global _on
    check_verified("direct_messages")
    _on = True


def _kind(
    app_class: type, message_class: type, handler_name: str
) -> tuple[bool, tuple[Callable[..., Any], ...] | None]:
    steps = _plan(app_class, handler_name, message_class)
    fns = [fn for _, handlers, method in steps for fn in (*(h for h, _ in handlers), *((method,) if method else ()))]
    sync = not any(inspect.iscoroutinefunction(fn) for fn in fns)
    # Called directly when there are no @on handlers (selectors to match) and each handler is a
    # method of (self, message) declared to return None: nothing to await, as `invoke` would find.
    direct = all(not handlers for _, handlers, _ in steps) and all(_returns_none(fn) for fn in fns)
    return sync, tuple(fns) if sync and direct else None


def _returns_none(fn: Callable[..., Any]) -> bool:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    params = list(signature.parameters.values())
    two = len(params) == 2 and all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    return two and signature.return_annotation in (None, "None")


def takes(app: App[Any], message: Message) -> bool:
    """Whether `message` may be dispatched to `app` without its task (`dispatch`) now (else post it)."""
    if not _on:
        return False
    key = (type(app), type(message))
    kind = _kinds.get(key)
    if kind is None:
        kind = _kinds[key] = _kind(type(app), type(message), message.handler_name)
    return kind[0] and idle(app)


def idle(app: App[Any]) -> bool:
    """The app's task is waiting for its next message, with nothing queued or pending."""
    if app._resize_event is not None or app._thread_id != threading.get_ident():
        return False
    return waiting(app)


def waiting(pump: MessagePump) -> bool:
    """The pump's task (an app's or a widget's) is waiting for its next message, with nothing queued,
    held back or left for after, and it is not closing."""
    queue: Any = pump._message_queue
    if queue.values or pump._pending_message is not None or pump._next_callbacks:
        return False
    if pump._closing or pump._closed:
        return False
    return bool(queue.ready_event._waiters)  # (asyncio.Event's own: the pump's task awaits it)


def dispatch(app: App[Any], message: Message) -> None:
    """What the app's task does with a message, done now (run it in the app's context; `takes`
    first, and nothing of the app run since: the same loop step, or the next with nothing between)."""
    if app._closing or app._closed or not app.check_message_enabled(message):
        return  # (as `post_message` drops it)
    message._prevent.update(app._get_prevented_messages())
    STATS["taken"] += 1
    try:
        work = _call(app, message)
        if work is not None:
            waited = work.send(None)
            STATS["awaited"] += 1  # (it awaits: the rest in a task, which publishes the message)
            task = asyncio.ensure_future(_rest(app, message, work, waited))  # (the current context: the app's)
            _resting.add(task)  # kept until done: the loop holds tasks weakly
            task.add_done_callback(_resting.discard)
            return
    except StopIteration:
        pass
    except Exception as error:  # as the app's task: the app handles it (and ends)
        app._handle_exception(error)
    app.message_signal.publish(message)


def _call(app: App[Any], message: Message) -> Coroutine[Any, Any, None] | None:
    """The handlers called directly when nothing of `_dispatch_message` applies but them (no types
    prevented, no debug feature, no message hook, nothing logged, no parent to bubble to): in its
    order, each class's handler unless an earlier one prevented the default; then the `call_next`
    callbacks, if any (a coroutine to drive). Else `_dispatch_message` itself (a coroutine)."""
    calls = _kinds[(type(app), type(message))][1]
    if (
        calls is None
        or message._prevent
        or "debug" in app.features
        or message_hook.get(None) is not None
        or _logged()
        or app._parent is not None
    ):
        return app._dispatch_message(message)
    if message.no_dispatch:
        return None
    STATS["called"] += 1
    for fn in calls:
        if message._no_default_action:
            break
        fn(app, message)
    return app._flush_next_callbacks() if app._next_callbacks else None


async def _rest(app: App[Any], message: Message, work: Any, waited: Any) -> None:
    try:
        await _Resumed(work, waited)
    except Exception as error:
        app._handle_exception(error)
    finally:
        app.message_signal.publish(message)


class _Resumed:
    """A coroutine that already yielded `waited` (a future), driven on by the task awaiting this."""

    def __init__(self, work: Any, waited: Any) -> None:
        self._work = work
        self._waited = waited

    def __await__(self) -> Generator[Any, Any, Any]:
        waited = self._waited
        while True:
            try:
                sent = yield waited
            except BaseException as error:  # (a cancellation, thrown in where it waits)
                try:
                    waited = self._work.throw(error)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    waited = self._work.send(sent)
                except StopIteration as stop:
                    return stop.value
