"""A host who switches between one process and `--workers N` (or changes N) loses no finished game on
its way to the players database and no saved game: the start moves what the other shape left where
this one reads it (server/storage/folder_sweep.py)."""

from __future__ import annotations

import asyncio

from saves.games import first_game, game_save

from engine.savefile import dumps
from server.config import ServerConfig
from server.lobby.exports import ExportIndex
from server.players.game_record import encode_record
from server.players.service import PlayersService
from server.serve import serve
from server.storage.folder_sweep import sweep_old_exports, sweep_outboxes

from .games import record, seat_players


def _write_record(folder, rec) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{rec.uid}.record").write_bytes(encode_record(rec))


async def test_a_single_server_writes_the_games_workers_left_waiting(tmp_path, capfd):
    saves = tmp_path / "saves"
    config = ServerConfig(
        port=0, keys_dir=str(tmp_path / "keys"), saves_dir=str(saves), gc_tuning=False, admin_socket=False
    )
    # The players a worker recorded before the database went away, then the host went back to one process.
    players = PlayersService.open(config)
    ana = players.store.player_for_key("SHA256:ana").id
    ben = players.store.player_for_key("SHA256:ben").id
    await players.close()
    _write_record(saves / "w2" / "db-outbox", record("from-w2", seat_players(1, [ana, ben]), seed=1))
    _write_record(saves / "w3" / "db-outbox", record("from-w3", seat_players(2, [ben, ana]), seed=2))

    started = asyncio.Event()
    seen: dict = {}
    stop = asyncio.Event()

    def ready(server, lobby) -> None:
        seen["players"] = lobby.players
        started.set()

    task = asyncio.create_task(serve(config, [], ready=ready, stop=stop))
    await asyncio.wait_for(started.wait(), 30)
    try:
        assert await seen["players"].outbox.flush(20)
        assert len(seen["players"].store.games(ana)) == 2  # both games, each once
        assert seen["players"].outbox.written == 2
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
    assert not list(saves.glob("w*/db-outbox/*.record"))
    assert "2 finished game(s) waiting for the players database moved to" in capfd.readouterr().err


def test_workers_read_one_outbox_the_records_of_other_shapes_move_there(tmp_path):
    saves = tmp_path / "saves"
    a, b, c = (record(uid, [None, None], seed=1) for uid in ("a", "b", "c"))
    _write_record(saves / "db-outbox", a)  # a single process's
    _write_record(saves / "w1" / "db-outbox", b)  # worker 1's own: stays
    _write_record(saves / "w2" / "db-outbox", c)  # worker 2 of 2: its own, stays
    _write_record(saves / "w3" / "db-outbox", b)  # worker 3 of an earlier 3: the same game as w1's
    assert sweep_outboxes(saves, workers=2) == 2
    assert sorted(p.name for p in (saves / "w1" / "db-outbox").glob("*.record")) == ["a.record", "b.record"]
    assert [p.name for p in (saves / "w2" / "db-outbox").glob("*.record")] == ["c.record"]
    assert not list((saves / "db-outbox").glob("*.record")) and not list((saves / "w3" / "db-outbox").iterdir())
    assert sweep_outboxes(saves, workers=2) == 0  # nothing left to move


def test_exports_of_early_workers_are_listed_under_a_free_name(tmp_path):
    saves = tmp_path / "saves"
    data = dumps(game_save(first_game(4, seed=3), stop=12))
    (saves / "exports").mkdir(parents=True)
    (saves / "exports" / "friday.save").write_bytes(data)  # a name already taken by someone
    for folder in (saves / "w1" / "exports", saves / "w2" / "cluster" / "exports"):
        folder.mkdir(parents=True)
    (saves / "w1" / "exports" / "friday.save").write_bytes(data)
    (saves / "w1" / "exports" / "claimed.save").write_bytes(b"")  # a claim whose export never came
    (saves / "w2" / "cluster" / "exports" / "sunday.save").write_bytes(data)
    assert sweep_old_exports(saves) == 2
    listed = ExportIndex(saves / "exports").entries()
    assert sorted(listed) == ["friday", "friday-2", "sunday"]
    assert (saves / "exports" / "friday.save").read_bytes() == data  # the other's file untouched
    assert not (saves / "exports" / "claimed.save").exists()
