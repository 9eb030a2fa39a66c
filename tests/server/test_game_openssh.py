"""OpenSSH's `ssh` in a tmux pane against the server: create a table with a bot from the lobby and play
a turn by keys, reading the screen with capture-pane."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import time
import uuid

import pytest
from game_helpers import app_keys, prompt_ready, start_game_server

from ui.i18n import Catalogue
from ui.prompt_model import build_menu

pytestmark = pytest.mark.skipif(
    not (shutil.which("ssh") and shutil.which("tmux") and shutil.which("ssh-keygen")),
    reason="needs OpenSSH's ssh and ssh-keygen and tmux on PATH",
)


async def run(*args: str, check: bool = True) -> str:
    # In a thread, not the loop's subprocess: under uvloop the tmux server that `new-session` starts
    # keeps the pipes of the command that started it, and `communicate()` would wait for it to exit.
    done = await asyncio.to_thread(subprocess.run, args, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
    if check and done.returncode:
        raise AssertionError(f"{args[:3]} failed: {done.stderr.decode()}")
    return done.stdout.decode("utf-8", "replace")


class Pane:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    async def tmux(self, *args: str, check: bool = True) -> str:
        return await run("tmux", "-L", self.socket, *args, check=check)

    async def capture(self) -> str:
        return await self.tmux("capture-pane", "-p", "-t", "game")

    async def keys(self, *keys: str) -> None:
        await self.tmux("send-keys", "-t", "game", *keys)

    async def wait_for(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = await self.capture()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on the pane within {timeout}s:\n{screen}")
            await asyncio.sleep(0.1)


@pytest.mark.slow  # end to end: OpenSSH's client in tmux
async def test_openssh_in_tmux_creates_a_table_and_plays_a_turn(tmp_path):
    gs = await start_game_server(tmp_path)
    pane = Pane(f"citadels-test-{uuid.uuid4().hex[:8]}")
    try:
        key = tmp_path / "id_ed25519"
        await run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key))
        ssh = (
            f"ssh -F /dev/null -p {gs.server.port} -i {key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no "
            f"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -t alice@127.0.0.1"
        )
        await pane.tmux("new-session", "-d", "-s", "game", "-x", "110", "-y", "36", ssh)
        await pane.wait_for("Citadels · lobby")
        await pane.keys("1")  # New table…
        await pane.wait_for("New table")
        # Players 4 -> 2; Bots 0 -> 1; then "Create the table" (the item before Back)
        await pane.keys("Down", "Left", "Left", "Down", "Down", "Down", "Right")
        screen = await pane.wait_for("Bots: ‹ 1 ›")
        assert "Players: ‹ 2 ›" in screen
        await pane.keys("End", "Up", "Enter")
        await pane.wait_for("Start the game")
        await pane.keys("1")
        await pane.wait_for("Your hand")
        table = gs.table()
        fp = next(iter(gs.lobby.sessions)).key
        seat = table.seat_of(fp)
        cat = Catalogue("en")
        rng = random.Random(1)
        # play by keys until alice has played a whole turn of the turns phase
        played_turn = False
        deadline = time.monotonic() + 60
        while not played_turn:
            assert time.monotonic() < deadline, await pane.capture()
            st = table.state
            if st.pending.seat != seat or not prompt_ready(gs.app_of(fp), st.seq):
                await asyncio.sleep(0.05)
                continue
            app = gs.app_of(fp)
            menu = build_menu(app.view, cat)
            first = menu.entries[0].label.plain[:12]
            await pane.wait_for(first)  # the pane shows the choices before we choose
            keys = app_keys(app, cat, rng)
            in_turn = st.phase == "turns" and st.turn is not None and st.turn.seat == seat
            seq = st.seq
            await pane.keys(*[k for k in keys.decode()])
            t0 = time.monotonic()
            while table.state.seq == seq:
                assert time.monotonic() - t0 < 10, await pane.capture()
                await asyncio.sleep(0.05)
            now = table.state
            if in_turn and (now.turn is None or now.turn.seat != seat):
                played_turn = True
        screen = await pane.capture()
        assert "Round" in screen or "Ronda" in screen
    finally:
        await pane.tmux("kill-server", check=False)
        await gs.close()
