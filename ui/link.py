"""The boundary between the game screen and whoever runs the table.

The app never reads game state: it receives `ViewUpdate` messages (a seat's
`engine.View` and the events redacted for that seat) and sends commands
through a `TableLink`. The same app is driven by `ui.local_game.LocalTable`
(`citadels play`) and, over SSH, by the server's table actor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from textual.message import Message


@runtime_checkable
class TableLink(Protocol):
    """What the app needs from a table: a way to send this seat's commands.

    `send` must not block: queue the command and return. The table answers
    later with a `ViewUpdate` (or a `CommandRefused`) posted to the app.
    Optional methods, called when present:
      - `attach(app)`: once, when the app is mounted (start posting views to it);
      - `detach(app)`: once, when the app shuts down.
    """

    def send(self, command: Any) -> None: ...


class ViewUpdate(Message):
    """A new view for this app's seat, with the events (already redacted for
    that seat) that led to it. Post with `app.post_message(ViewUpdate(v, ev))`."""

    def __init__(self, view: Any, events: list[Any] | None = None) -> None:
        super().__init__()
        self.view = view
        self.events = list(events or [])


class CommandRefused(Message):
    """The table refused a command (engine.IllegalCommand): `reason` is for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class ChatLine(Message):
    """A chat line to show at this table."""

    def __init__(self, author: str, text: str) -> None:
        super().__init__()
        self.author = author
        self.text = text


@dataclass
class UiOptions:
    """Per-player options of the game screen."""

    lang: str = "en"  # "en" or "es"; F2 switches at any time
    name: str = ""  # the player's name (shown in the title)
    show_chat: bool = False  # the chat panel (the SSH server turns it on)
    chat_send: Callable[[str], None] | None = None  # called with each line the player types
    show_scores_at_end: bool = True  # open the score table when the game ends
    palette: str = "printed"  # card colours: "printed" or "colour-blind" (F5 switches; ui/cards.py)
