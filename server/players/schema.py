"""The players database: one schema for SQLite and PostgreSQL (SQLAlchemy Core tables).

The migrations (`server/players/migrations/versions/`) build exactly these tables; a test
compares a migrated database with this metadata, so the two cannot drift apart.

- players: people (kind "person") and, when the host rates bots, one player per bot level
  (kind "bot", `bot_kind` "hard"...). A person's name is claimed once; `name_folded` (the
  name case-folded) is unique, so "Ana" and "ANA" cannot both exist.
- player_keys: SSH key fingerprints, the credentials; several per player.
- key_codes: one-time codes to add a key to a player (only a hash is stored).
- games: finished games with their settings; game_logs: each one's full command log;
  game_seats: who sat where, their score and place; seat_characters: the characters each
  seat played (for "favourite characters").
- ratings: each player's openskill rating per rule family; rating_history: after each rated game.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
)
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING)

FAMILIES = ("2016", "classic", "2000")  # rule families rated apart: engine RuleSet.edition
NAME_MAX = 20  # characters of a player's name (as the lobby's)


class UtcDateTime(TypeDecorator):
    """A UTC instant: timestamptz on PostgreSQL, naive UTC text on SQLite; always aware in Python."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _player_fk(**kw: Any) -> ForeignKey:
    return ForeignKey("players.id", ondelete="CASCADE", **kw)


players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME_MAX * 2), nullable=True),  # None until a person claims one
    Column("name_folded", String(NAME_MAX * 4), nullable=True, unique=True),
    Column("kind", String(8), nullable=False),  # "person" or "bot"
    Column("bot_kind", String(16), nullable=True, unique=True),  # a bot player: its level
    Column("created_at", UtcDateTime, nullable=False),
    Column("last_seen_at", UtcDateTime, nullable=True),
)

player_keys = Table(
    "player_keys",
    metadata,
    Column("fingerprint", String(200), primary_key=True),  # "SHA256:..."
    Column("player_id", Integer, _player_fk(), nullable=False, index=True),
    Column("label", String(64), nullable=True),  # e.g. the key type
    Column("added_at", UtcDateTime, nullable=False),
    Column("last_used_at", UtcDateTime, nullable=True),
)

key_codes = Table(
    "key_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),  # sha256 hex of the code
    Column("player_id", Integer, _player_fk(), nullable=False, index=True),
    Column("expires_at", UtcDateTime, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # "game 42": replays by id
    Column("uid", String(100), nullable=False, unique=True),  # the recorder's id: a record is written once
    Column("family", String(8), nullable=False),
    Column("rules", String(40), nullable=False),
    Column("settings", Text, nullable=False),  # the engine's GameConfig as JSON
    Column("players", SmallInteger, nullable=False),
    Column("rounds", SmallInteger, nullable=False),
    Column("commands", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("unrated_reason", String(200), nullable=True),
    Column("source", String(16), nullable=False),  # "server" or "sim"
    Column("started_at", UtcDateTime, nullable=False),
    Column("finished_at", UtcDateTime, nullable=False, index=True),
    Column("recorded_at", UtcDateTime, nullable=False),
)

game_logs = Table(
    "game_logs",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("format", SmallInteger, nullable=False),  # 1: zlib-compressed MessagePack list of commands
    Column("log", LargeBinary, nullable=False),
)

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="SET NULL"), nullable=True),  # None: a guest
    Column("name", String(NAME_MAX * 2), nullable=False),  # as shown at the table
    Column("bot", String(16), nullable=True),  # a bot sat here from the start: its level
    Column("bot_share", Float, nullable=False),  # the share of this seat's decisions a bot made
    Column("score", SmallInteger, nullable=False),
    Column("place", SmallInteger, nullable=False),  # 1: won; equal scores share a place
    Column("winner", Boolean, nullable=False),
    # A copy of games.finished_at: a player's games newest first from one index.
    Column("finished_at", UtcDateTime, nullable=False),
    Index("ix_game_seats_player_finished", "player_id", "finished_at"),
)

seat_characters = Table(
    "seat_characters",
    metadata,
    Column("game_id", Integer, primary_key=True),
    Column("seat", SmallInteger, primary_key=True),
    Column("character", String(24), primary_key=True),
    Column("times", SmallInteger, nullable=False),
    ForeignKeyConstraint(["game_id", "seat"], ["game_seats.game_id", "game_seats.seat"], ondelete="CASCADE"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, _player_fk(), primary_key=True),
    Column("family", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),  # mu - 3 sigma: what is shown and ranked
    Column("games", Integer, nullable=False),  # rated games in this family
    Column("wins", Integer, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Index("ix_ratings_family_ordinal", "family", "ordinal"),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, _player_fk(), primary_key=True),
    Column("family", String(8), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("at", UtcDateTime, nullable=False),  # the game's end
    Index("ix_rating_history_player_family_at", "player_id", "family", "at"),
)
