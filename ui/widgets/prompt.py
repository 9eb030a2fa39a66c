"""The prompt: the decision the game waits for, as a list of exactly the legal choices.

Built from `ui.prompt_model.build_menu(view)`, with the keys of `ui.prompt_keys`:
a list of characters answers to their ranks, other lists to numbers that stay
with their entries for the whole turn, ending the turn to `e`, a confirmation to
Enter; arrows + Enter and the mouse work everywhere. Groups open a list of
their legal targets; what acts on someone or costs something asks once, naming
everything that will happen; Esc (or the last line, "Back") goes up a level.
While another seat decides, the title says who we wait for.

One widget that renders its title, its list and the description of the
highlighted choice itself: moving the highlight or receiving a new menu is a
repaint of this widget only, never a new layout. A key that sends a command
leaves its redraw (the highlight on the chosen entry) to the table's answer,
drawn with it in one paint, or alone a frame's time later (`_hold_sent`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
from rich.text import Text
from textual import constants, events
from textual.binding import Binding
from textual.message import Message

from ..compat.direct_paint import painting
from ..i18n import Catalogue
from ..prompt_keys import DIGITS, END_TURN, Numbering, index_of_key, place_of, turn_of
from ..prompt_model import Entry, Menu, build_menu, checklist_menu, confirm_menu, waiting_menu
from .line_widget import LineWidget
from .prompt_drawing import PromptDrawing

_enc = msgspec.msgpack.Encoder()
__all__ = ["PromptPanel"]

# A key that sends a command redraws its highlight at most this much later (Textual's frame time):
# the table's answer, a new view, usually comes first and draws the new menu over it in one paint.
SENT_REDRAW_SECONDS = 1 / constants.MAX_FPS


class PromptPanel(PromptDrawing, LineWidget):
    can_focus = True
    sent_redraw_seconds = SENT_REDRAW_SECONDS  # (0: a sent command's highlight drawn at once; tests compare)
    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("home", "move_to(0)", show=False),
        Binding("end", "move_to(-1)", show=False),
        Binding("enter", "select", show=False),
    ]

    class Chosen(Message):
        """The player chose a command to send to the table."""

        def __init__(self, command: Any) -> None:
            super().__init__()
            self.command = command

    class MenuChanged(Message):
        """Another menu is shown (the screen's layout may give a long one more room)."""

    class Changed(Message):
        """What the prompt asks changed (the keys that work may have changed: the footer)."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.cat: Catalogue | None = None
        self._key: bytes | None = None
        self._legal_key: bytes | None = None
        self._view: Any = None
        self._stack: list[Menu] = []
        self._steps: list[tuple[str, Any]] = []  # how the menus above the first were opened: (how, ident)
        self._chosen: set[int] = set()  # a checklist's marked rows
        self._plan: list[Any] = []  # commands still to send, each once the table offers it
        self._numbers = Numbering()
        self._sent = False
        self.roomy = False  # room to show character texts in the list
        self.highlighted = 0
        self._scroll = 0
        self._row_map: dict[int, int] = {}
        self._col_map: dict[int, list[tuple[int, int, int]]] = {}  # y -> (x from, x to, entry) in columns
        self._fits_key: tuple | None = None
        self._fits = True
        self._note: Text | None = None  # a refusal, shown instead of the description
        self._clock: Text | None = None  # the turn timer's line (ui/feedback.py), above the title
        self._holding = False  # a key's redraws wait for its end: one build (`_one_redraw`)
        self._held = False  # a redraw waits
        self._held_timer: asyncio.TimerHandle | None = None  # when a sent command's redraw is made

    def reset(self) -> None:
        """No decision shown (the panel is reused for another table)."""
        self._key = self._legal_key = None
        self._view = None
        self._stack, self._steps, self._plan = [], [], []
        self._chosen = set()
        self._numbers = Numbering()
        self._sent = False
        self.highlighted = self._scroll = 0
        self._note = None
        self.invalidate()

    # --- state from the view -----------------------------------------------------
    def show(self, view: Any, cat: Catalogue, roomy: bool = False, announce: bool = True) -> bool:
        """Take in a view (True: the menu changed). `announce=False`: the caller lays the screen out
        right after (no `MenuChanged` message, two dispatches and a layout check saved per view)."""
        if self._plan and self._continue_plan(view):
            return False
        waiting = None
        if view.legal:
            key = _enc.encode((cat.key, view.seq, view.legal, view.pending, view.turn, roomy))
        else:  # nothing to choose: only the sentence of who we wait for can change
            waiting = waiting_menu(view, cat)
            key = _enc.encode((cat.key, waiting.title, waiting.hint, roomy))
        if key == self._key and cat is self.cat:
            return False
        self._key = key
        self.cat = cat
        self.roomy = roomy
        self._view = view
        legal_key = _enc.encode((cat.key, view.legal, view.pending))
        same_choices = legal_key == self._legal_key
        was = self._highlighted_ident() if self.depth == 1 else None
        steps = self._steps if same_choices else []
        self._legal_key = legal_key
        self._sent = False
        self._note = None
        if not same_choices:
            self._chosen = set()
        self._numbers.begin(turn_of(view))
        self._steps = []
        self._stack = [self._keyed(waiting or build_menu(view, cat))]
        # keep the player's place in the menus when their choices did not change
        for how, ident in steps:
            i = next((i for i, e in enumerate(self._shown.entries) if e.ident == ident), None)
            if i is None or not self._open_step(how, i):
                break
        if not same_choices:  # the highlight stays on its entry if it is still there (a card just marked)
            self.highlighted = next((i for i, e in enumerate(self._shown.entries) if was and e.ident == was), 0)
            self._scroll = 0
        self.highlighted = min(self.highlighted, max(len(self._shown.entries) - 1, 0))
        self.invalidate()
        if announce:
            self.post_message(self.MenuChanged())
        return True

    def _continue_plan(self, view: Any) -> bool:
        """Send the next command of a plan if the table now offers it (True: sent, nothing to redraw)."""
        nxt = self._plan[0]
        if nxt in view.legal:
            self._plan.pop(0)
            self._sent = True
            self.post_message(self.Chosen(nxt))
            return True
        self._plan = []  # the table went elsewhere: show what it offers
        return False

    def _highlighted_ident(self) -> Any:
        entries = self.menu.entries if self.menu is not None else []
        return entries[self.highlighted].ident if 0 <= self.highlighted < len(entries) else None

    @property
    def menu(self) -> Menu | None:
        return self._stack[-1] if self._stack else None

    @property
    def _shown(self) -> Menu:
        """The menu shown, where there is one: show() puts the first, only reset() takes them all away."""
        return self._stack[-1]

    @property
    def _cat(self) -> Catalogue:
        """The language of the menu shown: show() sets it with the first menu and nothing unsets it."""
        assert self.cat is not None
        return self.cat

    @property
    def sent(self) -> bool:
        """A command was sent and its answer (a new view) has not arrived yet."""
        return self._sent

    @property
    def depth(self) -> int:
        return len(self._stack)

    @property
    def confirming(self) -> bool:
        """The prompt asks to confirm (Enter does it, Esc goes back)."""
        return self.menu is not None and any(e.enter for e in self.menu.entries)

    @property
    def can_end_turn(self) -> bool:
        return bool(self._stack) and any(e.end_turn for e in self._stack[0].entries)

    @property
    def ranked(self) -> bool:
        """The list answers to ranks (characters)."""
        return self.menu is not None and any(e.rank is not None and e.key == str(e.rank) for e in self.menu.entries)

    @property
    def footer_state(self) -> tuple:
        """What the footer's keys depend on."""
        menu = self.menu
        if menu is None or not menu.entries or self._sent:
            return (False,)
        digits = any(e.key and e.key in DIGITS for e in menu.entries)
        return (True, self.confirming, self.ranked, self.can_end_turn, self.depth, digits)

    def key_for(self, index: int) -> str:
        """The key that chooses entry `index` of the menu shown ("" : arrows and Enter only)."""
        return self.menu.entries[index].key if self.menu is not None else ""

    @property
    def numbers(self) -> Numbering:
        """The numbers of this seat's entries (tests type keys by the same numbering)."""
        return self._numbers

    def _keyed(self, menu: Menu) -> Menu:
        if self._view is None:
            return self._numbers.keyed(menu)
        return self._numbers.keyed(menu, place_of(self._view, tuple(ident for _, ident in self._steps)))

    def _with_back(self, menu: Menu) -> Menu:
        if any(e.back for e in menu.entries):
            return menu
        back = Entry(Text("← " + self._cat.t("prompt.back"), style="dim", end=""), "", back=True)
        live = [e for e in menu.entries if not e.disabled]  # "Back" before the entries only shown
        shown = [e for e in menu.entries if e.disabled]
        return Menu(title=menu.title, hint=menu.hint, entries=[*live, back, *shown], checklist=menu.checklist)

    def _open_step(self, how: str, index: int) -> bool:
        """Open what entry `index` leads to: its sub-menu, or its confirmation."""
        e = self._shown.entries[index]
        if how == "open" and e.submenu is not None:
            menu = e.submenu
            if menu.checklist is not None:
                menu = checklist_menu(self._cat, menu.checklist, menu.title, self._chosen)
        elif how == "confirm" and e.confirm:
            title = self._stack[1].title if len(self._stack) > 1 else e.label.plain
            menu = confirm_menu(self._cat, e, title)
        else:
            return False
        self._steps.append((how, e.ident))
        self._stack.append(self._keyed(self._with_back(menu)))
        return True

    def _open(self, how: str, index: int) -> None:
        sub = self._shown.entries[index].submenu
        if how == "open" and sub is not None and sub.checklist is not None:
            self._chosen = set()
        self._open_step(how, index)
        self.highlighted = 0
        self._scroll = 0
        self._note = None
        self.invalidate()
        self.post_message(self.MenuChanged())
        self.post_message(self.Changed())

    def set_clock(self, clock: Text | None) -> None:
        """The turn timer's countdown as a first line (None: no timer); repaints only what changed."""
        old = self._clock
        if (clock.markup if clock is not None else None) == (old.markup if old is not None else None):
            return
        self._clock = clock
        self.invalidate()

    def refused(self, reason: str) -> None:
        self._sent = False
        self._plan = []
        text = self.cat.t("ui.refused", reason=reason) if self.cat else reason
        self._note = Text(text, style="bold reverse", end="")
        self.invalidate()

    # --- input -------------------------------------------------------------------
    # The prompt's own keys: their changed lines painted in one write (ui/compat/direct_paint.py)
    def action_move(self, delta: int) -> None:
        n = len(self.menu.entries) if self.menu else 0
        if n:
            with painting(self.screen):
                self.highlight((self.highlighted + delta) % n)

    def action_move_to(self, index: int) -> None:
        n = len(self.menu.entries) if self.menu else 0
        if n:
            with painting(self.screen):
                self.highlight(index % n)

    def action_select(self) -> None:
        with painting(self.screen):
            self.activate(self.highlighted)

    def highlight(self, index: int) -> None:
        if index != self.highlighted or self._note is not None:
            self.highlighted = index
            self._note = None
            self.invalidate()

    def press_key(self, key: str) -> bool:
        """A digit or `e`: choose the entry it names (True: one was chosen)."""
        if key == END_TURN:
            return self.end_turn()
        i = index_of_key(self.menu, key)
        if i is None:
            return False
        self._choose(i)
        return True

    def press_digit(self, digit: str) -> None:
        self.press_key(digit)

    def end_turn(self) -> bool:
        """`e`: end the turn, asking once when something is still possible."""
        if self._sent or not self.can_end_turn or self.confirming:
            return False
        while len(self._stack) > 1:
            self.back()
        i = next(i for i, e in enumerate(self._shown.entries) if e.end_turn)
        self._choose(i)
        return True

    def _choose(self, index: int) -> None:
        """Highlight entry `index` and do what it does, drawn once."""
        with self._one_redraw():
            self.highlight(index)
            self.activate(index)

    # A key that highlights an entry and activates it would build the menu twice: with the
    # highlight moved, then as the entry leaves it (a command sent: the same lines; a menu opened:
    # the highlight and scroll start over). The redraws within wait for the end and are made once;
    # what starts from the highlighted lines (a checklist's row marked, Back) draws them first.
    def invalidate(self, layout: bool = False) -> None:
        if self._holding and not layout:
            self._held = True
            return
        if self._held:  # a sent command's redraw that waits: this one draws its lines too
            self._drop_held()
        super().invalidate(layout)

    @contextmanager
    def _one_redraw(self) -> Iterator[None]:
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            if self._sent and self._held:
                self._hold_sent()
            else:
                self._release()

    def _release(self) -> None:
        """Make the redraw that waits now (the next state starts from its lines: its scroll)."""
        if self._held:
            self._drop_held()
            super().invalidate()

    # A key that sends a command moves the highlight to its entry, and the table's answer (a new
    # view, a refusal) redraws the prompt a moment later: the highlight's redraw waits for it, at
    # most a frame's time (`SENT_REDRAW_SECONDS`), as Textual draws what changed within a frame in
    # one. The answer's redraw starts from the lines on screen (before the key) and draws both;
    # without an answer by then (a plan's next command sent instead) the highlight is drawn alone.
    def _hold_sent(self) -> None:
        if self._held_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a panel outside an app): nothing to wait with
            loop = None
        if loop is None or not self.sent_redraw_seconds:
            self._release()
            return
        self._held_timer = loop.call_later(self.sent_redraw_seconds, self.call_later, self._draw_held)

    def _drop_held(self) -> None:
        self._held = False
        if self._held_timer is not None:
            self._held_timer.cancel()
            self._held_timer = None

    def _draw_held(self) -> None:
        if not self._held:
            return
        if self.is_mounted:
            with painting(self.screen):
                self._release()
        else:
            self._release()

    def activate(self, index: int) -> None:
        menu = self.menu
        if menu is None or self._sent or not 0 <= index < len(menu.entries):
            return
        e = menu.entries[index]
        if e.disabled:  # shown for what it says; nothing to do
            return
        if e.back:
            self._release()
            self.back()
        elif e.toggle is not None:
            self._release()
            checklist = menu.checklist
            assert checklist is not None  # only a checklist's rows toggle (checklist_menu)
            self._chosen ^= {e.toggle}
            self._stack[-1] = self._keyed(
                self._with_back(checklist_menu(self._cat, checklist, menu.title, self._chosen))
            )
            self.highlighted = min(index, len(self._shown.entries) - 1)
            self.invalidate()
        elif e.plan:
            self._plan = list(e.plan[1:])
            self._send(e.plan[0])
        elif e.submenu is not None:
            self._open("open", index)
        elif e.confirm:
            self._open("confirm", index)
        elif e.command is not None:
            self._send(e.command)

    def _send(self, command: Any) -> None:
        self._sent = True
        self.post_message(self.Chosen(command))

    def back(self) -> bool:
        if len(self._stack) <= 1:
            return False
        self._stack.pop()
        _how, ident = self._steps.pop()
        self.highlighted = next((i for i, e in enumerate(self._shown.entries) if e.ident == ident), 0)
        self._note = None
        self.invalidate()
        self.post_message(self.MenuChanged())
        self.post_message(self.Changed())
        return True

    async def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self._row_map.get(offset.y)
        for x1, x2, i in self._col_map.get(offset.y, ()):
            if x1 <= offset.x < x2:
                index = i
        if index is not None:
            event.stop()
            self._choose(index)

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_move(1)

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_move(-1)
