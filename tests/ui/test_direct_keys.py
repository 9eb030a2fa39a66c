"""ui/compat/direct_keys.py: a key whose only effect is a binding's action has the action called at
once, as Textual's routing would call it, and only then.

Real Textual apps: small ones (`run_test`) for each rule of the routing, each key's effect compared
with the same key pressed Textual's way; then the table screen as served (the SSH driver, a
terminal model), its keys fed to two screens, one routing them directly and one Textual's way, the
screens compared cell by cell after every key."""

from __future__ import annotations

import asyncio
import contextvars
import random
import sys
from pathlib import Path

import pytest
from test_direct_paint import SYNC_ANSWER
from test_key_paint import app_pairs, compare, until
from textual import events
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input

import ui  # noqa: F401  (applies the patches)
from engine import GameConfig, apply, new_game, redact_events, view
from ui import ViewUpdate, compat
from ui.compat import direct_keys
from ui.i18n import Catalogue
from ui.prompt_keys import Numbering

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.server.game_helpers import key_path

if "direct_keys" not in compat.apply():  # never skipped: these tests verify a version
    pytest.fail(compat.why_not_applied("direct_keys"), pytrace=False)


class Panel(Widget, can_focus=True):
    BINDINGS = [Binding("up", "move(-1)"), Binding("s", "skip"), Binding("n", "nothing_here")]

    def __init__(self, seen: list[str], **kw) -> None:
        super().__init__(**kw)
        self.seen = seen

    def action_move(self, step: int) -> None:
        self.seen.append(f"panel move {step}")

    def action_skip(self) -> None:
        self.seen.append("panel skip")
        raise SkipAction()


class KeyedPanel(Panel):
    def key_k(self) -> None:
        self.seen.append("panel key_k")


