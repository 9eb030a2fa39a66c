"""What the players' screens show: plain data, filled by whoever keeps the players database.

Like `ui.lobby_link` for the lobby: the profile, leaderboard and "my games" screens
(`ui/screens/profile.py`, `leaderboard.py`, `my_games.py`) read only these and never
see a database. The server fills them from `server.players` records
(`server/players/screens_data.py`); tests fill them by hand. A screen asks for more
(another player's profile, a replay) by posting its own message; the app answers.

Families are the rule families rated apart: "2016", "classic", "2000" (2000 and Dark City).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

FAMILIES = ("2016", "classic", "2000")


@dataclass(frozen=True)
class FamilyRatingData:
    family: str
    rating: float  # the shown rating (openskill's ordinal)
    games: int  # rated games
    wins: int
    place: int
    of: int  # rated players in the family
    history: list[float] = field(default_factory=list)  # the rating after each recent game, oldest first


@dataclass(frozen=True)
class ProfileData:
    player_id: int
    name: str
    bot: bool  # a bot level's rated player ("hard"...)
    games: int  # finished games, rated or not
    wins: int
    average_score: float
    ratings: list[FamilyRatingData] = field(default_factory=list)  # the families this player is rated in
    favourites: list[tuple[str, int]] = field(default_factory=list)  # (character, times picked), most first
    you: bool = False  # the player looking at it


@dataclass(frozen=True)
class LeaderRowData:
    place: int
    player_id: int
    name: str
    bot: bool
    rating: float
    games: int
    wins: int
    you: bool = False


@dataclass(frozen=True)
class LeaderboardData:
    family: str
    rows: list[LeaderRowData]
    players: int  # rated players in the family (rows are the top ones)
    you: LeaderRowData | None = None  # your row, shown under the top rows when you are not among them


@dataclass(frozen=True)
class SeatData:
    name: str
    score: int
    place: int
    winner: bool
    bot: bool = False
    you: bool = False


@dataclass(frozen=True)
class GameRowData:
    game_id: int
    family: str
    finished_at: datetime
    rounds: int
    rated: bool
    seats: list[SeatData]  # in seat order

    @property
    def yours(self) -> SeatData | None:
        return next((s for s in self.seats if s.you), None)


@dataclass(frozen=True)
class GamesData:
    rows: list[GameRowData]  # newest first
    more: bool = False  # older games exist beyond these
