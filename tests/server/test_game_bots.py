"""Bots at a table: each has its own name (of its own style while styles last), marked "(bot)" once, in the
lobby's room and in the game's player names (what the table screen shows)."""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest
from game_helpers import Screen, create_table, start_game_server, wait_until

from engine.bots.styles import NAMES
from server.config import ServerConfig
from server.lobby.lobby import BOT_MARK, Lobby, TableSpec, bot_style


class FakeSession:
    def __init__(self, key: str, name: str) -> None:
        self.key, self.name, self.guest = key, name, False
        self.table = self.seat = None
        self.at_table = False

    def post(self, message) -> None:
        pass

    def enter_table(self, table, seat) -> None:
        self.at_table = True


def check_bot_names(seats) -> None:
    bots = [s for s in seats if s.bot is not None]
    names = [s.name for s in seats]
    assert len(set(names)) == len(names), names
    for s in bots:
        assert s.name.endswith(BOT_MARK) and s.name.count("(bot)") == 1, s.name
        base = s.name[: -len(BOT_MARK)]
        assert base in NAMES[s.style] and bot_style(s.name) == s.style, (s.name, s.style)
        assert base not in names, names  # not the name of a person at the table either
    styles = [s.style for s in bots]
    assert len(set(styles)) == min(len(styles), len(NAMES)), styles  # no style twice while others are left


@pytest.mark.slow  # a sweep: 60 tables of 3 to 8 seats created and started (the names over SSH below stay in the fast tier)
async def test_bots_get_distinct_names_and_styles_marked_once():
    lobby = Lobby(ServerConfig(port=0, bot_delay_seconds=0.0))  # no store: nothing on disk
    try:
        for round_ in range(60):
            players = 3 + round_ % 6  # 3 to 8 seats: 7 bots when there are only 5 styles
            owner = FakeSession(f"k{round_}", "Clara")  # a person with a bot's name
            lobby.sessions.add(owner)
            t = lobby.create(
                owner,
                TableSpec(
                    name="", players=players, rules="2016", lineup="first-game", bots=players - 1, bot_kind="normal"
                ),
            )
            check_bot_names(t.seats)
            # a bot removed and another added: still distinct
            lobby.remove(owner, players - 1)
            lobby.add_bot(owner)
            check_bot_names(t.seats)
            lobby.start(owner)
            await wait_until(lambda: t.state is not None, what="game start")
            assert [p.name for p in t.state.players] == [s.name for s in t.seats]
            await t.stop()
            lobby.tables.pop(t.id)
            lobby.sessions.discard(owner)
    finally:
        await lobby.close()


async def test_bot_names_in_the_room_and_at_the_table_over_ssh(tmp_path, open_terminal):
    gs = await start_game_server(tmp_path)
    try:
        a = Screen(
            await open_terminal(
                gs.server, username="alice", key=asyncssh.generate_private_key("ssh-ed25519"), size=(120, 40)
            )
        )
        await a.wait_for("Citadels · lobby")
        await create_table(a, players=4, bots=3)
        table = gs.table()
        bots = [s.name for s in table.seats if s.bot]
        assert len(bots) == 3
        check_bot_names(table.seats)
        text = await a.wait_for(bots[-1])
        await asyncio.sleep(0.2)
        await a.pump(0.2)
        text = a.text()
        assert "(bot) (bot)" not in text and not re.search(r"\(bot\) \d", text), text[-800:]
        for name in bots:
            assert name in text
        a.mark()
        a.send(b"1")  # Start the game
        await wait_until(lambda: table.phase == "playing", what="game start")
        assert [p.name for p in table.state.players] == [s.name for s in table.seats]
        for name in bots:
            await a.wait_for(name)
        assert "(bot) (bot)" not in a.text()
    finally:
        await gs.close()