class Keys(App[None]):
    BINDINGS = [
        Binding("x", "note('x')"),
        Binding("y", "note('y')", priority=True),
        Binding("z", "later"),
        Binding("s", "note('s after skip')"),
        Binding("n", "note('n')"),
        Binding("w", "note('w')"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []
        self.y_allowed = True
        self.w_allowed = False
        self.own_context: contextvars.Context | None = None

    def on_mount(self) -> None:
        self.own_context = contextvars.copy_context()  # (as CitadelsApp: the app's task's context)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Panel(self.seen, id="panel")
            yield KeyedPanel(self.seen, id="keyed")
            yield Input(id="input")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if parameters == ("y",):
            return self.y_allowed
        if parameters == ("w",):
            return self.w_allowed
        return True

    def action_note(self, what: str) -> None:
        self.seen.append(f"app {what}")

    async def action_later(self) -> None:
        self.seen.append("app later")


class Modal(ModalScreen[None]):
    BINDINGS = [Binding("m", "note_modal")]

    def __init__(self, seen: list[str]) -> None:
        super().__init__()
        self.seen = seen

    def action_note_modal(self) -> None:
        self.seen.append("modal m")


async def both_ways(app: Keys, pilot, key: str) -> tuple[bool, list[str], list[str]]:
    """The key's effect called directly (if taken), then the same key pressed Textual's way."""
    await pilot.pause()
    event = events.Key(key, key if len(key) == 1 else None)
    found = direct_keys.take(app, event)
    app.seen.clear()
    if found is not None:
        assert app.own_context is not None
        app.own_context.run(direct_keys.call, app, event, found)
    direct = list(app.seen)
    app.seen.clear()
    await pilot.press(key)
    await pilot.pause()
    return found is not None, direct, list(app.seen)


async def test_keys_bound_to_plain_actions_are_called_as_textual_would():
    app = Keys()
    async with app.run_test() as pilot:
        app.query_one("#panel").focus()
        await pilot.pause()
        # the focused widget's binding first, with its parameters
        assert await both_ways(app, pilot, "up") == (True, ["panel move -1"], ["panel move -1"])
        # a binding of the app, found through the focused widget's ancestors
        assert await both_ways(app, pilot, "x") == (True, ["app x"], ["app x"])
        # SkipAction: on to the next binding of the key, as `_check_bindings` does
        assert await both_ways(app, pilot, "s") == (
            True,
            ["panel skip", "app s after skip"],
            ["panel skip", "app s after skip"],
        )
        # a binding without a method is passed over
        assert await both_ways(app, pilot, "n") == (True, ["app n"], ["app n"])
        # a key nothing takes: nothing to do, and nothing done
        assert await both_ways(app, pilot, "q") == (True, [], [])
        # a binding whose check_action refuses it is passed over (here: the only one, so nothing)
        assert await both_ways(app, pilot, "w") == (True, [], [])
        app.w_allowed = True
        assert await both_ways(app, pilot, "w") == (True, ["app w"], ["app w"])
        # no widget focused: the key goes to the screen, the app's binding acts
        app.screen.set_focus(None)
        assert await both_ways(app, pilot, "x") == (True, ["app x"], ["app x"])


async def test_keys_textual_would_do_more_with_are_left_to_it():
    app = Keys()
    async with app.run_test() as pilot:
        app.query_one("#panel").focus()
        # a priority binding that acts
        assert await both_ways(app, pilot, "y") == (False, [], ["app y"])
        # a priority binding its check_action refuses: the key goes on, to no binding here
        app.y_allowed = False
        assert await both_ways(app, pilot, "y") == (True, [], [])
        # an action that is a coroutine function
        assert await both_ways(app, pilot, "z") == (False, [], ["app later"])
        # a focused widget with a key_ method for the key
        app.query_one("#keyed").focus()
        assert await both_ways(app, pilot, "k") == (False, [], ["panel key_k"])
        # a focused widget that handles keys itself (an Input types them)
        app.query_one("#input").focus()
        await pilot.pause()
        assert direct_keys.take(app, events.Key("x", "x")) is None
        app.seen.clear()
        await pilot.press("x")
        await pilot.pause()
        assert app.query_one("#input", Input).value == "x" and app.seen == []
        # a modal screen: its bindings, not the app's below it (`_modal_binding_chain`)
        app.push_screen(Modal(app.seen))
        await pilot.pause()
        assert await both_ways(app, pilot, "m") == (True, ["modal m"], ["modal m"])
        assert await both_ways(app, pilot, "x") == (True, [], [])


async def test_a_key_never_overtakes_a_message():
    app = Keys()
    async with app.run_test() as pilot:
        panel = app.query_one("#panel")
        panel.focus()
        await pilot.pause()
        key = events.Key("up", None)
        assert direct_keys.take(app, key) is not None
        app.post_message(events.Key("x", "x"))  # queued for the app: the next key waits behind it
        assert direct_keys.take(app, key) is None
        await pilot.pause()
        panel.post_message(events.Key("x", "x"))  # queued for a widget on the key's way
        assert direct_keys.take(app, key) is None
        await pilot.pause()
        assert direct_keys.take(app, key) is not None
        direct_keys.switch_off(app)
        assert direct_keys.take(app, key) is None


async def test_an_action_that_fails_ends_the_app_as_in_its_task():
    class Failing(Keys):
        def action_note(self, what: str) -> None:
            raise ValueError("an action failed")

    app = Failing()
    with pytest.raises(ValueError, match="an action failed"):
        async with app.run_test() as pilot:
            await pilot.pause()
            event = events.Key("x", "x")
            found = direct_keys.take(app, event)
            assert found is not None
            assert app.own_context is not None
            app.own_context.run(direct_keys.call, app, event, found)
            await pilot.pause()


# --- the table screen, as served -------------------------------------------------------------------
async def settle_all(pairs: list) -> None:
    """Until no key waits in a driver's input and no message anywhere in the apps (their screens and
    widgets too: typed letters wait in the chat input's queue), across a few frames' time."""
    served = [s for pair in pairs for s in pair]
    quiet = 0
    for _ in range(500):
        await asyncio.sleep(0.02)
        nodes = [n for a, _, _ in served for s in a.screen_stack for n in (a, s, *s.walk_children())]
        waiting = any(ch.driver.stats()["input_waiting"] for _, ch, _ in served)
        quiet = quiet + 1 if not waiting and not any(n.message_queue_size for n in nodes) else 0
        if quiet >= 3:
            return
    raise AssertionError("the apps never settled")


# Keys a player presses besides a game's choices: moving between panels, scrolling, the chat (typed
# letters, Enter and Esc), the help and back, going back in menus, keys bound to nothing.
OTHER_KEYS = [
    b"\t",
    b"\x1b[A",
    b"\x1b[B",
    b"\x1b[6~",
    b"\x1b[H",
    b"\t",
    b"\x1b[5~",
    b"\x1b[Z",
    b"chello",
    b"\r",
    b"c",
    b"hi",
    b"\x1b",
    b"q",
    b"x",
    b"\x1bOP",  # F1: the help
    b"\x1b",
    b"2",
    b"\x1b",
    b"e",
    b"\x1b",
]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_table_screens_keys_show_what_textual_would(size):
    seats, seed = 3, 5
    g, evs = new_game(GameConfig(players=["Ana", "Ben", "Cid"], preset="first-game", seed=seed))
    cat, rng = Catalogue("en"), random.Random(seed)
    numbers = [Numbering() for _ in range(seats)]
    tasks: list = []
    pairs, apps = app_pairs(seats, size, tasks)
    try:
        await until(lambda: all(a.is_running and a.table.is_mounted for a in apps), "the table screens")
        for (_, channel, _), (app, channel2, _) in pairs:
            direct_keys.switch_off(app)
            channel.driver.feed_input(SYNC_ANSWER)
            channel2.driver.feed_input(SYNC_ANSWER)
        taken = direct_keys.STATS["taken"]
        for n in range(12):
            for seat, ((app, _, _), (app2, _, _)) in enumerate(pairs):
                v, e = view(g, seat), redact_events(evs, seat)
                app.post_message(ViewUpdate(v, e))
                app2.post_message(ViewUpdate(v, e))
            await settle_all(pairs)
            compare(pairs, f"move {n}")
            seat = g.pending.seat
            # a seat that waits presses a few of the other keys (its screens compared after each)...
            (_, ch, _), (_, ch2, _) = pairs[(seat + 1) % seats]
            for keys in OTHER_KEYS[n % 3 :: 3]:
                ch.driver.feed_input(keys)
                ch2.driver.feed_input(keys)
                if keys == b"\x1b":
                    await asyncio.sleep(0.15)  # a lone ESC is a key once the parser's wait for more is over
                await settle_all(pairs)
                compare(pairs, f"move {n}, after {keys!r}")
            # ... then the seat to move makes its move by keys (unless its plan's next command went)
            (_, ch, link), (_, ch2, link2) = pairs[seat]
            if not link.commands:
                keys, expected = key_path(view(g, seat), cat, rng, numbers[seat])
                ch.driver.feed_input(keys)
                ch2.driver.feed_input(keys)
                await until(lambda: link.commands and link2.commands, f"move {n}'s command")
                assert link.commands[0] == expected
            else:
                await until(lambda: link2.commands, f"move {n}'s plan command")
            assert link.commands == link2.commands
            evs = apply(g, link.commands.pop(0))
            link.commands.clear()
            link2.commands.clear()
        assert direct_keys.STATS["taken"] - taken > 30
    finally:
        for app in apps:
            app.exit()
        await asyncio.gather(*tasks, return_exceptions=True)
