"""A crafted save's names never reach the operator's terminal raw (issue 18, attack 7):
`citadels save show`, `verify` and `export` run as a user would, on a save whose player names, key
and id hold escape sequences, C1 controls and bidi characters."""

from __future__ import annotations

import json
import unicodedata

from engine.savefile import Seat, clean_names, dumps, loads, new_save
from engine.setup import GameConfig, new_game

from .games import T0
from .test_cli import cli, no_traceback

EVIL = ["Eve\x1b]0;PWNED\x07\x1b[2J", "Bob\u202e\u200bevil", "\u009b31mCy\u009d0;x\u009c", "*"]


def crafted(tmp_path):
    cfg = GameConfig(players=EVIL, preset="first-game", seed=5)
    g, _ = new_game(cfg)
    seats = [Seat(EVIL[0], key="SHA256:\x1b[31mkey"), Seat(EVIL[1]), Seat(EVIL[2], bot="normal"), Seat(EVIL[3])]
    save = new_save("evil\x1b[5m", cfg, seats, g, created=T0)
    path = tmp_path / "evil.save"
    path.write_bytes(dumps(save))
    return path


def terminal_safe(text: str) -> list[str]:
    return sorted(
        {f"U+{ord(c):04X}" for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn", "Cs")}
    )


def test_save_show_verify_and_export_print_no_control_character(tmp_path):
    path = crafted(tmp_path)
    for args in (["show", str(path)], ["show", "--reveal", str(path)], ["verify", str(path)]):
        p = cli("save", *args)
        no_traceback(p)
        assert p.returncode == 0, p.stderr
        assert terminal_safe(p.stdout) == [], (args, terminal_safe(p.stdout))
        assert "PWNED" in p.stdout or args[0] == "verify"  # the text is shown, its escape codes are not
    p = cli("save", "export", str(path))
    assert p.returncode == 0 and terminal_safe(p.stdout) == []
    data = json.loads(p.stdout)  # the JSON says the same as the file: escapes, not lost characters
    assert data["config"]["players"] == EVIL and data["seats"][0]["key"] == "SHA256:\x1b[31mkey"


def test_errors_naming_a_crafted_file_print_no_control_character(tmp_path):
    bad = tmp_path / "\x1b[2Jbad\u202e.save"
    bad.write_bytes(b"CTDLSAVE\x00\x01garbage")
    p = cli("save", "show", str(bad))
    assert p.returncode == 1 and terminal_safe(p.stderr) == [], p.stderr


def test_names_read_from_a_save_are_cleaned_alike_everywhere(tmp_path):
    save = loads(crafted(tmp_path).read_bytes())
    changes = clean_names(save)
    names = list(save.config.players)
    assert names == ["Eve]0;PWNED[2J", "Bobevil", "31mCy0;x", "Player 4"] and len(changes) == 4
    assert [s.name for s in save.seats] == names and [p.name for p in save.state.players] == names
