"""One game played to its end by bots: the simulator's loop (engine/sim.py), in its own module so the
optional compiled build (setup.py) compiles it with the flow (sim.py declares msgspec Structs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .apply import apply
from .bots.registry import Bot
from .commands import Command
from .invariants import check, expected_cards
from .legal import legal_commands
from .state import GameState
from .view import view as seat_view

MAX_COMMANDS: Final = 20_000  # a game longer than this is reported as not ending


def play_game(
    g: GameState,
    bots: list[Bot],
    check_every: bool = True,
    on_command: Callable[[GameState, Command], None] | None = None,
) -> tuple[int, list[str]]:
    """Play `g` to the end; return (commands applied, invariant failures)."""
    expected = expected_cards(g)
    n = 0
    needs_view = [getattr(bot, "needs_view", True) for bot in bots]
    choose = [bot.choose for bot in bots]  # looked up once (this loop runs ~370 times a game)
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if not legal:
            return n, [f"no legal command for seat {seat} at {type(g.pending).__name__}"]
        cmd = choose[seat](legal, seat_view(g, seat) if needs_view[seat] else None)
        apply(g, cmd, False)  # check=False: the command was just taken from the legal list
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
