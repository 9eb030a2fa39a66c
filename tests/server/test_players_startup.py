"""The server and its players database at start: a new database is made; one whose schema is behind
stops `citadels serve` with one line naming the command to run; a database that cannot be reached
does not stop the server (players arrive under their keys; games go on); `accounts = false` runs
without one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from players_helpers import lobby, new_key, start_players_server
from sqlalchemy import inspect

from server.players import migrate
from server.players.url import make_engine

CITADELS = str(Path(sys.executable).with_name("citadels"))


def _serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            CITADELS,
            "serve",
            "--port",
            "0",
            "--keys-dir",
            str(tmp_path / "keys"),
            "--saves-dir",
            str(tmp_path / "saves"),
            "--workers",
            "1",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


@pytest.mark.slow  # a 'citadels serve' process waits out the 5 s schema settle (tests/db/test_server_accounts.py checks the refusal in the fast tier)
def test_a_database_behind_the_program_stops_the_server_with_one_line(tmp_path):
    path = tmp_path / "old.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate.upgrade(engine, migrate.revisions()[-2])  # one revision behind
    engine.dispose()
    done = _serve(tmp_path, "--database", f"sqlite:///{path}")
    assert done.returncode == 1, done
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("citadels serve: the players database is at revision")
    assert "run `citadels db migrate`" in lines[-1]
    # After the host migrates it, the same command would serve: the schema is the program's.
    engine = make_engine(f"sqlite:///{path}")
    migrate.upgrade(engine)
    migrate.check_current(engine)
    engine.dispose()


@pytest.mark.slow  # a 'citadels serve' process (one stopping with one line stays fast: tests/ui/test_textual_versions.py)
def test_a_bad_database_url_stops_the_server_with_one_line(tmp_path):
    done = _serve(tmp_path, "--database", "mysql://somewhere/db")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("citadels serve: --database 'mysql://somewhere/db'")


async def test_a_new_database_is_made_next_to_the_saves(tmp_path, open_terminal):
    gs = await start_players_server(tmp_path)
    try:
        engine = make_engine(f"sqlite:///{tmp_path / 'saves' / 'players.sqlite3'}")
        assert migrate.current_revision(engine) == migrate.head_revision()
        assert "players" in inspect(engine).get_table_names()
        engine.dispose()
    finally:
        await gs.close()


async def test_an_unreachable_database_does_not_stop_the_server(tmp_path, open_terminal, caplog):
    # Nothing listens on this port: PostgreSQL is "down" at start.
    gs = await start_players_server(tmp_path, database="postgresql://nobody@127.0.0.1:24699/players")
    try:
        assert not gs.players.reachable_at_start
        key = new_key()
        screen = await lobby(open_terminal, gs, key, "dora")
        s = gs.session_of(key)
        assert s.player_id is None and s.name == "dora"
        assert "account not known yet" in screen.text(False)
    finally:
        await gs.close()


async def test_without_accounts_there_is_no_database(tmp_path, open_terminal):
    from game_helpers import start_game_server

    gs = await start_game_server(tmp_path, accounts=False)
    try:
        key = new_key()
        await lobby(open_terminal, gs, key, "eve")
        assert gs.lobby.players is None
        assert not (tmp_path / "saves" / "players.sqlite3").exists()
        app = next(iter(gs.lobby.sessions)).app
        labels = [i.label for i in app.lobby_screen.query_one("MenuList").items]
        assert "My profile" not in labels and "Leaderboard" not in labels
    finally:
        await gs.close()
