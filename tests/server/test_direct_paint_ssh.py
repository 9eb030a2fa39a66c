"""ui/compat/direct_paint.py through a real SSH connection: a player at a table of bots, the
screen's bytes as the client received them fed to a terminal model (tests/ui/term_screen.py);
whenever the game waits for the player, a full repaint of the app must change no cell of it. The
views come in as the server sends them: dispatched to an app waiting for one without waking its
task (ui/compat/direct_messages.py, ServerApp.take_now), in the loop's next step, never within the
step of whoever posted them (the poster finishes first, as when the app's task took them: the end
screen reads the table's phase, set after the last view is posted, tests/server/test_game_end.py)."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import asyncssh
import pytest
from game_helpers import Screen, app_keys, create_table, prompt_ready, start_game_server, started_with_bots, wait_until

from engine.view import view
from server.tables import messages as tm
from ui.compat import direct_messages, direct_paint
from ui.i18n import Catalogue

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ui"))
from term_screen import TermScreen


@pytest.fixture
async def gs(tmp_path):
    server = await start_game_server(tmp_path)
    yield server
    await server.close()


async def _read_into(screen: Screen, model: TermScreen, seen: list[int], quiet: float = 0.15) -> None:
    """Read the client's output until it is quiet for `quiet` seconds; feed the new bytes to the model."""
    while True:
        before = len(screen.raw)
        if not await screen.term.read_some(quiet) or len(screen.raw) == before:
            break
    raw = bytes(screen.raw)
    model.feed(raw[seen[0] :].decode("utf-8"))
    seen[0] = len(raw)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_direct_paints_over_ssh_match_a_full_repaint(gs, open_terminal, size):
    key = asyncssh.generate_private_key("ssh-ed25519")
    a = Screen(await open_terminal(gs.server, username="alice", key=key, size=size))
    await a.wait_for("Citadels · lobby")
    await create_table(a, players=4, bots=3)
    await a.wait_for("Start the game")
    painted = direct_paint.STATS["direct"]
    taken = direct_messages.STATS["taken"]
    a.send(b"1")
    table = gs.table()
    await wait_until(lambda: table.phase == "playing", what="game start")
    fingerprint = key.get_fingerprint("sha256")
    model, seen = TermScreen(*size), [0]
    rng = random.Random(5)
    cat = Catalogue("en")
    checked = 0
    deadline = asyncio.get_running_loop().time() + 60
    while checked < 12 and table.state.phase != "over":
        assert asyncio.get_running_loop().time() < deadline, f"stuck after {checked} decisions:\n{model.text()}"
        seq = table.state.seq
        app = gs.app_of(fingerprint)
        if table.state.pending.seat != table.seat_of(fingerprint) or not prompt_ready(app, seq):
            await _read_into(a, model, seen, quiet=0.02)
            continue
        await _read_into(a, model, seen)
        before = model.snapshot()
        app.call_later(app.screen.refresh)  # the whole screen drawn again by Textual
        await _read_into(a, model, seen)
        assert model.snapshot() == before, f"decision {checked}: a full repaint changed the screen:\n{model.text()}"
        checked += 1
        a.send(app_keys(app, cat, rng))
        await wait_until(lambda: table.state.seq != seq or table.state.phase == "over", timeout=10)
    assert checked >= 5
    assert direct_paint.STATS["direct"] > painted  # the moves in between were painted directly
    assert direct_messages.STATS["taken"] > taken  # and their views taken without waking the app (ServerApp.take_now)
    assert "alice" in model.text()
    await asyncio.sleep(0)


async def test_a_view_is_taken_in_the_next_step_not_the_posters(gs, open_terminal):
    key = asyncssh.generate_private_key("ssh-ed25519")
    table, a = await started_with_bots(gs, open_terminal, key, (80, 24), bots=2)
    app = gs.app_of(key.get_fingerprint("sha256"))
    await wait_until(lambda: app.view is not None and direct_messages.idle(app), what="the app waiting")
    seat = table.seat_of(key.get_fingerprint("sha256"))
    before, taken = app.view, direct_messages.STATS["taken"]
    app.session.post(tm.SeatView(view(table.state, seat), []))
    assert app.view is before  # not within the poster's step
    await asyncio.sleep(0)
    assert app.view is not before  # the next step: taken, the app's task not woken for it
    assert direct_messages.STATS["taken"] > taken  # (a bot's view may have been waiting for the same step)
    # a message posted while a view waits for its step is taken after it, in the order posted
    seen: list[object] = []  # (the app's messages as dispatched: ours among the bots' views)
    app.message_signal.subscribe(
        app, lambda m: seen.append(getattr(m, "view", getattr(m, "reason", None))), immediate=True
    )
    second = view(table.state, seat)
    app.session.post(tm.SeatView(second, []))
    app.session.post(tm.Refused("not now"))
    await wait_until(lambda: "not now" in seen, what="the refusal dispatched")
    assert any(v is second for v in seen[: seen.index("not now")])
