"""The boundary between the game screen and whoever runs the table.

The app never reads game state: it receives `ViewUpdate` messages (a seat's
`engine.View` and the events redacted for that seat) and sends commands
through a `TableLink`. The same app is driven by `ui.local_game.LocalTable`
(`citadels play`) and, over SSH, by the server's table actor (whose own typed
messages the server's session turns into these).

Besides views: `ChatLine` (a person's line), `TableNotice` (the table speaks:
a catalogue key, never a chat line, rendered in a style no chat line has),
`SeatStates` (who plays each seat now: away with the time before a bot takes
over, a bot playing for someone; how many watch). Times are deadlines on
`time.monotonic()`.
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
    that seat) that led to it. Post with `app.post_message(ViewUpdate(v, ev))`.

    `by_bot`: per event, whether a bot chose its command in a person's stead (empty: none did).
    `turn_deadline`: when this seat's turn timer runs out (time.monotonic()), None without one."""

    def __init__(
        self,
        view: Any,
        events: list[Any] | None = None,
        by_bot: list[bool] | None = None,
        turn_deadline: float | None = None,
    ) -> None:
        super().__init__()
        self.view = view
        self.events = list(events or [])
        self.by_bot = list(by_bot or [])
        self.turn_deadline = turn_deadline


class CommandRefused(Message):
    """The table refused a command (engine.IllegalCommand): `reason` is for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class ChatLine(Message):
    """A person's chat line at this table (`watching`: the author is a spectator)."""

    def __init__(self, author: str, text: str, watching: bool = False, past: bool = False) -> None:
        super().__init__()
        self.author = author
        self.text = text
        self.watching = watching
        self.past = past  # said before this session came: shown, not counted as unread


class TableNotice(Message):
    """The table speaks: `notice.<key>` of the catalogue with `fields`, in the log or the chat."""

    def __init__(self, key: str, fields: dict[str, Any] | None = None, where: str = "log") -> None:
        super().__init__()
        self.key = key
        self.fields = dict(fields or {})
        self.where = where


@dataclass(frozen=True)
class SeatMark:
    """Who plays a seat now: "here", "away" (a bot plays for them at `bot_at`, a time.monotonic()
    deadline, None when no countdown runs), "bot_for" (a bot plays for them until they return),
    "replaced" (a bot plays the seat for good) or "bot" (a bot's own seat)."""

    state: str
    bot_at: float | None = None


class SeatStates(Message):
    """Every seat's `SeatMark` and the number of spectators."""

    def __init__(self, seats: list[SeatMark], watchers: int) -> None:
        super().__init__()
        self.seats = list(seats)
        self.watchers = watchers


@dataclass
class UiOptions:
    """Per-player options of the game screen."""

    lang: str = "en"  # "en" or "es"; F2 switches at any time
    name: str = ""  # the player's name (shown in the title)
    show_chat: bool = False  # the chat panel (the SSH server turns it on)
    chat_send: Callable[[str], None] | None = None  # called with each line the player types
    show_scores_at_end: bool = True  # open the score table when the game ends
    alerts: bool = True  # BEL and the terminal title when a decision becomes yours (the table menu switches)
    palette: str = "printed"  # card colours: "printed" or "colour-blind" (F5 switches; ui/cards.py)
