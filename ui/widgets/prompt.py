"""The prompt: the decision the game waits for, as a list of exactly the legal choices.

Built from `ui.prompt_model.build_menu(view)`: choices are numbered (keys 1-9
and 0), reachable with the arrows and Enter, and clickable. Groups open a list
of their legal targets; abilities show what they will do and ask to confirm;
Esc (or the last line, "Back") goes up a level. While another seat decides,
the title says who we wait for.
"""
from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text
from textual import on
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..i18n import Catalogue
from ..prompt_model import Entry, Menu, build_menu, confirm_menu

_enc = msgspec.msgpack.Encoder()
DIGITS = "1234567890"


class PromptOptions(OptionList):
    """The list of choices (Textual's OptionList: one widget, keyboard and mouse)."""


class PromptPanel(Vertical):
    class Chosen(Message):
        """The player chose a command to send to the table."""

        def __init__(self, command: Any) -> None:
            super().__init__()
            self.command = command

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.cat: Catalogue | None = None
        self._key: bytes | None = None
        self._legal_key: bytes | None = None
        self._stack: list[Menu] = []
        self._path: list[int] = []
        self._sent = False
        self._view: Any = None
        self._shown: tuple | None = None

    def compose(self):
        yield Static(id="prompt-title")
        yield PromptOptions(id="prompt-options")
        yield Static(id="prompt-detail")

    # --- state from the view -----------------------------------------------------
    def show(self, view: Any, cat: Catalogue) -> bool:
        key = _enc.encode((cat.lang, view.seq, view.legal, view.pending, view.turn))
        if key == self._key and cat is self.cat:
            return False
        self._key = key
        self.cat = cat
        self._view = view
        legal_key = _enc.encode((cat.lang, view.legal, view.pending))
        path = self._path if legal_key == self._legal_key else []
        self._legal_key = legal_key
        self._sent = False
        self._stack = [build_menu(view, cat)]
        # keep the player's place in the menus when their choices did not change
        self._path = []
        for i in path:
            menu = self._stack[-1]
            if not 0 <= i < len(menu.entries) or menu.entries[i].submenu is None:
                break
            self._stack.append(self._with_back(menu.entries[i].submenu))
            self._path.append(i)
        self._render_menu()
        return True

    @property
    def menu(self) -> Menu | None:
        return self._stack[-1] if self._stack else None

    @property
    def sent(self) -> bool:
        """A command was sent and its answer (a new view) has not arrived yet."""
        return self._sent

    @property
    def depth(self) -> int:
        return len(self._stack)

    def _with_back(self, menu: Menu) -> Menu:
        if menu.entries and menu.entries[-1].back:
            return menu
        back = Entry(Text("← " + self.cat.t("prompt.back"), style="dim", end=""), "", back=True)
        return Menu(title=menu.title, hint=menu.hint, entries=[*menu.entries, back])

    def _render_menu(self, highlight: int = 0) -> None:
        menu = self._stack[-1]
        title = Text(menu.title, style="bold", end="")
        if menu.hint:
            title.append("\n" + menu.hint, style="italic")
        self._set_static("#prompt-title", title)
        options = self.query_one(PromptOptions)
        shown = (id(menu), len(menu.entries))
        options.clear_options()
        opts = []
        for i, e in enumerate(menu.entries):
            label = Text(end="")
            label.append(f"{DIGITS[i]} " if i < len(DIGITS) else "  ", style="bold")
            label.append_text(e.label)
            if e.submenu is not None:
                label.append(" ›", style="bold")
            opts.append(Option(label))
        options.add_options(opts)
        self._shown = shown
        if opts:
            options.highlighted = min(highlight, len(opts) - 1)
        self._show_detail(options.highlighted)

    def _set_static(self, selector: str, content: Text) -> None:
        self.query_one(selector, Static).update(content, layout=False)

    def _show_detail(self, index: int | None) -> None:
        menu = self.menu
        text = ""
        if menu is not None and index is not None and 0 <= index < len(menu.entries):
            text = menu.entries[index].detail
        self._set_static("#prompt-detail", Text(text, style="italic", end=""))

    def refused(self, reason: str) -> None:
        self._sent = False
        self._set_static("#prompt-detail", Text(self.cat.t("ui.refused", reason=reason) if self.cat else reason,
                                                style="bold reverse", end=""))

    # --- input -------------------------------------------------------------------
    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_detail(event.option_index)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.activate(event.option_index)

    def press_digit(self, digit: str) -> None:
        i = DIGITS.find(digit)
        if self.menu is not None and 0 <= i < len(self.menu.entries):
            self.query_one(PromptOptions).highlighted = i
            self.activate(i)

    def activate(self, index: int) -> None:
        menu = self.menu
        if menu is None or self._sent or not 0 <= index < len(menu.entries):
            return
        e = menu.entries[index]
        if e.back:
            self.back()
        elif e.submenu is not None:
            self._stack.append(self._with_back(e.submenu))
            self._path.append(index)
            self._render_menu()
        elif e.confirm:
            self._stack.append(self._with_back(confirm_menu(self.cat, e)))
            self._path.append(-1)
            self._render_menu()
        elif e.command is not None:
            self._sent = True
            self.post_message(self.Chosen(e.command))

    def back(self) -> bool:
        if len(self._stack) <= 1:
            return False
        self._stack.pop()
        came_from = self._path.pop() if self._path else 0
        self._render_menu(highlight=max(came_from, 0))
        return True
