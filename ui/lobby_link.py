"""The boundary between the lobby screen and whoever keeps the index of tables.

Like `ui.link.TableLink` for the game: the lobby screen (`ui/screens/lobby.py`)
reads plain snapshots (`LobbySnapshot`) and calls a `LobbyLink`; it never sees
a table, a session or a game state. The server's implementation is
`server.app.PlayerSession`; a change arrives as a `LobbyUpdate` message.

Every call returns at once: None when done (or accepted), or one sentence
saying why not (shown to the player).
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from textual.message import Message


@dataclass(frozen=True)
class TableRow:
    id: str
    name: str
    rules: str  # the rule set's title
    lineup: str  # "first game", a preset's name, "random", "custom", or the rule set's own
    taken: int  # seats filled by people or bots
    seats: int
    state: str  # "waiting" / "playing" / "over"
    private: bool = False
    yours: bool = False  # you have a seat there
    timer: str = "off"
    spectators: int = 0


@dataclass(frozen=True)
class RoomSeat:
    index: int
    name: str
    kind: str  # "open", "player", "bot"
    away: bool = False
    you: bool = False


@dataclass(frozen=True)
class Room:
    """The table you sit at, before it starts (or the one you may return to)."""

    table: TableRow
    seats: list[RoomSeat]
    creator: bool
    can_start: bool
    code: str | None = None  # a private table's join code (shown to the people seated)
    spectator_chat: bool = False
    saved: bool = False  # a loaded saved game: it waits for its own players (or bots where the creator says)


# Snapshots are numbered as they are made (in the process that shows them): a screen that was
# given a newer one ignores an older one still queued for it (`LobbyScreen.update`).
_snapshot_numbers = itertools.count(1)


@dataclass(frozen=True)
class LobbySnapshot:
    you: str  # your name
    identity: str  # "key SHA256:abcd…" or "guest"
    guest: bool
    tables: list[TableRow] = field(default_factory=list)
    room: Room | None = None
    playing: str | None = None  # the id of a running table where you have a seat
    # The players database: "" (none on this server), "guest", "pending" (your account is being
    # looked up) or "player" (profile, games, name and keys are yours to see).
    accounts: str = ""
    # The order it was made in: a LobbyUpdate computed before a change (the lobby's broadcast) can be
    # handled after a snapshot read at once since (leaving a table, an action's answer).
    seq: int = field(default_factory=_snapshot_numbers.__next__, compare=False)


@dataclass(frozen=True)
class RuleChoice:
    name: str
    title: str
    min_players: int
    max_players: int
    presets: bool  # the 2016 line-ups (presets, random, custom) apply
    variants: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LobbyOptions:
    """What a new table may be: for the create form."""

    rules: list[RuleChoice]
    presets: list[tuple[str, str, str]]  # (name, English, Spanish)
    bot_kinds: list[str]
    default_bot: str
    timers: list[str]
    characters_by_rank: dict[int, list[str]]  # the 2016 characters, for a custom line-up
    uniques: list[str]  # the 2016 unique districts
    timer_seconds: dict[str, float | None] = field(default_factory=dict)  # a turn timer's seconds (None: off)


@dataclass
class TableSpec:
    name: str = ""
    players: int = 4
    rules: str = "2016"
    lineup: str = "first-game"  # a preset, "random" or "custom"
    characters: list[str] | None = None  # custom: one per rank 1-8 (+ an optional rank 9)
    uniques: list[str] | None = None  # custom: 14 unique districts
    variants: list[str] = field(default_factory=list)
    bots: int = 0
    bot_kind: str = ""
    timer: str = "off"
    private: bool = False
    spectator_chat: bool = False


class LobbyUpdate(Message):
    """Something in the lobby changed: a fresh snapshot for this player."""

    def __init__(self, snapshot: LobbySnapshot, notice: str | None = None) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.notice = notice


@runtime_checkable
class LobbyLink(Protocol):
    def snapshot(self) -> LobbySnapshot: ...

    def options(self) -> LobbyOptions: ...

    def rename(self, name: str) -> str | None: ...

    def create(self, spec: TableSpec) -> str | None: ...

    def join(self, table_id: str, seat: int | None = None) -> str | None: ...

    def join_code(self, code: str) -> str | None: ...

    def watch(self, table_id: str) -> str | None: ...

    def back_to_table(self) -> str | None: ...

    def saved_games(self) -> list[str]: ...

    def load_saved(self, name: str) -> str | None: ...

    def leave(self) -> str | None: ...

    def start(self) -> str | None: ...

    def add_bot(self, seat: int | None = None) -> str | None: ...

    def remove(self, seat: int) -> str | None: ...

    # at the table (the table menu)
    def table_menu(self) -> TableMenuInfo: ...

    def replace_with_bot(self, seat: int) -> str | None: ...

    def set_spectator_chat(self, allowed: bool) -> str | None: ...

    def save_as(self, name: str) -> Awaitable[str | None]: ...

    def to_lobby(self) -> None: ...


@dataclass(frozen=True)
class TableMenuInfo:
    creator: bool
    spectator: bool
    absent: list[tuple[int, str]]  # seats whose player is away: (seat, name)
    spectator_chat: bool
    saving: bool  # the game is saved (a file can be written)
    profiles: list[tuple[int, str]] = field(default_factory=list)  # (seat, name): profiles one may open
