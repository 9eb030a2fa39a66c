"""A person's own quick input is handed over as it comes (the server's fair-input defaults).

Found playing a whole game: with a budget of 0.3 s at once and 0.5 % of a core, a person pressing
Tab five times a second at a 120x40 table was held after a dozen keys and saw the last one
handled five seconds after they stopped; at ten a second, keys were still arriving a minute and
a half later. The defaults must pay for a person's bursts: quick presses, then a held key (a
terminal repeats it ~30 times a second), on the most expensive screen there is.
"""

from __future__ import annotations

import time

import pytest
from game_helpers import create_table, wait_until
from players_helpers import lobby, new_key, press, start_players_server

from server.config import ServerConfig

TAB = b"\t"
DEFAULTS = ServerConfig()

pytestmark = pytest.mark.slow


def _stats(gs, user: str) -> dict:
    return next(s for s in gs.server.session_stats() if s["user"] == user)


async def test_quick_keys_and_a_held_key_at_a_large_table_are_handed_over_as_they_come(tmp_path, open_terminal):
    gs = await start_players_server(  # fair input as shipped
        tmp_path,
        input_cpu_share=DEFAULTS.input_cpu_share,
        key_rate_per_second=DEFAULTS.key_rate_per_second,
        key_burst=DEFAULTS.key_burst,
    )
    try:
        ka = new_key()
        a = await lobby(open_terminal, gs, ka, "ana", size=(120, 40))
        await create_table(a, players=4, bots=3)
        await press(gs, ka, a, "Start the game")
        table = gs.table()
        await wait_until(lambda: table.phase == "playing", what="game start")
        await a.pump(1.0)
        before = _stats(gs, "ana")
        sent = 0
        # Quick presses (10 a second for 2 s), then a held key (30 a second for 2 s).
        for rate, seconds in ((10, 2), (30, 2)):
            t0 = time.monotonic()
            for i in range(rate * seconds):
                a.send(TAB)
                sent += 1
                due = t0 + (i + 1) / rate
                while time.monotonic() < due:
                    await a.pump(max(0.001, due - time.monotonic()))
        # Every key is handed to the app within moments of the last (held input used to trickle
        # out for minutes), none dropped, and the session's own budget never ran out.
        deadline = time.monotonic() + 10
        while _stats(gs, "ana")["input_handed"] - before["input_handed"] < sent and time.monotonic() < deadline:
            await a.pump(0.05)
        after = _stats(gs, "ana")
        assert after["input_handed"] - before["input_handed"] >= sent, (before, after)
        assert after["keys_dropped"] == before["keys_dropped"], (before, after)
        assert after["input_budget_left_s"] > 0, after
    finally:
        await gs.close()


async def test_the_input_notices_speak_the_players_language(tmp_path, open_terminal):
    # A key bucket of 5: the sixth key at once is dropped and the player told, in Spanish (LANG).
    gs = await start_players_server(tmp_path, key_burst=5, key_rate_per_second=1.0)
    try:
        term = await open_terminal(gs.server, username="ana", size=(100, 30), env={"LANG": "es_ES.UTF-8"})
        await term.wait_for("Nueva mesa")
        term.mark()
        term.send(b"\x1b[B" * 20)  # Down, twenty times at once
        await term.wait_for("Escribes", timeout=10)
        assert "typing faster" not in term.text()
    finally:
        await gs.close()
