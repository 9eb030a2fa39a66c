"""Recovery that keeps what it can, end to end (issue 18, attack 5): `citadels serve` finds a flipped
bit in a game's command log; no move is lost, the damaged log is kept beside the save, the host is
warned on stderr and in the log at WARNING, and the player is told when they sit down again."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from game_helpers import ssh_connect

from engine import apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.savefile import Seat
from engine.setup import GameConfig
from server.storage.persistence import SaveStore
from server.storage.savelog import LOG_HEADER, RECORD, read_log, read_save_file

ROOT = Path(__file__).resolve().parents[2]


def start_serve(tmp_path: Path, *extra: str, settings: str = "") -> tuple[subprocess.Popen, int, list[str]]:
    config = tmp_path / "server.toml"
    config.write_text("port = 0\nbot_delay_seconds = 0.0\ngc_tuning = false\nidle_wait_seconds = 600\n" + settings)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--config", str(config), "--keys-dir", str(tmp_path / "keys")]
        + ["--saves-dir", str(tmp_path / "saves"), "--workers", "1", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=open(tmp_path / "server.log", "ab"),
        text=True,
    )
    lines: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"ssh -p (\d+) ", line)
        if m:
            return proc, int(m.group(1)), lines
    proc.kill()
    raise AssertionError(f"the server did not start: {lines} {(tmp_path / 'server.log').read_text()[-2000:]}")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def game_on_disk(saves: Path, fp: str, k: int) -> list:
    """A 2-player game (alice by key, a bot) with k commands in its log, as a server leaves it."""
    store = SaveStore(saves, snapshot_every=1000)
    cfg = GameConfig(players=["alice", "Morgana (bot)"], preset="first-game", seed=18)
    g, _ = new_game(cfg)
    table = store.create("t1", cfg, [Seat("alice", key=fp), Seat("Morgana (bot)", bot="normal")], g)
    bots = [RandomBot(1), RandomBot(2)]
    log = []
    while len(log) < k:
        cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
        apply(g, cmd)
        table.record(cmd, g)
        log.append(cmd)
    table.close()
    return log


async def told(a, fragments: list[str]) -> None:
    """The game log (Tab once at 80x24: hand, log) shows the table's notice, wrapped in pieces."""
    await a.wait_for("Tab", timeout=15)  # the table screen
    a.send(b"\t")
    for piece in fragments:
        await a.wait_for(piece, timeout=10)
    a.term.close()


@pytest.mark.slow  # end to end: a 'citadels serve' process restarted over a damaged save (tests/saves/test_recovery.py checks recovery in the fast tier)
async def test_a_flipped_bit_loses_no_move_keeps_the_evidence_and_is_reported(tmp_path):
    saves = tmp_path / "saves"
    key = asyncssh.generate_private_key("ssh-ed25519")
    fp = key.get_fingerprint("sha256")
    log = game_on_disk(saves, fp, 40)
    data = bytearray((saves / "t1.log").read_bytes())
    pos = LOG_HEADER.size
    starts = []
    while pos < len(data):
        starts.append(pos)
        pos += RECORD.size + RECORD.unpack_from(data, pos)[0]
    data[starts[20] + RECORD.size + 3] ^= 0x10  # one bit of command 20's record
    (saves / "t1.log").write_bytes(bytes(data))
    proc, port, out = start_serve(tmp_path)
    try:
        err = (tmp_path / "server.log").read_text()
        assert "warning: table t1: its command log was damaged" in err, err[-3000:]
        assert "0 move(s) lost" in err and "t1.log.damaged" in err
        assert re.search(r"WARNING citadels\.server\.lobby\.lobby: a damaged save was recovered", err), err[-2000:]
        assert (saves / "t1.log.damaged").read_bytes() == bytes(data)  # the evidence, as it was found
        # on disk now: every command of the log (0 lost), written back as a fresh snapshot and log
        snap = read_save_file(saves / "t1.save")
        _base, entries, _why = read_log((saves / "t1.log").read_bytes(), "t1")
        recovered = list(snap.log) + [e.cmd for e in entries if e.seq > len(snap.log)]
        assert recovered[: len(log)] == log
        # alice comes back: her seat, and a line about the repair
        a = await ssh_connect(port, key, "alice", size=(80, 24))
        await told(a, ["save was damaged", "has been repaired: no move was"])
    finally:
        stop(proc)
    assert proc.returncode == 0


@pytest.mark.slow  # end to end: a 'citadels serve' process restarted over a damaged save (tests/saves/test_recovery.py checks recovery in the fast tier)
async def test_a_destroyed_record_that_cannot_be_rebuilt_is_reported_as_lost(tmp_path):
    saves = tmp_path / "saves"
    key = asyncssh.generate_private_key("ssh-ed25519")
    fp = key.get_fingerprint("sha256")
    log = game_on_disk(saves, fp, 30)
    data = bytearray((saves / "t1.log").read_bytes())
    pos = LOG_HEADER.size
    starts = []
    while pos < len(data):
        starts.append(pos)
        pos += RECORD.size + RECORD.unpack_from(data, pos)[0]
    data[starts[10] : starts[13]] = b"\xa5" * (starts[13] - starts[10])  # three records gone
    (saves / "t1.log").write_bytes(bytes(data))
    proc, port, _ = start_serve(tmp_path)
    try:
        err = (tmp_path / "server.log").read_text()
        assert f"{len(log) - 9} move(s) lost" in err, err[-3000:]
        a = await ssh_connect(port, key, "alice", size=(80, 24))
        lost = len(log) - 9
        said = f"the last {lost} move{'s' if lost != 1 else ''} could"  # the players' words count in the language
        await told(a, ["save was damaged", said, "the game goes on from move 9"])
    finally:
        stop(proc)
    assert os.path.exists(saves / "t1.log.damaged")
