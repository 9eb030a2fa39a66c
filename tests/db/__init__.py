"""The players database: the same storage suite on SQLite and on a real PostgreSQL server."""
