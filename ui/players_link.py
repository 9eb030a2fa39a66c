"""The boundary between the players' screens and whoever keeps the players database.

Like `ui.lobby_link` for the lobby: the screens (profile, leaderboard, "my games", the
account's name and keys) and the app that opens them (`ui.players_nav`) call a
`PlayersLink` and read plain data (`ui.players_data`, `AccountData` below); they never
see a database. The server's implementation is `server.players.session_link.SessionPlayers`.

Every call is awaited (the database answers off the server's event loop) and returns the
data asked for, or raises `PlayersError` with one sentence for the player (a name taken,
a wrong code, the database away).

A screen asks the app to open another players' screen by posting `PlayersRequested`
(the lobby's entries, the table menu's "profile of ..." entries).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from textual.message import Message

from engine.savefile import Save

from .players_data import GamesData, LeaderboardData, ProfileData


class PlayersError(Exception):
    """A refused or failed request; the message is one sentence for the player."""


@dataclass(frozen=True)
class KeyData:
    fingerprint: str
    label: str | None  # the SSH user name it first connected with
    added_at: datetime
    last_used_at: datetime | None
    this: bool = False  # the key of this session


@dataclass(frozen=True)
class AccountData:
    player_id: int
    name: str  # as others see it
    claimed: bool  # the name is this player's alone
    keys: list[KeyData] = field(default_factory=list)


class PlayersRequested(Message):
    """Open a players' screen: "profile" (yours), "leaderboard", "games" (yours), "account" (your
    name and keys), or "seat" (the profile of whoever sits at `seat` of your table)."""

    def __init__(self, what: str, seat: int | None = None) -> None:
        super().__init__()
        self.what = what
        self.seat = seat


@runtime_checkable
class PlayersLink(Protocol):
    async def my_profile(self) -> ProfileData: ...

    async def profile(self, player_id: int) -> ProfileData: ...

    async def seat_profile(self, seat: int) -> ProfileData: ...

    async def leaderboards(self) -> dict[str, LeaderboardData]: ...

    async def my_games(self) -> GamesData: ...

    async def replay(self, game_id: int) -> Save: ...

    async def account(self) -> AccountData: ...

    async def claim_name(self, name: str) -> str: ...

    async def new_key_code(self) -> str: ...

    async def add_key(self, code: str) -> str: ...

    async def remove_key(self, fingerprint: str) -> None: ...
