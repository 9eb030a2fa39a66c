"""Database URLs and engines: SQLite (the embedded default, a file next to the saves) or PostgreSQL.

`database_url(arg, saves_dir)` turns what a host types into a SQLAlchemy URL:

- nothing: ``sqlite:///<saves_dir>/players.sqlite3`` (one process, no server to run);
- ``sqlite:///PATH`` (relative to the working folder) or ``sqlite:////abs/path``;
- ``postgresql://user@host:port/db`` (or ``postgres://``): driven by psycopg 3.

`make_engine(url)` opens it the same way for the CLI, the server and the tests:
SQLite in WAL mode with foreign keys on and a busy timeout, transactions begun by us
(``BEGIN`` for reads, ``BEGIN IMMEDIATE`` for writes: a writer takes the lock up
front instead of failing half-way); PostgreSQL with a connect timeout and a
pre-ping, so a restarted server is reconnected to instead of failing once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

DEFAULT_FILE = "players.sqlite3"
SQLITE_BUSY_MS = 5000  # how long a SQLite writer waits for another's lock before giving up
PG_CONNECT_TIMEOUT_S = 5  # an unreachable PostgreSQL fails fast; the outbox retries later
WRITE = "players_write"  # execution option: this transaction writes (BEGIN IMMEDIATE on SQLite)


class DatabaseURLError(ValueError):
    """A --database value that cannot be used; the message is one line."""


def database_url(arg: str | None, saves_dir: str | Path = "saves") -> URL:
    """The SQLAlchemy URL for `--database ARG` (None: the SQLite file next to the saves)."""
    if not arg:
        return make_url(f"sqlite:///{Path(saves_dir) / DEFAULT_FILE}")
    try:
        url = make_url(arg)
    except ArgumentError:
        raise DatabaseURLError(
            f"--database {arg!r}: not a database URL (sqlite:///PATH or postgresql://USER@HOST:PORT/DB)"
        ) from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        if url.drivername not in ("sqlite", "sqlite+pysqlite"):
            raise DatabaseURLError(f"--database {arg!r}: SQLite is opened with the standard library (sqlite:///PATH)")
        if not url.database or url.database == ":memory:":
            raise DatabaseURLError(f"--database {arg!r}: give SQLite a file (sqlite:///PATH), not memory")
        return url.set(drivername="sqlite+pysqlite")
    if backend in ("postgresql", "postgres"):
        if url.drivername not in ("postgresql", "postgres", "postgresql+psycopg"):
            raise DatabaseURLError(f"--database {arg!r}: PostgreSQL is reached through psycopg 3 (postgresql://...)")
        return url.set(drivername="postgresql+psycopg")
    raise DatabaseURLError(f"--database {arg!r}: only sqlite:///PATH and postgresql://... are supported")


def describe(url: URL) -> str:
    """The URL for a log line or a message: no password."""
    return url.render_as_string(hide_password=True)


def make_engine(url: URL | str, *, sqlite_busy_ms: int = SQLITE_BUSY_MS, **kw: Any) -> Engine:
    """An engine for `url` (see the module's docstring); `kw` goes to create_engine."""
    url = database_url(url) if isinstance(url, str) else url
    if url.get_backend_name() == "sqlite":
        Path(url.database or "").parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": sqlite_busy_ms / 1000}, **kw)
        _sqlite_setup(engine, sqlite_busy_ms)
        return engine
    connect_args = {"connect_timeout": PG_CONNECT_TIMEOUT_S, **kw.pop("connect_args", {})}
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args, **kw)


def _sqlite_setup(engine: Engine, busy_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # The sqlite3 module's own implicit transactions are switched off: we begin them (below).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
        cur.execute("PRAGMA synchronous=NORMAL")  # durable at each checkpoint; safe in WAL mode
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE) else "BEGIN")


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"
