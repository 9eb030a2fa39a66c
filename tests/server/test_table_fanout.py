"""A table's fan-out yields to the loop between sessions, and shares a view only among spectators.

Real tables and a real lobby (no store: nothing on disk); the sessions record what the table posts
them and the loop iteration it came in (counted by a task that yields once per iteration), so the
bounds are in loop iterations, not wall time."""

from __future__ import annotations

import asyncio

from game_helpers import wait_until

from engine import view
from server.config import ServerConfig
from server.lobby.lobby import Lobby, TableSpec
from server.tables.fanout import SESSIONS_PER_ITERATION
from server.tables.messages import SeatView

SPECTATORS = 200


class Recorder:
    """A session as the table sees it: records each view with the loop iteration it arrived in."""

    def __init__(self, key: str, name: str, clock: dict) -> None:
        self.key, self.name, self.guest = key, name, False
        self.table = self.seat = None
        self.at_table = False
        self.clock = clock
        self.views: list[tuple[int, SeatView]] = []

    def post(self, message) -> None:
        if isinstance(message, SeatView):
            self.views.append((self.clock["iteration"], message))

    def enter_table(self, table, seat) -> None:
        self.at_table = True


async def count_iterations(clock: dict) -> None:
    while True:
        clock["iteration"] += 1
        await asyncio.sleep(0)


async def seated_table(lobby: Lobby, clock: dict, name: str, spectators: int):
    players = [Recorder(f"{name}-p{i}", f"P{i}", clock) for i in range(3)]
    for p in players:
        lobby.sessions.add(p)
    t = lobby.create(players[0], TableSpec(name=name, players=3, rules="2016", lineup="first-game"))
    for p in players[1:]:
        lobby.join(p, t.id)
    lobby.start(players[0])
    await wait_until(lambda: t.state is not None, what=f"{name} started")
    for i, p in enumerate(players):
        t.attach(p, i)
    watchers = [Recorder(f"{name}-w{i}", f"W{i}", clock) for i in range(spectators)]
    for b in range(0, spectators, 20):  # in batches: the table's mailbox is bounded
        for w in watchers[b : b + 20]:
            t.attach(w, None)
        await wait_until(lambda: all(w.views for w in watchers[b : b + 20]), what="spectators attached")
    everyone = players + watchers
    await wait_until(lambda: all(r.views for r in everyone), what=f"{name}'s first views")
    return t, players, watchers


def move(t, players) -> None:
    seat = t.state.pending.seat
    t.submit(players[seat], view(t.state, seat).legal[0])


async def test_a_crowded_tables_fan_out_does_not_hold_another_tables_move():
    lobby = Lobby(ServerConfig(port=0, bot_delay_seconds=0.0))
    clock = {"iteration": 0}
    counter = asyncio.create_task(count_iterations(clock))
    try:
        big, big_players, watchers = await seated_table(lobby, clock, "crowded", SPECTATORS)
        small, small_players, _ = await seated_table(lobby, clock, "small", 0)
        big_all, small_all = big_players + watchers, small_players
        before_big = {id(r): len(r.views) for r in big_all}
        before_small = {id(r): len(r.views) for r in small_all}
        seq_big, seq_small = big.state.seq, small.state.seq
        move(big, big_players)  # the crowded table's move first: it would go first in every iteration
        move(small, small_players)
        submitted = clock["iteration"]
        await wait_until(
            lambda: (
                all(len(r.views) > before_big[id(r)] for r in big_all)
                and all(len(r.views) > before_small[id(r)] for r in small_all)
            ),
            what="both moves shown",
        )
        assert big.state.seq > seq_big and small.state.seq > seq_small
        big_new = [it for r in big_all for it, _ in r.views[before_big[id(r)] :]]
        small_new = [it for r in small_all for it, _ in r.views[before_small[id(r)] :]]
        # A few sessions of a table per loop iteration: never a burst of all its apps woken at once.
        per_iteration: dict[int, int] = {}
        for it in big_new:
            per_iteration[it] = per_iteration.get(it, 0) + 1
        assert max(per_iteration.values()) <= SESSIONS_PER_ITERATION, max(per_iteration.values())
        assert len(big_new) == len(big_all)
        # The small table (3 seats) is told in one iteration, as before.
        assert len(set(small_new)) == 1, small_new
        # Its move reached all its seats within a few iterations of its key, long before the crowded
        # table had reached its 203 sessions (at least 203 / 8 iterations).
        slices = len(big_all) // SESSIONS_PER_ITERATION
        assert max(small_new) - submitted <= 8, (max(small_new) - submitted, small_new)
        assert max(small_new) < max(big_new) - slices // 2, (max(small_new), max(big_new))
    finally:
        counter.cancel()
        await lobby.close()


async def test_spectators_share_one_view_and_seats_get_their_own():
    lobby = Lobby(ServerConfig(port=0, bot_delay_seconds=0.0))
    clock = {"iteration": 0}
    counter = asyncio.create_task(count_iterations(clock))
    try:
        t, players, watchers = await seated_table(lobby, clock, "shared", 5)
        counts = {id(r): len(r.views) for r in players + watchers}
        move(t, players)
        await wait_until(lambda: all(len(r.views) > counts[id(r)] for r in players + watchers), what="the move shown")
        state = t.state
        spectator_messages = [w.views[-1][1] for w in watchers]
        # the spectators' one message: the same object for all, a spectator's view of the state
        assert all(m is spectator_messages[0] for m in spectator_messages)
        assert spectator_messages[0].view == view(state, None)
        seat_messages = [p.views[-1][1] for p in players]
        for seat, m in enumerate(seat_messages):
            assert m.view == view(state, seat)  # exactly what that seat may know
            assert m is not spectator_messages[0] and m.view is not spectator_messages[0].view
            assert all(m.view is not other.view for j, other in enumerate(seat_messages) if j != seat)
        # a spectator sees no hand; each seat sees its own hand and no other
        assert spectator_messages[0].view.seat is None
        assert all(p.hand is None for p in spectator_messages[0].view.players)
        for seat, m in enumerate(seat_messages):
            assert [p.hand is not None for p in m.view.players] == [i == seat for i in range(len(players))]
    finally:
        counter.cancel()
        await lobby.close()
