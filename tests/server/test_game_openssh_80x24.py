"""A whole game at 80x24 through OpenSSH's `ssh` in tmux: two people (two panes, two keys) and two
bots, from the lobby to the final scores, every decision taken by keys. On every screen where one of
them decides, the pane (tmux capture-pane: what the terminal shows) holds their whole hand in the
"Your hand" panel (every card, as often as held), their gold, and the prompt's choices; at the end the
scores and their choices."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import time
import uuid

import pytest
from game_helpers import key_path, prompt_ready, start_game_server

from ui.cards import district_label
from ui.i18n import Catalogue
from ui.prompt_model import build_menu
from ui.widgets.prompt import PromptPanel

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
    def __init__(self, socket: str, name: str) -> None:
        self.socket, self.name = socket, name

    async def tmux(self, *args: str, check: bool = True) -> str:
        return await run("tmux", "-L", self.socket, *args, check=check)

    async def capture(self) -> str:
        return await self.tmux("capture-pane", "-p", "-t", self.name)

    async def keys(self, *keys: str) -> None:
        await self.tmux("send-keys", "-t", self.name, *keys)

    async def text(self, text: str) -> None:
        await self.tmux("send-keys", "-l", "-t", self.name, text)

    async def wait_for(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = await self.capture()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on pane {self.name} within {timeout}s:\n{screen}")
            await asyncio.sleep(0.1)


def hand_panel(screen: str, cat: Catalogue) -> str:
    """The rows of the "Your hand" panel, left of the prompt's bar."""
    rows = screen.split("\n")
    title = cat.t("ui.your_hand")
    start = next(i for i, r in enumerate(rows) if "─" + title in r)
    end = next((i for i in range(start + 1, len(rows)) if "─" + cat.t("ui.log") in rows[i]), len(rows) - 1)
    out = []
    for r in rows[start + 1 : end]:
        bar = min((r.find(c) for c in "▏┌│" if c in r), default=len(r))
        out.append(r[:bar])
    return "\n".join(out)


def decision_screen_problems(screen: str, cat: Catalogue, me, menu) -> list[str]:
    """What the screen of a decision lacks: hand cards (as often as held), the gold, a choice."""
    problems = []
    try:
        hand = hand_panel(screen, cat)
    except StopIteration:
        return ["no hand panel"]
    cards = me.hand or []
    for card in set(cards):
        label = district_label(cat, card)
        if hand.count(label) < cards.count(card):
            problems.append(f"hand card {label}")
    if cat.t("ui.gold_n", n=me.gold) not in hand:
        problems.append("gold")
    for i, e in enumerate(menu.entries[:10]):
        if e.label.plain.strip()[:12] not in screen:
            problems.append(f"choice {i + 1}")
    return problems


@pytest.mark.slow  # a whole game through OpenSSH's client in tmux
async def test_two_people_and_bots_play_a_whole_game_at_80x24(tmp_path):
    gs = await start_game_server(tmp_path)
    socket = f"t17-layout-{uuid.uuid4().hex[:8]}"
    panes = {name: Pane(socket, name) for name in ("alice", "bob")}
    try:
        keys = {}
        for name, pane in panes.items():
            key = tmp_path / f"id_{name}"
            await run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key))
            keys[name] = key
            ssh = (
                f"ssh -F /dev/null -p {gs.server.port} -i {key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no "
                f"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -t {name}@127.0.0.1"
            )
            await pane.tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", ssh)
            await pane.wait_for("Citadels · lobby")
        a, b = panes["alice"], panes["bob"]
        # alice: New table, 4 players, 2 bots, create
        await a.keys("1")
        await a.wait_for("New table")
        await a.keys("Down", "Down", "Down", "Down", "Right", "Right")
        await a.wait_for("Bots: ‹ 2 ›")
        await a.keys("End", "Up", "Enter")
        await a.wait_for("(bot)")
        # bob takes the open seat
        await b.wait_for("alice's table")
        await b.keys("1")
        await b.wait_for("Take a seat")
        await b.keys("1")
        await b.wait_for("Waiting for the creator")
        await a.wait_for("Start the game")
        await a.keys("1")
        table = gs.table()
        deadline = time.monotonic() + 20
        while table.phase != "playing":
            assert time.monotonic() < deadline, "the game did not start"
            await asyncio.sleep(0.05)
        cat = Catalogue("en")
        sessions = {s.name: s for s in gs.lobby.sessions}
        seats = {table.seat_of(sessions[n].key): (n, sessions[n].key) for n in panes}
        rng = random.Random(7)
        checked = 0
        deadline = time.monotonic() + 240
        while table.state.phase != "over":
            assert time.monotonic() < deadline, f"game not over (seq {table.state.seq})"
            st = table.state
            if st.pending.seat not in seats:
                await asyncio.sleep(0.02)
                continue
            name, key = seats[st.pending.seat]
            app = gs.app_of(key)
            if not prompt_ready(app, st.seq):
                await asyncio.sleep(0.02)
                continue
            pane = panes[name]
            menu = build_menu(app.view, cat)
            me = app.view.players[app.view.seat]
            # the screen for this decision (drawn once the view has reached the terminal): the whole hand,
            # the gold and every choice
            t0 = time.monotonic()
            while True:
                screen = await pane.capture()
                problems = decision_screen_problems(screen, cat, me, menu)
                if not problems:
                    break
                assert time.monotonic() - t0 < 10, f"{problems} at 80x24:\n{screen}"
                await asyncio.sleep(0.1)
            checked += 1
            command_keys, _cmd = key_path(app.view, cat, rng, app.table.query_one(PromptPanel).numbers)
            seq = st.seq
            await pane.text(command_keys.decode())
            t0 = time.monotonic()
            while table.state.seq == seq:
                assert time.monotonic() - t0 < 15, await pane.capture()
                await asyncio.sleep(0.02)
        assert checked > 20
        for pane in panes.values():
            screen = await pane.wait_for("Final scores")
            assert "Play again with the same seats" in screen and "Back to the lobby" in screen
    finally:
        await panes["alice"].tmux("kill-server", check=False)
        await gs.close()
