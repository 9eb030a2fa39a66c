"""ui/compat/direct_messages.py: a message for an app waiting for one is dispatched at once, as the
app's task would dispatch it, and only then.

Real Textual apps (`run_test`); the direct dispatch is called from the test's task, as the server's
table actor calls it, in the context the app's task runs its handlers in."""

from __future__ import annotations

import asyncio
import contextvars

import pytest
from textual.app import App
from textual.message import Message
from textual.message_pump import active_message_pump

import ui  # noqa: F401  (applies the patches)
from ui import compat
from ui.compat import direct_messages

if "direct_messages" not in compat.apply():  # never skipped: these tests verify a version
    pytest.fail(compat.why_not_applied("direct_messages"), pytrace=False)


class Note(Message):
    def __init__(self, text: str, awaiting: asyncio.Future | None = None, fail: bool = False) -> None:
        super().__init__()
        self.text = text
        self.awaiting = awaiting
        self.fail = fail


class Slow(Message):
    """A message whose handler is a coroutine function: never dispatched at once."""


class Recorder(App[None]):
    """An app that records what its handlers see; its own `on_note` runs after the subclass's
    (Textual walks the MRO)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str]] = []
        self.context: contextvars.Context | None = None
        self.apps_seen: list[object] = []
        self.after: list[str] = []

    def on_mount(self) -> None:
        self.context = contextvars.copy_context()

    def on_note(self, msg: Note) -> None:
        self.seen.append(("base", msg.text))

    def record(self, msg: Note) -> None:
        self.seen.append(("app", msg.text))
        self.apps_seen.append((self.app, active_message_pump.get()))
        if msg.text == "next":
            self.call_next(self.after.append, "called next")
        if msg.text == "stale":
            msg.prevent_default()  # the base class's handler is not called (ServerApp's stale views)
        if msg.fail:
            raise ValueError("a handler failed")


class NotesApp(Recorder):
    """A handler not declared to return None: dispatched through Textual's `_dispatch_message`."""

    def on_note(self, msg: Note):
        self.record(msg)
        if msg.awaiting is not None:
            return msg.awaiting  # an awaitable from a plain handler: the dispatch awaits it
        return None

    async def on_slow(self, msg: Slow) -> None:
        self.seen.append(("slow", ""))


class PlainApp(Recorder):
    """Handlers of (self, message) declared to return None: called directly (`_call`)."""

    def on_note(self, msg: Note) -> None:
        self.record(msg)


def notes_published(app: Recorder) -> list[Message]:
    """The `Note`s the app's `message_signal` publishes (Textual's own messages left out)."""
    published: list[Message] = []
    app.message_signal.subscribe(app, lambda m: published.append(m) if isinstance(m, Note) else None, immediate=True)
    return published


def take(app: Recorder, message: Message) -> bool:
    if not direct_messages.takes(app, message):
        return False
    assert app.context is not None
    app.context.run(direct_messages.dispatch, app, message)
    return True


async def test_an_idle_app_takes_a_message_at_once_as_its_task_would():
    app = NotesApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        published = notes_published(app)
        taken = direct_messages.STATS["taken"]
        message = Note("one")
        assert take(app, message)
        # dispatched before take returned: both handlers along the MRO, in Textual's order
        assert app.seen == [("app", "one"), ("base", "one")]
        assert app.apps_seen == [(app, app)]  # the app's context: its active app and message pump
        assert published == [message]
        assert direct_messages.STATS["taken"] == taken + 1
        # the same message through Textual's own round trip: the same handlers in the same order
        app.seen.clear()
        app.post_message(Note("two"))
        await pilot.pause()
        assert app.seen == [("app", "two"), ("base", "two")]
        # `call_next` from a handler runs right after it, as Textual's dispatch does
        assert take(app, Note("next"))
        assert app.after == ["called next"]


async def test_a_queued_message_keeps_its_place():
    app = NotesApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.post_message(Note("queued"))  # the app's task has not run yet: the next must wait behind it
        assert not direct_messages.takes(app, Note("after"))
        app.post_message(Note("after"))
        await pilot.pause()
        assert [t for who, t in app.seen if who == "app"] == ["queued", "after"]
        assert direct_messages.takes(app, Note("now"))


async def test_a_coroutine_handler_is_posted():
    app = NotesApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert direct_messages.takes(app, Note("x"))
        assert not direct_messages.takes(app, Slow())


async def test_a_dispatch_that_awaits_finishes_in_a_task_of_the_app_context():
    app = NotesApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        published = notes_published(app)
        waited: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        message = Note("awaits", awaiting=waited)
        awaited = direct_messages.STATS["awaited"]
        assert take(app, message)
        assert direct_messages.STATS["awaited"] == awaited + 1
        assert app.seen == [("app", "awaits")]  # the base class's handler waits behind the awaitable
        assert published == []
        waited.set_result(None)
        await pilot.pause()
        assert app.seen == [("app", "awaits"), ("base", "awaits")]
        assert published == [message]


async def test_not_taken_with_callbacks_waiting_or_once_closed():
    app = NotesApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.call_next(lambda: None)  # callbacks waiting for the task's next turn: let the task run them
        assert not direct_messages.takes(app, Note("x"))
        await pilot.pause()
        assert direct_messages.takes(app, Note("x"))
    assert not direct_messages.takes(app, Note("closed"))


@pytest.mark.parametrize("kind", [NotesApp, PlainApp])
async def test_handlers_called_directly_or_through_textual_alike(kind):
    app = kind()
    async with app.run_test() as pilot:
        await pilot.pause()
        published = notes_published(app)
        called = direct_messages.STATS["called"]
        assert take(app, Note("one"))
        assert take(app, Note("stale"))
        assert take(app, Note("next"))
        assert app.after == ["called next"]
        assert app.apps_seen == [(app, app)] * 3
        assert len(published) == 3
        # called directly only where every handler is a (self, message) method returning None
        assert direct_messages.STATS["called"] - called == (3 if kind is PlainApp else 0)
        expected = [("app", "one"), ("base", "one"), ("app", "stale"), ("app", "next"), ("base", "next")]
        assert app.seen == expected
        # Textual's own round trip: the same
        app.seen.clear()
        for text in ("one", "stale", "next"):
            app.post_message(Note(text))
        await pilot.pause()
        assert app.seen == expected


@pytest.mark.parametrize("kind", [NotesApp, PlainApp])
async def test_a_failing_handler_ends_the_app_as_in_its_task(kind):
    app = kind()
    with pytest.raises(ValueError, match="a handler failed"):
        async with app.run_test() as pilot:
            await pilot.pause()
            assert take(app, Note("boom", fail=True))
            await pilot.pause()
    assert app.return_code == 1
