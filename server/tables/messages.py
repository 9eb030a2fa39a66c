"""Every message between the sessions and a table actor, as msgspec Structs in two tagged unions.

`ToTable`: what sessions and the lobby put in a table's mailbox (`Table.queue`); the actor handles
them one at a time. `ToSession`: what the actor posts to a session (`Client.post`); the session
(server/app.py) turns each into its app's own messages. The actor builds nothing else for a
session: no UI object, no sentence in a language. Its words for the table are `Notice`s, a
message type of their own (a catalogue key and its fields: `notice.<key>` in ui/i18n), so that no
chat line, whatever its author's name, can ever be taken for one.

In process the mailbox messages carry object references (`client`, the session; `reply`, a
future): a table behind another transport would carry a session's address instead. Times are
durations in seconds ("a bot in 42 s"), never clock readings: the receiver turns them into
deadlines on its own clock.
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct, field

from engine import Command, Event, GameConfig, View

# --- sessions and the lobby -> the actor --------------------------------------------------------------


class Play(Struct, tag="play"):
    """A seated session's command (the actor checks the seat and the rules)."""

    client: Any  # the session (server.tables.seats.Client)
    command: Command


class Attach(Struct, tag="attach"):
    """A session sits at `seat` (None: watches); it gets the current view."""

    client: Any
    seat: int | None


class Detach(Struct, tag="detach"):
    """A session leaves the table (disconnected, or back to the lobby)."""

    client: Any


class SeatToBot(Struct, tag="seat_to_bot"):
    """A bot of `kind` plays `seat` from now on (the creator replaced an absent player)."""

    seat: int
    kind: str


class Begin(Struct, tag="begin"):
    """Start the game (the lobby checked that every seat is filled)."""

    config: GameConfig


class Export(Struct, tag="export"):
    """Save the game to `path`; `reply` (an asyncio.Future) gets None or a one-line error."""

    path: str
    reply: Any


class Tick(Struct, tag="tick"):
    """The actor's own wake-up: a bot move, an idle wait or a turn timer is due."""


ToTable = Play | Attach | Detach | SeatToBot | Begin | Export | Tick


# --- the actor -> sessions ------------------------------------------------------------------------------


class SeatView(Struct, tag="view"):
    """A new view for the session's seat (None: a spectator's), with the events that led to it,
    already redacted for that seat."""

    view: View
    events: list[Event]
    by_bot: list[bool] = field(default_factory=list)  # per event: a bot chose its command for a person
    turn_left: float | None = None  # seconds left on the turn timer for this seat's decision


class Refused(Struct, tag="refused"):
    """The table refused the session's command; `reason` is for the player."""

    reason: str


class Chat(Struct, tag="chat"):
    """A line a person wrote at the table."""

    author: str
    text: str
    watching: bool = False  # the author is a spectator
    past: bool = False  # written before this session came (the table's last lines, sent on arrival)


class Notice(Struct, tag="notice"):
    """The table speaks: `notice.<key>` of the catalogue with `fields` (names, seconds...).
    `where`: the game log (what happens at the table) or the chat (answers to chatting)."""

    key: str
    fields: dict[str, str | int | float] = field(default_factory=dict)
    where: Literal["log", "chat"] = "log"


class Toast(Struct, tag="toast"):
    """A notification the session shows on top of its screen (saving failed, works again)."""

    text: str = ""
    error: bool = False
    key: str = ""  # notice.<key> of the session's catalogue, with `fields` (else `text` as given)
    fields: dict[str, str | int | float] = field(default_factory=dict)


class Displaced(Struct, tag="displaced"):
    """The session lost its seat (a newer connection of its player, or a bot); back to the lobby.
    `key`: a `lobby.<key>` sentence of the catalogue, said in the player's language; `text`: a
    sentence as given (a host's reason for closing the table)."""

    text: str = ""
    key: str = ""


SeatState = Literal["here", "away", "bot_for", "replaced", "bot"]


class SeatPresence(Struct):
    """Who plays a seat now.

    here: its person; away: its person left, a bot plays for them in `bot_in` seconds unless they
    return; bot_for: a bot plays for its person until they return; replaced: a bot plays the
    seat for good (a guest who left, a player the creator replaced); bot: a bot's own seat."""

    state: SeatState
    bot_in: float | None = None


class Presence(Struct, tag="presence"):
    """Every seat's state and the number of spectators (sent when any of it changes)."""

    seats: list[SeatPresence]
    watchers: int


ToSession = SeatView | Refused | Chat | Notice | Toast | Displaced | Presence
