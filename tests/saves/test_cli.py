"""`citadels save show|export|verify` and `citadels sim --save-dir`, run as a user would (subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.savefile import FORMAT_VERSION, dumps, loads_json

from .games import first_game, game_save

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def no_traceback(p: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    mid = game_save(first_game(4, seed=21), stop=140)
    (d / "mid.save").write_bytes(dumps(mid))
    (d / "end.save").write_bytes(dumps(game_save(first_game(5, seed=22))))
    (d / "empty.save").write_bytes(b"")
    (d / "trunc.save").write_bytes(dumps(mid)[:500])
    (d / "text.save").write_text("hello\n")
    other = game_save(first_game(4, seed=99), stop=140)
    import msgspec

    from engine.savefile import HEADER

    body = msgspec.msgpack.decode(dumps(mid)[HEADER.size :])
    body["log"] = msgspec.msgpack.decode(dumps(other)[HEADER.size :])["log"]
    raw = msgspec.msgpack.encode(body)
    import zlib

    (d / "other.save").write_bytes(HEADER.pack(b"CTDLSAVE", FORMAT_VERSION, 0, len(raw), zlib.crc32(raw)) + raw)
    return d, mid


def test_show_hides_hidden_cards(files):
    d, mid = files
    p = cli("save", "show", str(d / "mid.save"))
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "4 players" in out and f"round {mid.state.round}" in out and "Scores so far" in out
    for name in ["Ana", "Bo", "Cy", "Di"]:
        assert name in out
    assert "hand:" not in out and "Face-down discards:" not in out and "--reveal" in out
    p = cli("save", "show", "--reveal", str(d / "mid.save"))
    assert p.returncode == 0
    assert "hand:" in p.stdout and "Face-down discards:" in p.stdout
    for card in mid.state.players[0].hand:
        assert card in p.stdout


def test_show_finished_game(files):
    d, _ = files
    p = cli("save", "show", str(d / "end.save"))
    assert p.returncode == 0 and "finished" in p.stdout and "Final scores" in p.stdout and "WINNER" in p.stdout


def test_export_is_json_that_reads_back(files, tmp_path):
    d, mid = files
    p = cli("save", "export", str(d / "mid.save"))
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["version"] == FORMAT_VERSION and len(doc["log"]) == 140 and doc["config"]["seed"] == 21
    assert loads_json(p.stdout.encode()).log == mid.log
    (tmp_path / "mid.json").write_text(p.stdout)
    v = cli("save", "verify", str(tmp_path / "mid.json"))
    assert v.returncode == 0, v.stderr


def test_verify(files):
    d, _ = files
    for name in ("mid.save", "end.save"):
        p = cli("save", "verify", str(d / name))
        assert p.returncode == 0 and p.stdout.startswith("ok: ") and "reproduce" in p.stdout, p.stderr


@pytest.mark.parametrize(  # a process each: every bad file through verify in the fast tier, show and export slow
    "action", [pytest.param("show", marks=pytest.mark.slow), pytest.param("export", marks=pytest.mark.slow), "verify"]
)
@pytest.mark.parametrize(
    "name,word",
    [
        ("empty.save", "empty"),
        ("trunc.save", "truncated"),
        ("text.save", "not a Citadels save"),
        ("other.save", "another game"),
        ("missing.save", "cannot read"),
    ],
)
def test_bad_files_one_line_nonzero(files, action, name, word):
    d, _ = files
    p = cli("save", action, str(d / name))
    no_traceback(p)
    assert p.returncode == 1
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("citadels save: ") and word in lines[0], p.stderr


def test_usage_errors(files):
    assert cli("save").returncode == 2
    p = cli("save", "frobnicate", "x")
    assert p.returncode == 2 and "invalid choice" in p.stderr


def test_sim_save_dir(tmp_path):
    p = cli("sim", "--players", "4", "--games", "2", "--seed", "5", "--save-dir", str(tmp_path / "out"))
    assert p.returncode == 0, p.stderr
    files = sorted(x.name for x in (tmp_path / "out").iterdir())
    assert files == ["sim-4p-seed5.save", "sim-4p-seed6.save"]
    for f in files:
        v = cli("save", "verify", str(tmp_path / "out" / f))
        assert v.returncode == 0 and "finished" in v.stdout, v.stderr
    p = cli("sim", "--players", "4", "--games", "1", "--save-dir", str(tmp_path / "out" / files[0] / "x"))
    no_traceback(p)
    assert p.returncode == 2 and "cannot create the save folder" in p.stderr
