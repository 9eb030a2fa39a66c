"""The storage suite runs twice: on SQLite (a file in the test's folder) and on a real PostgreSQL
server started for the session (tests/db/postgres.py).

Where PostgreSQL is not installed the PostgreSQL half is skipped with a loud reason, except
when CITADELS_REQUIRE_POSTGRES is set (.ci/run sets it after installing the package):
then a missing server fails the run, so CI shows those tests ran.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from server.players.ratings import RatingPolicy
from server.players.store import PlayerStore

from .postgres import PostgresServer, find_bindir

# The suite on PostgreSQL is a second pass over the same storage code: the slow tier's (the whole suite, CI on
# 3.11 and 3.13). The fast tier runs it on SQLite, and on PostgreSQL only where a test says so (BOTH_BACKENDS:
# the schema's migrations, PostgreSQL's own DDL).
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
BOTH_BACKENDS = pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        reason = (
            "PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL half of the "
            "storage suite DID NOT RUN"
        )
        if os.environ.get("CITADELS_REQUIRE_POSTGRES"):
            pytest.fail(reason + " and CITADELS_REQUIRE_POSTGRES is set")
        pytest.skip(reason)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    server = PostgresServer(bindir, int(worker[2:]) if worker[2:].isdigit() else 0)
    try:
        server.init()
    except Exception:
        server.close()
        raise
    yield server
    server.close()


@dataclass
class Backend:
    """One database for one test: its URL, and a way to make it unavailable for a while."""

    name: str
    url: str
    path: Path | None = None  # SQLite's file
    server: PostgresServer | None = None
    stores: list[PlayerStore] = field(default_factory=list)

    def open(self, migrate: bool = True, **kw: Any) -> PlayerStore:
        if self.name == "sqlite":
            kw.setdefault("sqlite_busy_ms", 300)  # an outage is seen quickly in tests
        store = PlayerStore.open(self.url, migrate_schema=migrate, **kw)
        self.stores.append(store)
        return store

    @contextlib.contextmanager
    def outage(self) -> Iterator[None]:
        """The database is unavailable inside: SQLite locked by another writer, PostgreSQL stopped."""
        if self.name == "sqlite":
            assert self.path is not None
            holder = sqlite3.connect(self.path, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            try:
                yield
            finally:
                holder.execute("ROLLBACK")
                holder.close()
        else:
            assert self.server is not None
            self.server.stop()
            try:
                yield
            finally:
                self.server.start()


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path) -> Iterator[Backend]:
    if request.param == "sqlite":
        path = tmp_path / "players.sqlite3"
        b = Backend("sqlite", f"sqlite:///{path}", path=path)
        yield b
        for s in b.stores:
            s.close()
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.new_database()
    b = Backend("postgresql", server.url(name), server=server)
    yield b
    for s in b.stores:
        s.close()
    server.drop_database(name)


@pytest.fixture
def store(backend) -> PlayerStore:
    return backend.open()


@pytest.fixture
def bot_store(backend) -> PlayerStore:
    """A store whose host rates bots."""
    return backend.open(policy=RatingPolicy(rate_bots=True))
