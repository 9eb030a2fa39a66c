"""The host's commands on both backends: `citadels db migrate|status`, `citadels sim --record-to` then
`citadels ratings --json` (the stronger bot ranks higher) and `citadels history` (lists, one game,
an export that `citadels save verify` accepts); a bad URL or an empty database is one line."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from server.players import migrate


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_db_migrate_then_status(backend, capsys):
    code, out, _ = cli(capsys, "db", "status", "--database", backend.url)
    assert code == 1 and "revision none (empty)" in out and "run `citadels db migrate`" in out
    code, out, _ = cli(capsys, "db", "migrate", "--database", backend.url, "--to", "0001")
    assert code == 0 and "schema at revision 0001 (was empty)" in out
    code, out, _ = cli(capsys, "db", "migrate", "--database", backend.url)
    assert code == 0 and f"schema at revision {migrate.head_revision()} (was 0001)" in out
    code, out, _ = cli(capsys, "db", "status", "--database", backend.url)
    assert code == 0 and "(up to date)" in out


def test_sim_records_rated_bot_games_and_ratings_rank_the_stronger_bot_first(backend, capsys):
    code, out, err = cli(
        capsys, "sim", "--seats", "normal,easy,random", "--games", "30", "--no-check", "--record-to", backend.url
    )
    assert code == 0, err
    assert json.loads(out)["games"] == 30
    assert "30 games recorded (30 rated)" in err
    code, out, err = cli(capsys, "ratings", "--database", backend.url, "--json")
    assert code == 0, err
    boards = json.loads(out)
    assert list(boards) == ["2016"]
    rows = boards["2016"]["rows"]
    assert [r["name"] for r in rows] == ["normal", "easy", "random"]
    assert rows[0]["rating"] > rows[1]["rating"] > rows[2]["rating"]
    assert all(r["games"] == 30 and r["kind"] == "bot" for r in rows)
    # A second run adds new games (it does not overwrite the first run's).
    code, _, err = cli(capsys, "sim", "--seats", "normal,random", "--games", "2", "--record-to", backend.url)
    assert code == 0 and "2 games recorded" in err
    code, out, _ = cli(capsys, "ratings", "--database", backend.url)
    assert code == 0 and "Citadels (2016): 3 rated player(s)" in out and "normal (bot)" in out


def test_history_lists_shows_and_exports(backend, capsys, tmp_path):
    assert cli(capsys, "sim", "--seats", "normal,random", "--games", "3", "--record-to", backend.url)[0] == 0
    code, out, _ = cli(capsys, "history", "--database", backend.url)
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 3 and lines[0].startswith("#3 ") and "rated" in lines[0]
    code, out, _ = cli(capsys, "history", "--database", backend.url, "--player", "RANDOM", "--json", "--limit", "2")
    games = json.loads(out)
    assert code == 0 and [g["id"] for g in games] == [3, 2]
    assert all(g["seats"][g["you"]]["bot"] == "random" for g in games)
    code, out, _ = cli(capsys, "history", "--database", backend.url, "--game", "2", "--json")
    assert code == 0 and json.loads(out)[0]["id"] == 2
    save = tmp_path / "g2.save"
    code, out, _ = cli(capsys, "history", "--database", backend.url, "--export", "2", "--output", str(save))
    assert code == 0 and "written to" in out
    code, out, _ = cli(capsys, "save", "verify", str(save))
    assert code == 0 and out.startswith("ok:")
    assert cli(capsys, "history", "--database", backend.url, "--game", "99")[0] == 1
    code, _, err = cli(capsys, "history", "--database", backend.url, "--player", "nobody")
    assert code == 1 and err.strip() == "citadels history: no player named 'nobody'"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://x@y/z", "only sqlite:///PATH and postgresql://... are supported"),
        ("sqlite://", "give SQLite a file"),
        ("not a url", "not a database URL"),
        ("postgresql+asyncpg://x@y/z", "through psycopg 3"),
    ],
)
def test_a_bad_database_url_is_one_line(capsys, url, message):
    for argv in (["ratings"], ["history"], ["db", "migrate"], ["sim", "--games", "1", "--record-to"]):
        full = [*argv, url] if argv[0] == "sim" else [*argv, "--database", url]
        code, _, err = cli(capsys, *full)
        assert code == 1, full
        assert message in err and len(err.strip().splitlines()) == 1, err


def test_an_empty_database_says_to_migrate(backend, capsys):
    code, _, err = cli(capsys, "ratings", "--database", backend.url)
    assert code == 1 and "run `citadels db migrate` first" in err and len(err.strip().splitlines()) == 1


def test_an_unreachable_postgresql_is_one_line(capsys):
    code, _, err = cli(capsys, "ratings", "--database", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 1 and err.startswith("citadels ratings: cannot open the players database:")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sim_saves_files_and_records_at_once(backend, capsys, tmp_path):
    code, _, err = cli(
        capsys,
        "sim",
        "--seats",
        "easy,random",
        "--games",
        "2",
        "--save-dir",
        str(tmp_path / "s"),
        "--record-to",
        backend.url,
    )
    assert code == 0 and "2 games recorded" in err
    assert len(list((tmp_path / "s").glob("*.save"))) == 2
