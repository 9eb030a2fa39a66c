"""Players who last: accounts by SSH key, ratings, game history and leaderboards in a database.

SQLite by default (a file next to the saves), PostgreSQL for hosts that share one
between nodes; one schema for both (SQLAlchemy Core, Alembic migrations). See
docs/database.md. The modules, each small:

- url: database URLs and engines (WAL for SQLite, timeouts for PostgreSQL)
- schema, migrate, migrations/: the tables and how a database reaches them
- names, accounts: players, keys, name claims, one-time codes to add a key
- game_record: a finished game as the history receives it
- history, ratings, profiles: recording games and rating them; what players look up
- records: the typed answers
- store (synchronous), aio (off the event loop), outbox (a database that is down delays no move)
"""
