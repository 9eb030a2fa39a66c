"""Alembic migrations of the players database (run through `server.players.migrate`)."""
