"""The table chat: lines received, and an input line that does not blink.

The input is entered with a named key (`c`), not with Tab; Enter sends the line
and returns to the game, Esc returns without sending (the text stays for later):
the screen's bindings (ui/screens/table_keys.py), which act before the next key
is routed. Its placeholder says which key enters it, and once in, how to leave.
"""

from __future__ import annotations

from textual import events, on
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from .log_view import LogView, Row


class ChatPanel(Vertical):
    class Said(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """The player is done with the input (sent a line, or pressed Enter on nothing)."""

    def __init__(self, placeholder: str = "", typing: str = "", **kw) -> None:
        super().__init__(**kw)
        self._placeholder = placeholder  # while not typing: the key that enters the chat
        self._typing = typing or placeholder  # while typing: Enter sends, Esc goes back

    def compose(self):
        yield LogView(max_lines=200, id="chat-lines")
        # No blinking cursor: a blinking Input repaints twice a second forever.
        yield Input(placeholder=self._placeholder, id="chat-input", max_length=300)

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False

    def add(self, author: str, text: str) -> None:
        self.query_one(LogView).add_rows([Row(text, tag=f"{author}:", tag_style="bold")])

    def add_row(self, row: Row) -> None:
        """A line as ui/notices.py draws it (a person's line, or the table's notice)."""
        self.query_one(LogView).add_rows([row])

    def clear(self) -> None:
        """Forget the lines and the unsent text (the panel is reused for another table)."""
        self.query_one(LogView).set_rows([])
        self.query_one(Input).value = ""

    def set_placeholder(self, text: str, typing: str = "") -> None:
        self._placeholder = text
        self._typing = typing or text
        self._show_placeholder()

    @property
    def typing(self) -> bool:
        return self.query_one(Input).has_focus

    def _show_placeholder(self) -> None:
        inp = self.query_one(Input)
        inp.placeholder = self._typing if inp.has_focus else self._placeholder

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_placeholder()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._show_placeholder()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.send()

    def send(self) -> None:
        """The line typed is said (if any) and the input emptied; `Closed` follows."""
        inp = self.query_one(Input)
        text = inp.value.strip()
        inp.value = ""
        if text:
            self.post_message(self.Said(text))
        self.post_message(self.Closed())
