"""Ratings: openskill per player and rule family, and each player's rating after every rated game.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "family", name="pk_ratings"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_ratings_player_id_players", ondelete="CASCADE"),
    )
    op.create_index("ix_ratings_family_ordinal", "ratings", ["family", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("at", TS, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="pk_rating_history"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_rating_history_game_id_games", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_rating_history_player_id_players", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_rating_history_player_family_at", "rating_history", ["player_id", "family", "at"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
