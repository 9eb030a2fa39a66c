"""What the server asks of the players database, on both backends: a login (the key's player, made
once, with all its keys), the rows a server keeps in memory, a game recorded with a key whose player
was not known when it ended, and the server's start (a new database made, an older one refused, an
unreachable one not stopping it). Plus the in-memory directory itself."""

from __future__ import annotations

import msgspec
import pytest

from server.config import ServerConfig
from server.players import migrate
from server.players import service as service_module
from server.players.directory import PlayerDirectory
from server.players.service import PlayersService, prepare_schema
from server.players.url import make_engine

from .games import record, seat_players


def test_a_login_makes_the_player_once_and_returns_all_its_keys(store):
    p, keys = store.login("SHA256:first", "ana")
    again, keys_again = store.login("SHA256:first")
    assert again.id == p.id and [k.fingerprint for k in keys] == ["SHA256:first"]
    code = store.new_key_code(p.id)
    assert store.add_key_with_code(code, "SHA256:second", "ana-laptop") == p.id
    third, keys3 = store.login("SHA256:second")
    assert third.id == p.id and {k.fingerprint for k in keys3} == {"SHA256:first", "SHA256:second"}
    assert {k.label for k in keys3} == {"ana", "ana-laptop"}


def test_the_rows_a_server_keeps_in_memory(store):
    ids = [store.player_for_key(f"SHA256:k{i}").id for i in range(5)]
    store.claim_name(ids[1], "Bea")
    store.claim_name(ids[3], "Dan")
    keys, named = store.directory_rows(100)
    assert sorted(keys) == sorted((f"SHA256:k{i}", ids[i]) for i in range(5))
    assert sorted(named) == sorted([(ids[1], "Bea"), (ids[3], "Dan")])
    keys, named = store.directory_rows(2)  # bounded: the most recently used
    assert len(keys) == 2 and len(named) == 2


def test_a_game_recorded_with_keys_whose_players_were_not_known(store):
    """The database was away when two of the players connected: their seats carry their keys, and
    recording finds (or makes) their players; a guest's seat stays a guest's."""
    known = store.player_for_key("SHA256:known").id
    ids = seat_players(1, [known, -1, -2])
    base = record("late-keys", [None] * 3, seed=1)
    key_of = {known: "SHA256:known", -1: "SHA256:new-one", -2: "SHA256:new-two"}
    seats = [msgspec.structs.replace(s, player_id=None, key=key_of[ids[s.seat]]) for s in base.seats]
    result = store.record_game(msgspec.structs.replace(base, seats=seats))
    assert result.rated and result.new
    (game,) = store.games(known)
    by_seat = {s.seat: s.player_id for s in game.seats}
    assert by_seat[ids.index(known)] == known
    made = {store.player_for_key("SHA256:new-one").id, store.player_for_key("SHA256:new-two").id}
    assert set(by_seat.values()) == {known} | made and None not in made
    # A seat with neither a player nor a key is a guest's: the game is not rated.
    guest = [msgspec.structs.replace(s, player_id=None, key=None) if s.seat == 0 else s for s in seats]
    other = store.record_game(msgspec.structs.replace(base, uid="late-guest", seats=guest))
    assert not other.rated and "played as a guest" in other.unrated_reason


def _config(url: str, tmp_path) -> ServerConfig:
    return ServerConfig(database=url, saves_dir=str(tmp_path / "saves"))


def test_the_server_refuses_an_older_database_and_makes_a_new_one(backend, tmp_path, monkeypatch):
    # An older schema is looked at again for SCHEMA_SETTLE_TRIES x SCHEMA_SETTLE_SECONDS (5 s) before it is
    # refused (another process may be making it): the same tries here, 10 ms apart.
    monkeypatch.setattr(service_module, "SCHEMA_SETTLE_SECONDS", 0.01)
    engine = make_engine(backend.url)
    migrate.upgrade(engine, migrate.revisions()[0])  # a database the program has moved past
    with pytest.raises(migrate.SchemaError, match=r"older than .*: run `citadels db migrate`"):
        PlayersService.open(_config(backend.url, tmp_path))
    assert migrate.current_revision(engine) == migrate.revisions()[0]  # left as it was: the host decides
    with engine.begin() as conn:  # emptied: as a new database
        conn.exec_driver_sql("DROP TABLE key_codes")
        conn.exec_driver_sql("DROP TABLE player_keys")
        conn.exec_driver_sql("DROP TABLE players")
        conn.exec_driver_sql("DROP TABLE alembic_version")
    engine.dispose()
    service = PlayersService.open(_config(backend.url, tmp_path))
    try:
        assert service.reachable_at_start
        assert migrate.current_revision(service.store.engine) == migrate.head_revision()
        assert prepare_schema(service.store.engine) is None  # already the program's: nothing to do
    finally:
        service.store.close()


def test_an_unreachable_database_does_not_stop_the_server(backend, tmp_path):
    with backend.outage():
        if backend.name == "sqlite":
            pytest.skip("a locked SQLite file is still read: the outage here is PostgreSQL stopped")
        service = PlayersService.open(_config(backend.url, tmp_path))
    try:
        assert not service.reachable_at_start and len(service.directory) == 0
    finally:
        service.store.close()


def test_the_directory():
    d = PlayerDirectory()
    d.load([("SHA256:a1", 1), ("SHA256:a2", 1), ("SHA256:b", 2)], [(1, "Ana")])
    assert d.identity("SHA256:a1") == d.identity("SHA256:a2") == "player:1"
    assert d.identity("SHA256:new") == "SHA256:new" and d.identity("guest:s3") == "guest:s3"
    assert d.owner_of_name("ANA") == 1 and d.owner_of_name("Ａｎａ") == 1 and d.owner_of_name("Bea") is None
    d.learn_name(1, "Anita")  # a new name frees the old one
    assert d.owner_of_name("ana") is None and d.owner_of_name("anita") == 1
    d.learn_keys(1, ["SHA256:a2"])  # a1 was removed
    assert d.player_of("SHA256:a1") is None and d.keys_of(1) == {"SHA256:a2"}
    d.learn_keys(1, ["SHA256:a2", "SHA256:b"])  # b moved to player 1 (added with a code)
    assert d.player_of("SHA256:b") == 1 and d.keys_of(2) == set()
    d.forget_key("SHA256:a2")
    assert d.keys_of(1) == {"SHA256:b"}
