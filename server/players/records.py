"""What the players database answers: typed records (msgspec Structs) for the server, the CLI
(`--json` prints them as they are) and, converted field by field, the UI's screens."""

from __future__ import annotations

from datetime import datetime

from msgspec import Struct, field


class Player(Struct, frozen=True, kw_only=True):
    id: int
    name: str | None  # None until a person claims a name
    kind: str  # "person" or "bot"
    bot_kind: str | None = None
    created_at: datetime


class KeyInfo(Struct, frozen=True, kw_only=True):
    fingerprint: str
    label: str | None
    added_at: datetime
    last_used_at: datetime | None


class RecordResult(Struct, frozen=True, kw_only=True):
    game_id: int
    rated: bool
    unrated_reason: str | None
    new: bool  # False: this game (its uid) was already recorded


class FamilyRating(Struct, frozen=True, kw_only=True):
    family: str
    rating: float  # openskill's ordinal, shown
    mu: float
    sigma: float
    games: int  # rated games in the family
    wins: int
    place: int  # on the family's leaderboard
    of: int  # players on it


class RatingPoint(Struct, frozen=True, kw_only=True):
    game_id: int
    at: datetime
    rating: float


class FamilyStats(Struct, frozen=True, kw_only=True):
    family: str
    games: int  # all finished games, rated or not
    wins: int
    average_score: float


class CharacterCount(Struct, frozen=True, kw_only=True):
    character: str
    times: int


class Profile(Struct, frozen=True, kw_only=True):
    player: Player
    games: int
    wins: int
    average_score: float
    ratings: list[FamilyRating] = field(default_factory=list)
    history: dict[str, list[RatingPoint]] = field(default_factory=dict)  # family -> oldest first
    by_family: list[FamilyStats] = field(default_factory=list)
    favourites: list[CharacterCount] = field(default_factory=list)  # most picked first


class LeaderboardRow(Struct, frozen=True, kw_only=True):
    place: int
    player_id: int
    name: str
    kind: str  # "person" or "bot"
    rating: float
    games: int
    wins: int


class Leaderboard(Struct, frozen=True, kw_only=True):
    family: str
    rows: list[LeaderboardRow]
    players: int  # rated players in the family (the rows are the top ones)
    you: LeaderboardRow | None = None  # the asking player's row, when they are rated


class SeatResult(Struct, frozen=True, kw_only=True):
    seat: int
    name: str
    player_id: int | None
    bot: str | None
    score: int
    place: int
    winner: bool


class GameSummary(Struct, frozen=True, kw_only=True):
    id: int
    family: str
    rules: str
    players: int
    rounds: int
    rated: bool
    unrated_reason: str | None
    source: str
    finished_at: datetime
    seats: list[SeatResult]
    you: int | None = None  # the asking player's seat
