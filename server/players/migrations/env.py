"""Alembic's entry point: migrations run on the connection `server.players.migrate` hands over."""

from __future__ import annotations

from alembic import context

from server.players.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only `server.players.migrate` runs these
    raise RuntimeError("run migrations with `citadels db migrate` (server.players.migrate)")

# render_as_batch: SQLite alters a table by copying it; Alembic does that for us in batch mode.
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True, compare_type=True)
with context.begin_transaction():
    context.run_migrations()
