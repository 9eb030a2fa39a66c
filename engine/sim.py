"""Simulated play: bots play whole games; every command is checked against the invariants.

Pure and synchronous; `citadels sim` prints what `run` returns as one JSON line.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from msgspec import Struct, field

from .bots.random_bot import RandomBot
from .bots.registry import Bot
from .commands import Command
from .playout import MAX_COMMANDS, play_game
from .setup import GameConfig, new_game
from .state import GameState

__all__ = ["MAX_COMMANDS", "SimResult", "play_game", "run", "seat_kind", "tournament_stats"]
BotFactory = Callable[[int, int, int], Bot]  # (seed, seat, game index) -> the bot at that seat
KindStats = dict[str, Any]  # one bot kind's results in a tournament (see `tournament_stats`)


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
    invariants: list[str] = field(
        default_factory=lambda: [
            "cards conserved",
            "gold never negative",
            "one crown",
            "no character held twice",
            "game ends",
            "legal list never empty while a decision is pending",
        ]
    )
    invariant_checks: int = 0
    failures: list[str] = field(default_factory=list)
    lineups: list[list[str]] = field(default_factory=list)
    kinds: dict[str, KindStats] | None = None  # with `seats`: each bot kind's win rate (see `tournament_stats`)


def run(
    players: int,
    games: int,
    seed: int = 0,
    preset: str | None = None,
    characters: list[str] | None = None,
    rules: str = "2016",
    check_every: bool = True,
    bot_factory: BotFactory | None = None,
    seats: list[str] | None = None,
    bot_options: dict[str, Any] | None = None,
    on_game: Callable[[GameConfig, GameState, list[Command], list[Bot]], None] | None = None,
    variants: list[str] | None = None,
    uniques: list[str] | None = None,
) -> SimResult:
    """Play `games` games. With `seats` (bot kinds, one per seat), the kinds are rotated round the
    table game by game and each kind's win rate is reported (ties count as fractional wins)."""
    if seats:
        players = len(seats)
        bot_factory = bot_factory or _seated_factory(seats, bot_options or {})
    outcomes: list[tuple[int, list[int]]] = []  # (game index, winners)
    names = [f"P{i + 1}" for i in range(players)]
    t0 = time.perf_counter()
    total_cmds = rounds = score_sum = score_n = max_score = checks = 0
    failures: list[str] = []
    lineups: list[list[str]] = []
    for i in range(games):
        cfg = GameConfig(
            players=names,
            preset=preset if not characters else None,
            characters=characters,
            rules=rules,
            seed=seed + i,
            variants=variants,
            uniques=uniques,
        )
        g, _ = new_game(cfg)
        if i == 0:
            lineups.append(list(g.lineup))
        make = bot_factory or _random_bots
        bots = [make((seed + i) * 10 + s, s, i) for s in range(players)]
        log: list[Command] = []

        def record(_g: GameState, cmd: Command, log: list[Command] = log) -> None:
            log.append(cmd)

        n, bad = play_game(g, bots, check_every, on_command=record if on_game else None)
        if on_game is not None:  # e.g. `citadels sim --save-dir` writes a save: the I/O stays out of the engine
            on_game(cfg, g, log, bots)
        total_cmds += n
        checks += n if check_every else 1
        if bad:
            failures.extend(f"game seed {seed + i}: {b}" for b in bad[:3])
            continue
        rounds += g.round
        outcomes.append((i, list(g.winners)))
        for s in g.scores or []:
            score_sum += s.total
            score_n += 1
            max_score = max(max_score, s.total)
    dt = time.perf_counter() - t0
    ok = games - len({f.split(":")[0] for f in failures})
    return SimResult(
        games=games,
        players=players,
        seconds=round(dt, 3),
        games_per_second=round(games / dt, 1),
        commands=total_cmds,
        commands_per_second=round(total_cmds / dt),
        mean_rounds=round(rounds / max(ok, 1), 2),
        mean_score=round(score_sum / max(score_n, 1), 2),
        max_score=max_score,
        invariant_checks=checks,
        failures=failures[:20],
        lineups=lineups,
        kinds=tournament_stats(seats, outcomes) if seats else None,
    )


def seat_kind(seats: list[str], game: int, seat: int) -> str:
    """The kind at `seat` in game `game`: the list rotates one seat per game."""
    n = len(seats)
    return seats[(seat - game) % n]


def _random_bots(seed: int, seat: int, game: int) -> Bot:
    return RandomBot(seed)


def _seated_factory(seats: list[str], options: dict[str, Any]) -> BotFactory:
    """`options`: the searching bots' options, either for every searching kind ({"iterations": 2}) or
    by kind ({"hard": {"iterations": 2}, "expert": {"iterations": 64}})."""
    from .bots.registry import SEARCHING, make_bot

    by_kind = any(k in SEARCHING for k in options)

    def factory(seed: int, seat: int, game: int) -> Bot:
        kind = seat_kind(seats, game, seat)
        if kind not in SEARCHING:
            return make_bot(kind, seed)
        return make_bot(kind, seed, **(options.get(kind, {}) if by_kind else options))

    return factory


def tournament_stats(seats: list[str], outcomes: list[tuple[int, list[int]]]) -> dict[str, KindStats]:
    """Per kind: seats per game, its win rate per seat with a 95% confidence interval (normal
    approximation over games of the kind's per-seat share of the win), the fair share 1/players and
    the ratio to it."""
    n = len(seats)
    out: dict[str, KindStats] = {}
    for kind in dict.fromkeys(seats):
        k = seats.count(kind)
        xs: list[float] = []
        for i, winners in outcomes:
            won = sum(1.0 / len(winners) for w in winners if seat_kind(seats, i, w) == kind) if winners else 0.0
            xs.append(won / k)
        m = len(xs)
        mean = sum(xs) / m if m else 0.0
        var = sum((x - mean) ** 2 for x in xs) / (m - 1) if m > 1 else 0.0
        half = 1.96 * math.sqrt(var / m) if m else 0.0
        fair = 1.0 / n
        out[kind] = {
            "seats": k,
            "games": m,
            "win_rate": round(mean, 4),
            "ci95": [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)],
            "fair_share": round(fair, 4),
            "vs_fair": round(mean / fair, 3),
        }
    return out
