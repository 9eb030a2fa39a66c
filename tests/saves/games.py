"""Helpers for the save tests: which games the engine can set up now, and deterministic bot play."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from engine import GameConfig, GameState, SetupError, apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.cards.lineups import PRESETS
from engine.rules import RULESETS
from engine.savefile import Save, Seat, new_save

T0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Hal"]


@functools.cache
def playable_configs() -> list[tuple[str, int, str | None, tuple[str, ...] | None, tuple[str, ...] | None]]:
    """(rules, players, preset, characters, uniques) for every set-up the engine accepts now.

    Presets whose characters are not all playable yet are skipped, as are player counts that need an
    unplayable rank-9 character; every preset's unique districts are also tried with the first-game
    characters. The list grows by itself as characters are added to the engine.
    """
    out = []
    first = tuple(PRESETS["first-game"].characters)
    for rules in RULESETS:
        for n in range(2, 9):
            for name, preset in PRESETS.items():
                for cfg in (
                    GameConfig(players=NAMES[:n], preset=name, rules=rules),
                    GameConfig(players=NAMES[:n], characters=list(first), uniques=list(preset.uniques), rules=rules),
                ):
                    try:
                        new_game(cfg)
                    except SetupError:
                        continue
                    out.append(
                        (
                            rules,
                            n,
                            cfg.preset,
                            tuple(cfg.characters) if cfg.characters else None,
                            tuple(cfg.uniques) if cfg.uniques else None,
                        )
                    )
    return sorted(set(out), key=repr)


def config(rules: str, n: int, preset, characters, uniques, seed: int, crown: int | None = None) -> GameConfig:
    return GameConfig(
        players=NAMES[:n],
        preset=preset,
        characters=list(characters) if characters else None,
        uniques=list(uniques) if uniques else None,
        rules=rules,
        seed=seed,
        crown=crown,
    )


def play(g: GameState, bots: list, limit: int | None = None, log: list | None = None) -> list:
    """Bots play `g` (in place) until the end or `limit` more commands; returns the commands applied."""
    log = [] if log is None else log
    k = 0
    while g.phase != "over" and (limit is None or k < limit):
        seat = g.pending.seat
        cmd = bots[seat].choose(legal_commands(g, seat))
        apply(g, cmd)
        log.append(cmd)
        k += 1
    return log


def bots_for(n: int, seed: int) -> list[RandomBot]:
    return [RandomBot(seed * 10 + s) for s in range(n)]


def seats_for(cfg: GameConfig) -> list[Seat]:
    return [
        Seat(name, key=f"SHA256:key{i}" if i % 2 == 0 else None, bot=None if i % 2 == 0 else "random")
        for i, name in enumerate(cfg.players)
    ]


def game_save(cfg: GameConfig, stop: int | None = None, bot_seed: int = 0, table_id: str = "t1") -> Save:
    g, _ = new_game(cfg)
    log = play(g, bots_for(len(cfg.players), bot_seed), stop)
    return new_save(table_id, cfg, seats_for(cfg), g, log, created=T0)


def first_game(n: int = 4, seed: int = 1, **kw) -> GameConfig:
    return GameConfig(players=NAMES[:n], preset="first-game", seed=seed, **kw)
