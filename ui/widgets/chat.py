"""The table chat: lines received, and an input line that does not blink."""

from __future__ import annotations

from textual import on
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from .log_view import LogView, Row


class ChatPanel(Vertical):
    class Said(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, placeholder: str = "", **kw) -> None:
        super().__init__(**kw)
        self._placeholder = placeholder

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

    def set_placeholder(self, text: str) -> None:
        self.query_one(Input).placeholder = text

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))
