"""Small helpers for the cluster tests: waiting for a watched condition, a game to log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from engine import GameState, apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.commands import Command
from engine.savefile import Save, new_save
from server.cluster.leases import LeaseManager, LostHandler
from server.cluster.nodes import NodeRegistry
from tests.saves.games import T0, first_game, seats_for

T = TypeVar("T")


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> float:
    """Poll until ``predicate()``; the seconds it took. AssertionError after ``timeout``."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what} not reached within {timeout} s")
        await asyncio.sleep(0.01)
    return time.monotonic() - start


async def lease_manager(conn, on_lost: LostHandler | None = None) -> LeaseManager:
    """A node's leases, held by its heartbeat: a started NodeRegistry on the same connection
    (stopped by the ``connect`` fixture when the test ends)."""
    registry = await NodeRegistry(conn).start()
    conn.test_registries = [*getattr(conn, "test_registries", []), registry]
    return LeaseManager(conn, registry, on_lost)


def pause_node(leases: LeaseManager) -> None:
    """As if the node were killed or paused: its heartbeat stops, nothing is deleted; its key (and
    with it every lease it holds) lapses ``node_ttl_seconds`` later."""
    task = leases.registry._task
    assert task is not None
    task.cancel()


def new_table(table_id: str = "t1", players: int = 4, seed: int = 1) -> Save:
    cfg = first_game(players, seed=seed)
    g, _ = new_game(cfg)
    return new_save(table_id, cfg, seats_for(cfg), g, created=T0)


class Bots:
    """Random bots choosing the next command of a game (deterministic by seed)."""

    def __init__(self, players: int, seed: int = 0) -> None:
        self.bots = [RandomBot(seed * 10 + s) for s in range(players)]

    def next(self, g: GameState) -> Command:
        seat = g.pending.seat
        return self.bots[seat].choose(legal_commands(g, seat))

    def step(self, g: GameState) -> Command:
        """Choose and apply one command; return it."""
        cmd = self.next(g)
        apply(g, cmd)
        return cmd


async def take_when_lapsed(manager, table_id: str, timeout: float = 5.0):
    """Acquire the table's lease as soon as the server lets the current one lapse."""
    start = time.monotonic()
    while True:
        lease = await manager.acquire(table_id)
        if lease is not None:
            return lease
        if time.monotonic() - start > timeout:
            raise AssertionError(f"the lease of {table_id} did not lapse within {timeout} s")
        await asyncio.sleep(0.05)


async def retry(attempt: Callable[[], Awaitable[T]], timeout: float = 10.0, what: str = "call") -> T:
    """``await attempt()`` until it does not raise (NATS coming back); its result."""
    start = time.monotonic()
    while True:
        try:
            return await attempt()
        except Exception:
            if time.monotonic() - start > timeout:
                raise
            await asyncio.sleep(0.1)
