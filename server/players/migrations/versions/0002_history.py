"""History: finished games, their command logs, seats and the characters each seat played.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("uid", sa.String(100), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("rules", sa.String(40), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("rounds", sa.SmallInteger(), nullable=False),
        sa.Column("commands", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("unrated_reason", sa.String(200), nullable=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("started_at", TS, nullable=False),
        sa.Column("finished_at", TS, nullable=False),
        sa.Column("recorded_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("uid", name="uq_games_uid"),
    )
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.create_table(
        "game_logs",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("format", sa.SmallInteger(), nullable=False),
        sa.Column("log", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_logs"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_logs_game_id_games", ondelete="CASCADE"),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("bot_share", sa.Float(), nullable=False),
        sa.Column("score", sa.SmallInteger(), nullable=False),
        sa.Column("place", sa.SmallInteger(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("finished_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_seats"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_seats_game_id_games", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_game_seats_player_id_players", ondelete="SET NULL"
        ),
    )
    op.create_index("ix_game_seats_player_finished", "game_seats", ["player_id", "finished_at"])
    op.create_table(
        "seat_characters",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("character", sa.String(24), nullable=False),
        sa.Column("times", sa.SmallInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", "character", name="pk_seat_characters"),
        sa.ForeignKeyConstraint(
            ["game_id", "seat"],
            ["game_seats.game_id", "game_seats.seat"],
            name="fk_seat_characters_game_id_seat_game_seats",
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    op.drop_table("seat_characters")
    op.drop_table("game_seats")
    op.drop_table("game_logs")
    op.drop_table("games")
