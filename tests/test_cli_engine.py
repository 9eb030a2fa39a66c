"""`citadels sim` and `citadels scenario run` through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def citadels(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=cwd)


def test_sim_prints_one_json_line():
    r = citadels("sim", "--players", "4", "--games", "5", "--seed", "3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    for key in (
        "games",
        "players",
        "seconds",
        "games_per_second",
        "commands_per_second",
        "mean_rounds",
        "mean_score",
        "max_score",
        "invariants",
        "invariant_checks",
    ):
        assert key in data
    assert data["games"] == 5 and data["players"] == 4 and data["failures"] == []


def test_sim_refuses_unknown_character_and_impossible_lineup_in_one_line():
    for args, text in (
        (["--characters", "Assassin,Nobody"], "Unknown character 'Nobody'"),
        (
            ["--players", "2", "--characters", "Assassin,Thief,Magician,King,Bishop,Merchant,Architect,Warlord,Artist"],
            "ranks 1-8 only",
        ),
    ):
        r = citadels("sim", "--games", "1", *args)
        assert r.returncode == 2
        assert text in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_every_subcommand_has_help():
    r = citadels("--help")
    assert r.returncode == 0
    for sub in ("sim", "scenario"):
        h = citadels(sub, "--help")
        assert h.returncode == 0 and "usage" in h.stdout


GOOD = """
title = "A passing scenario"
[setup]
turn = "Merchant"
[[players]]
name = "Ana"
gold = 0
characters = ["Merchant"]
[[players]]
name = "Ben"
characters = ["King"]
[[steps]]
player = "Ana"
do = "take_gold"
[expect]
players.Ana.gold = 2
"""


def test_scenario_run_reports_pass_fail_and_malformed(tmp_path: Path):
    (tmp_path / "good.toml").write_text(GOOD)
    (tmp_path / "bad.toml").write_text(GOOD.replace("players.Ana.gold = 2", "players.Ana.gold = 5"))
    r = citadels("scenario", "run", str(tmp_path))
    assert r.returncode == 1
    assert "PASS" in r.stdout and "FAIL" in r.stdout and "expected 5, got 2" in r.stdout
    assert "1 passed, 1 failed" in r.stdout

    (tmp_path / "bad.toml").unlink()
    assert citadels("scenario", "run", str(tmp_path)).returncode == 0

    broken = GOOD.replace('do = "take_gold"', 'do = "take_gold"\nflavour = 3')
    (tmp_path / "malformed.toml").write_text(broken)
    r = citadels("scenario", "run", str(tmp_path / "malformed.toml"))
    assert r.returncode == 2
    line = broken.splitlines().index("[[steps]]") + 1
    assert f"malformed.toml:{line}: unknown key 'flavour'" in r.stdout

    (tmp_path / "syntax.toml").write_text('title = "x"\n[setup\n')
    r = citadels("scenario", "run", str(tmp_path / "syntax.toml"))
    assert r.returncode == 2 and "syntax.toml:2" in r.stdout and "Traceback" not in r.stdout + r.stderr
