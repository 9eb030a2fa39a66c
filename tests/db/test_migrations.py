"""Migrations: from an empty database and from each earlier schema to the newest, on both backends;
the migrated schema is exactly the code's (schema.py); a database that is behind or ahead is refused."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from server.players import accounts, history, migrate
from server.players.ratings import RatingPolicy
from server.players.schema import metadata
from server.players.store import PlayerStore
from server.players.url import WRITE, make_engine

from .conftest import BOTH_BACKENDS
from .games import T0, record, seat_players


def _engine(backend):
    return make_engine(backend.url)


def _differences(engine) -> list:
    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)


def test_revisions_are_a_line():
    revs = migrate.revisions()
    assert revs[0] == "0001" and revs[-1] == migrate.head_revision()
    assert len(revs) >= 3


@BOTH_BACKENDS  # PostgreSQL's DDL in the fast tier too
def test_empty_database_to_newest(backend):
    engine = _engine(backend)
    try:
        assert migrate.current_revision(engine) is None
        before, after = migrate.upgrade(engine)
        assert (before, after) == (None, migrate.head_revision())
        assert _differences(engine) == []
        # Again: nothing to do, nothing changes.
        assert migrate.upgrade(engine) == (after, after)
    finally:
        engine.dispose()


def _fill(engine, revision: str) -> dict:
    """Data a database at `revision` can hold, written with that revision's tables."""
    facts: dict = {}
    with engine.connect() as conn:
        conn = conn.execution_options(**{WRITE: True})
        with conn.begin():
            ana = accounts.player_for_key(conn, "SHA256:ana", T0, "ssh-ed25519")
            accounts.claim_name(conn, ana.id, "Ana")
            facts["ana"] = ana.id
            if revision >= "0002":
                # A guest at the table: unrated, so the ratings tables (0003) are not needed.
                ids = seat_players(3, [ana.id, None, None])
                result = history.record_game(conn, record("old-game", ids, seed=3), RatingPolicy(), T0)
                assert not result.rated
                facts["game"] = result.game_id
    return facts


@pytest.mark.parametrize("start", migrate.revisions()[:-1])
@BOTH_BACKENDS  # PostgreSQL's DDL in the fast tier too
def test_each_earlier_schema_to_newest_keeps_its_data(backend, start):
    engine = _engine(backend)
    try:
        migrate.upgrade(engine, start)
        assert migrate.current_revision(engine) == start
        facts = _fill(engine, start)
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        assert _differences(engine) == []
    finally:
        engine.dispose()
    store = backend.open(migrate=False)
    ana = store.player_for_key("SHA256:ana")
    assert ana.id == facts["ana"] and ana.name == "Ana"
    if "game" in facts:
        games = store.games(player_id=ana.id)
        assert [g.id for g in games] == [facts["game"]]
        assert store.export_save(facts["game"]).finished
    # The newest schema works on the migrated data: a rated game between two accounts.
    ben = store.player_for_key("SHA256:ben")
    result = store.record_game(record("new-game", seat_players(1, [ana.id, ben.id]), seed=1, minutes=5))
    assert result.rated
    assert store.profile(ana.id).ratings[0].games == 1


@BOTH_BACKENDS  # PostgreSQL's DDL in the fast tier too
def test_a_database_behind_or_empty_is_refused_until_migrated(backend):
    engine = _engine(backend)
    try:
        with pytest.raises(migrate.SchemaError, match="empty: run `citadels db migrate`"):
            PlayerStore.open(backend.url)
        migrate.upgrade(engine, "0001")
        with pytest.raises(migrate.SchemaError, match=r"older than .*citadels db migrate"):
            PlayerStore.open(backend.url)
        migrate.upgrade(engine)
        PlayerStore.open(backend.url).close()
    finally:
        engine.dispose()


@BOTH_BACKENDS  # PostgreSQL's DDL in the fast tier too
def test_a_database_newer_than_the_program_is_refused(backend):
    store = backend.open()
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(migrate.SchemaError, match="newer than this program"):
        PlayerStore.open(backend.url)
