"""`citadels serve` killed with SIGKILL in the middle of a game played through real SSH clients:
restarted, the clients reconnect with the same keys, and the game is finished with no command lost.

The server runs as a subprocess; the test knows the game only from what the server wrote in its
saves folder (the snapshot and its command log, read-only), which is on disk before any client
sees a move: from it, it computes the deciding seat's view and the keys that choose a move.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from game_helpers import ESC, Screen, create_table, key_path, ssh_connect

from engine import apply, view
from engine.savefile import SaveError, loads
from server.storage.savelog import read_log, read_save_file
from ui.i18n import Catalogue
from ui.prompt_keys import Numbering

ROOT = Path(__file__).resolve().parents[2]


def start_serve(tmp_path: Path) -> tuple[subprocess.Popen, int]:
    config = tmp_path / "server.toml"
    # The game is played at machine speed (keys at once, bots without delay): far past a person's
    # input budget (server/transport/input_budget.py), which this test is not about.
    config.write_text(
        "port = 0\nbot_delay_seconds = 0.0\ngc_tuning = false\nmax_concurrent_app_starts = 8\ninput_cpu_share = 1.0\n"
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--config",
            str(config),
            "--keys-dir",
            str(tmp_path / "keys"),
            "--saves-dir",
            str(tmp_path / "saves"),
            "--workers",
            "1",  # the single process's saves (this machine's cores would make it workers)
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=open(tmp_path / "server.log", "ab"),
        text=True,
    )
    deadline = time.monotonic() + 30
    port = None
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"ssh -p (\d+) ", line)
        if m:
            port = int(m.group(1))
            break
    assert port, f"the server did not say how to connect: {lines}"
    assert any("Host key fingerprint: SHA256:" in x for x in lines)
    return proc, port


def disk_game(saves: Path) -> tuple[str | None, object, list]:
    """(table id, state, command log) from the saves folder, or (None, None, []) before a game exists."""
    for _ in range(20):
        finished = list((saves / "finished").glob("*.save")) if (saves / "finished").exists() else []
        if finished:
            save = loads(finished[0].read_bytes())
            return finished[0].stem, save.state, list(save.log)
        active = [p for p in saves.glob("*.save") if not p.name.startswith(".")]
        if not active:
            return None, None, []
        path = active[0]
        try:
            save = read_save_file(path, check=False)
            data = (saves / f"{path.stem}.log").read_bytes()
        except (SaveError, OSError):
            time.sleep(0.02)
            continue
        _base, entries, _why = read_log(data, path.stem)
        g, log, ok = save.state, list(save.log), True
        for e in entries:
            if e.seq <= g.seq:
                continue
            if e.seq != g.seq + 1:
                ok = False
                break
            apply(g, e.cmd)
            log.append(e.cmd)
        if ok:
            return path.stem, g, log
        time.sleep(0.02)
    raise AssertionError("could not read a consistent game from the saves folder")


async def connect(port: int, key, username: str) -> Screen:
    return await ssh_connect(port, key, username)


async def quiet(screens: list[Screen], for_s: float = 0.12, limit: float = 3.0) -> None:
    """Read every client's output until none has changed for `for_s` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = [len(s.raw) for s in screens]
        for s in screens:
            await s.pump(for_s / len(screens))
        if [len(s.raw) for s in screens] == before:
            return


async def play(
    saves: Path, seats: dict[int, Screen], rng: random.Random, until_seq: int | None, timeout: float = 120.0
) -> int:
    """Play the human seats by keys, from the game on disk, until the game ends (or reaches `until_seq`)."""
    cat = Catalogue("en")
    screens = list(seats.values())
    deadline = time.monotonic() + timeout
    presses = 0
    numbers: dict[int, Numbering] = {}  # each seat's key numbers, as its screen keeps them (ui.prompt_keys)
    while True:
        assert time.monotonic() < deadline, "the game did not progress"
        _id, g, _log = disk_game(saves)
        if g is None:  # the game's first snapshot is not written yet
            await quiet(screens, 0.05)
            continue
        if g.phase == "over" or (until_seq is not None and g.seq >= until_seq):
            return presses
        seat = g.pending.seat
        if seat not in seats:
            await quiet(screens, 0.05)
            continue
        await quiet(screens)
        keys, _cmd = key_path(view(g, seat), cat, rng, numbers.setdefault(seat, Numbering()))
        seats[seat].send(keys)
        presses += 1
        t0 = time.monotonic()
        while disk_game(saves)[1].seq == g.seq and time.monotonic() - t0 < 3:
            await quiet(screens, 0.05, 0.2)
        if disk_game(saves)[1].seq == g.seq:  # the keys fell on a screen not yet updated: start over
            seats[seat].send(ESC)
            await asyncio.sleep(0.2)


@pytest.mark.slow  # a whole game across a server killed and restarted
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_sigkill_mid_game_restart_reconnect_finish(tmp_path):
    saves = tmp_path / "saves"
    key_a, key_b = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    proc, port = start_serve(tmp_path)
    try:
        a = await connect(port, key_a, "alice")
        b = await connect(port, key_b, "bob")
        await a.wait_for("Citadels · lobby")
        await b.wait_for("Citadels · lobby")
        await create_table(a, players=3, bots=1)
        await b.wait_for("alice's table")
        b.send(b"1")
        await b.wait_for("Take a seat")
        b.send(b"1")
        await b.wait_for("Waiting for the creator")
        await a.wait_for("Start the game")
        a.send(b"1")
        await a.wait_for("Your hand")
        await b.wait_for("Your hand")
        seats = {0: a, 1: b}  # the creator sits first, bob took the next seat, the bot the last
        await play(saves, seats, random.Random(3), until_seq=25)
        await quiet([a, b])
        table_id, g_before, log_before = disk_game(saves)
        assert g_before.phase != "over" and len(log_before) >= 25
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        for s in (a, b):
            s.term.close()
        # restart on the same folders: the game is resumed; the players reconnect with their keys
        proc, port = start_serve(tmp_path)
        table_id2, g_after, log_after = disk_game(saves)
        assert table_id2 == table_id and log_after[: len(log_before)] == log_before
        a = await connect(port, key_a, "alice")
        b = await connect(port, key_b, "bob")
        await a.wait_for("Your hand", timeout=15)  # straight back to their seats
        await b.wait_for("Your hand", timeout=15)
        await play(saves, {0: a, 1: b}, random.Random(4), until_seq=None, timeout=150)
        await a.wait_for("Final scores", timeout=15)
        final = loads((saves / "finished" / f"{table_id}.save").read_bytes())  # replays and checks the log
        assert final.finished and final.log[: len(log_before)] == log_before
        assert len(final.log) > len(log_before)
        # SIGTERM: every session is told, and the server stops within a few seconds
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0 and time.monotonic() - t0 < 6
        await a.wait_for("shutting down", timeout=5)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
