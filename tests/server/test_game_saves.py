"""A saves folder that is full or fails: the players and the log are told, the game goes on in memory,
and saving resumes (and says so) once the disk works again."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import subprocess
import time

import asyncssh
import pytest
from game_helpers import Screen, app_keys, prompt_ready, start_game_server, started_with_bots, wait_until

import server.storage.savelog as savelog
import server.storage.table_save as table_save
from engine.savefile import loads
from ui.i18n import Catalogue


async def solo_game(gs, open_terminal, key) -> tuple[object, Screen]:
    """alice against one bot, started."""
    return await started_with_bots(gs, open_terminal, key, (130, 42), bots=1)


async def moves(gs, table, a: Screen, fp: str, n: int, rng: random.Random) -> None:
    """alice makes n moves (the bot plays in between)."""
    cat = Catalogue("en")
    seat = table.seat_of(fp)
    done = 0
    deadline = time.monotonic() + 30
    while done < n and table.state.phase != "over":
        assert time.monotonic() < deadline
        if table.state.pending.seat == seat and prompt_ready(gs.app_of(fp), table.state.seq):
            seq = table.state.seq
            a.send(app_keys(gs.app_of(fp), cat, rng))
            await wait_until(lambda: table.state.seq != seq, what="a move")
            done += 1
        else:
            await a.pump(0.02)


async def test_disk_failure_mid_game_is_reported_and_the_game_goes_on(tmp_path, open_terminal, caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    gs = await start_game_server(tmp_path)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        fp = key.get_fingerprint("sha256")
        table, a = await solo_game(gs, open_terminal, key)
        rng = random.Random(1)
        await moves(gs, table, a, fp, 3, rng)
        saved_seq = table.state.seq

        def full(*_args, **_kw):  # every write to the saves folder fails as on a full disk
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(table_save, "write_all", full)  # log appends
        monkeypatch.setattr(savelog, "write_all", full)  # snapshots (atomic writes)
        a.mark()
        await moves(gs, table, a, fp, 3, rng)
        await a.wait_for("cannot be saved", timeout=10)  # told on screen (notification and chat)
        assert table.save_problem and "full" in table.save_problem
        assert any(
            "autosave failed" in str(getattr(r, "fields", {}).get("detail", "")) and r.levelno == logging.ERROR
            for r in caplog.records
        ), "the failure is in the server log"
        # the game went on in memory
        assert table.state.seq >= saved_seq + 3  # our 3 moves (and any bot moves between them)
        monkeypatch.undo()
        a.mark()
        await moves(gs, table, a, fp, 1, rng)
        await a.wait_for("saved again", timeout=10)
        assert table.save_problem is None
        assert any("works again" in str(getattr(r, "fields", {}).get("detail", "")) for r in caplog.records)
        # what is on disk now is the whole game so far
        await wait_until(
            lambda: loads((tmp_path / "saves" / f"{table.id}.save").read_bytes()).state.seq > 0, what="a fresh snapshot"
        )
    finally:
        await gs.close()


def _can_mount() -> bool:
    return os.geteuid() == 0 and subprocess.run(["which", "mount"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="a real full filesystem needs root to mount a small tmpfs")
async def test_really_full_saves_folder(tmp_path, open_terminal, caplog):
    caplog.set_level(logging.INFO)
    saves = tmp_path / "saves"
    saves.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(saves)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    gs = None
    try:
        gs = await start_game_server(tmp_path)
        filler = saves / "filler"
        with open(filler, "wb") as f:  # fill the filesystem to the last byte
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError as e:
                assert e.errno == errno.ENOSPC
        key = asyncssh.generate_private_key("ssh-ed25519")
        fp = key.get_fingerprint("sha256")
        table, a = await solo_game(gs, open_terminal, key)
        await a.wait_for("cannot be saved", timeout=10)
        assert table.save_problem and "full" in table.save_problem
        rng = random.Random(2)
        await moves(gs, table, a, fp, 3, rng)  # the game goes on
        assert table.state.seq >= 3
        filler.unlink()
        a.mark()
        await moves(gs, table, a, fp, 1, rng)
        await a.wait_for("saved again", timeout=10)
        assert (saves / f"{table.id}.save").exists()
    finally:
        if gs is not None:
            await gs.close()
        await asyncio.sleep(0.1)
        subprocess.run(["umount", "-l", str(saves)], capture_output=True)


async def test_creator_saves_to_a_file_that_only_its_players_see(tmp_path, open_terminal):
    # Issue 18 changed this test: a stranger (carl) loaded alice's export here before; now it is
    # invisible to him and refused by name. Loading by its owner: tests/server/test_service_saves.py.
    gs = await start_game_server(tmp_path)
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        fp = key.get_fingerprint("sha256")
        table, a = await solo_game(gs, open_terminal, key)
        await moves(gs, table, a, fp, 2, random.Random(3))
        a.mark()
        a.send(b"\x11")  # Ctrl+Q: the table menu
        await a.wait_for("Save the game to a file")
        a.send(b"4\r")  # Back, Lobby, Spectators may write, Save…, Quit: a number goes to a row, Enter does it
        await a.wait_for("Save the game as")  # the name's prompt is open: what follows is typed into it
        a.send(b"mygame\r")
        await a.wait_for("Saved.", timeout=10)
        path = tmp_path / "saves" / "exports" / "mygame.save"
        saved = loads(path.read_bytes())  # a checked save (its log replays to its state)
        assert saved.seats[table.seat_of(fp)].key == fp
        assert saved.owners == [fp]
        c = Screen(
            await open_terminal(
                gs.server, username="carl", key=asyncssh.generate_private_key("ssh-ed25519"), size=(120, 40)
            )
        )
        screen = await c.wait_for("Change your name")
        await c.pump(0.3)
        assert "Load a saved game" not in c.text() and "Load a saved game" not in screen
        carl = next(s for s in gs.lobby.sessions if s.name == "carl")
        assert carl.saved_games() == []
        assert carl.load_saved("mygame") == "No saved game of yours has this name."
        assert len(gs.lobby.tables) == 1
    finally:
        await gs.close()
