"""Simulated play: bots play whole games; every command is checked against the invariants.

Pure and synchronous; `citadels sim` prints what `run` returns as one JSON line.
"""
from __future__ import annotations

import time
from typing import Callable

from msgspec import Struct, field

from .apply import apply
from .bots.random_bot import RandomBot
from .invariants import check, expected_cards
from .legal import legal_commands
from .setup import GameConfig, new_game
from .state import GameState

MAX_COMMANDS = 20_000  # a game longer than this is reported as not ending


class SimResult(Struct):
    games: int
    players: int
    seconds: float
    games_per_second: float
    commands: int
    commands_per_second: float
    mean_rounds: float
    mean_score: float
    max_score: int
    invariants: list[str] = field(default_factory=lambda: [
        "cards conserved", "gold never negative", "one crown", "no character held twice", "game ends",
        "legal list never empty while a decision is pending"])
    invariant_checks: int = 0
    failures: list[str] = field(default_factory=list)
    lineups: list[list[str]] = field(default_factory=list)


def play_game(g: GameState, bots: list, check_every: bool = True, on_command: Callable | None = None) -> tuple[int, list[str]]:
    """Play `g` to the end; return (commands applied, invariant failures)."""
    expected = expected_cards(g)
    n = 0
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if not legal:
            return n, [f"no legal command for seat {seat} at {type(g.pending).__name__}"]
        cmd = bots[seat].choose(legal, None)
        apply(g, cmd, check=False)
        n += 1
        if on_command is not None:
            on_command(g, cmd)
        if check_every:
            bad = check(g, expected)
            if bad:
                return n, [f"after {cmd!r}: {b}" for b in bad]
        if n > MAX_COMMANDS:
            return n, [f"game did not end after {MAX_COMMANDS} commands"]
    return n, check(g, expected)


def run(players: int, games: int, seed: int = 0, preset: str | None = None, characters: list[str] | None = None,
        rules: str = "2016", check_every: bool = True, bot_factory: Callable | None = None) -> SimResult:
    names = [f"P{i + 1}" for i in range(players)]
    t0 = time.perf_counter()
    total_cmds = rounds = score_sum = score_n = max_score = checks = 0
    failures: list[str] = []
    lineups: list[list[str]] = []
    for i in range(games):
        cfg = GameConfig(players=names, preset=preset if not characters else None, characters=characters,
                         rules=rules, seed=seed + i)
        g, _ = new_game(cfg)
        if i == 0:
            lineups.append(list(g.lineup))
        bots = [(bot_factory or (lambda s, k: RandomBot(s)))((seed + i) * 10 + s, s) for s in range(players)]
        n, bad = play_game(g, bots, check_every)
        total_cmds += n
        checks += n if check_every else 1
        if bad:
            failures.extend(f"game seed {seed + i}: {b}" for b in bad[:3])
            continue
        rounds += g.round
        for s in g.scores or []:
            score_sum += s.total
            score_n += 1
            max_score = max(max_score, s.total)
    dt = time.perf_counter() - t0
    ok = games - len({f.split(":")[0] for f in failures})
    return SimResult(games=games, players=players, seconds=round(dt, 3), games_per_second=round(games / dt, 1),
                     commands=total_cmds, commands_per_second=round(total_cmds / dt), mean_rounds=round(rounds / max(ok, 1), 2),
                     mean_score=round(score_sum / max(score_n, 1), 2), max_score=max_score, invariant_checks=checks,
                     failures=failures[:20], lineups=lineups)
