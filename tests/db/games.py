"""Finished games played by the engine's random bots (real games, real logs) and records of them
with the players a test chooses at each seat."""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta

from engine import GameConfig, apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.commands import Command
from engine.state import GameState
from server.players.game_record import GameRecord, game_record

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@functools.cache
def finished(seed: int = 1, players: int = 4, rules: str = "2016") -> tuple[GameConfig, GameState, tuple[Command, ...]]:
    cfg = GameConfig(players=[f"P{i + 1}" for i in range(players)], rules=rules, seed=seed)
    g, _ = new_game(cfg)
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    log: list[Command] = []
    while g.phase != "over":
        seat = g.pending.seat
        cmd = bots[seat].choose(legal_commands(g, seat), None)
        apply(g, cmd)
        log.append(cmd)
    return cfg, g, tuple(log)


def ranking(seed: int = 1, players: int = 4, rules: str = "2016") -> list[int]:
    """The seats of that game, best place first."""
    rec = record("x", [None] * players, seed=seed, rules=rules)
    return [s.seat for s in sorted(rec.seats, key=lambda s: (s.place, s.seat))]


def record(
    uid: str,
    player_ids: list[int | None],
    *,
    seed: int = 1,
    rules: str = "2016",
    bots: list[str | None] | None = None,
    bot_shares: list[float] | None = None,
    minutes: int = 0,
) -> GameRecord:
    """A record of game `seed` (as many seats as `player_ids`), ending `minutes` after T0."""
    cfg, g, log = finished(seed, len(player_ids), rules)
    end = T0 + timedelta(minutes=minutes)
    return game_record(
        uid,
        cfg,
        g,
        list(log),
        player_ids=player_ids,
        bots=bots or [None] * len(player_ids),
        bot_shares=bot_shares,
        started_at=end - timedelta(minutes=30),
        finished_at=end,
    )


def seat_players(seed: int, order: list[int], players: int | None = None, rules: str = "2016") -> list[int | None]:
    """Player ids per seat so that order[0] takes the best place of game `seed`, order[1] the next..."""
    n = players or len(order)
    ids: list[int | None] = [None] * n
    for seat, pid in zip(ranking(seed, n, rules), order):
        ids[seat] = pid
    return ids
