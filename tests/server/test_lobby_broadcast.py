"""A lobby broadcast draws each table's row once, not once per session in the lobby (a few hundred
sessions in the lobby made one broadcast a 354 ms loop step at 1,000 players), and every session still
gets what it may see: a private table only where it has a seat, its own tables marked.

A real lobby and real tables (no store: nothing on disk); the sessions record what the lobby posts them."""

from __future__ import annotations

from game_helpers import wait_until

from server.config import ServerConfig
from server.lobby.lobby import Lobby, TableSpec
from ui.lobby_link import LobbyUpdate


class Watcher:
    """A session in the lobby as the lobby sees it: records each lobby update."""

    def __init__(self, key: str, name: str) -> None:
        self.key, self.name, self.guest = key, name, False
        self.table = self.seat = None
        self.at_table = False
        self.updates: list[LobbyUpdate] = []

    def post(self, message) -> None:
        if isinstance(message, LobbyUpdate):
            self.updates.append(message)

    def enter_table(self, table, seat) -> None:
        self.at_table = True


async def test_a_broadcast_draws_each_row_once_and_each_session_sees_its_own(monkeypatch):
    lobby = Lobby(ServerConfig(port=0, bot_delay_seconds=0.0))
    creators = [Watcher(f"SHA256:c{i}", f"C{i}") for i in range(4)]
    for i, c in enumerate(creators):
        lobby.sessions.add(c)
        lobby.create(c, TableSpec(name=f"t{i}", players=3, rules="2016", lineup="first-game", private=i == 0))
    joiner = Watcher("SHA256:j", "J")
    lobby.sessions.add(joiner)
    lobby.join(joiner, creators[1].table.id)
    players = [Watcher(f"SHA256:p{i}", f"P{i}") for i in range(2)]
    lobby.sessions.update(players)
    started = creators[2].table
    for p in players:
        lobby.join(p, started.id)
    lobby.start(creators[2])
    await wait_until(lambda: started.phase == "playing", what="the full table started")
    for p in [creators[2], *players]:  # their screens go to the table; the lobby still draws them a snapshot
        p.at_table = False
    crowd = [Watcher(f"SHA256:w{i}", f"W{i}") for i in range(60)]
    lobby.sessions.update(crowd)

    drawn = []
    row = lobby.row
    monkeypatch.setattr(lobby, "row", lambda t, key: drawn.append(t.id) or row(t, key))
    if lobby._broadcast_handle is not None:
        lobby._broadcast_handle.cancel()
    lobby._broadcast()
    # one row per table, and one per room (the creators' and the joiner's rooms show their table)
    assert len(drawn) <= 4 + 5, len(drawn)

    private, joined = creators[0].table.id, creators[1].table.id
    for w in crowd:
        rows = w.updates[-1].snapshot.tables
        assert [r.id for r in rows if r.yours] == []
        assert private not in {r.id for r in rows}  # a stranger never sees a private table
        assert len(rows) == 3
    mine = {r.id: r.yours for r in creators[0].updates[-1].snapshot.tables}
    assert mine[private] is True and len(mine) == 4
    theirs = {r.id: r.yours for r in joiner.updates[-1].snapshot.tables}
    assert theirs == {t.id: t.id == joined for t in lobby.tables.values() if t.id != private}
    assert all(w.updates[-1].snapshot.tables == crowd[0].updates[-1].snapshot.tables for w in crowd)
    assert {w.updates[-1].snapshot.playing for w in crowd + [joiner, creators[0]]} == {None}
    for p in [creators[2], *players]:  # where "Back to your game" takes them
        assert p.updates[-1].snapshot.playing == started.id
