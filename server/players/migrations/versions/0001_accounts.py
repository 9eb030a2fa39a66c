"""Accounts: players, their SSH keys, one-time codes to add a key.

Revision ID: 0001
Revises:
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("name_folded", sa.String(80), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot_kind", sa.String(16), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("last_seen_at", TS, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name_folded", name="uq_players_name_folded"),
        sa.UniqueConstraint("bot_kind", name="uq_players_bot_kind"),
    )
    op.create_table(
        "player_keys",
        sa.Column("fingerprint", sa.String(200), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(64), nullable=True),
        sa.Column("added_at", TS, nullable=False),
        sa.Column("last_used_at", TS, nullable=True),
        sa.PrimaryKeyConstraint("fingerprint", name="pk_player_keys"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_player_keys_player_id_players", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.create_table(
        "key_codes",
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("code_hash", name="pk_key_codes"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_key_codes_player_id_players", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_key_codes_player_id", "key_codes", ["player_id"])


def downgrade() -> None:
    op.drop_table("key_codes")
    op.drop_table("player_keys")
    op.drop_table("players")
