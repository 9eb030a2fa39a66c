"""Fairness: a bot decides from its view alone.

Along real games, at every decision of the watched seat, a second state is made
that differs only in what that seat cannot see (other hands shuffled among
themselves keeping sizes, deck reordered, face-down discards, the pool when not
its own and unrevealed characters permuted consistently, hidden markers and the
generator changed: `tests/hidden_info.redraw`). The seat's view is the same, and
two bots with the same seed, one fed from each state, make the same decisions.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hidden_info import redraw

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.registry import make_bot

# The first game at 5 and 2 players (the two-player rules) in the fast tier; the rest of the sweep is slow.
CASES = [
    ("first-game", 5, 1),
    pytest.param("first-game", 3, 2, marks=pytest.mark.slow),
    ("first-game", 2, 3),
    pytest.param("first-game", 7, 4, marks=pytest.mark.slow),
    pytest.param("cunning-agents", 5, 5, marks=pytest.mark.slow),
    pytest.param("ambitious-aristocrats", 4, 6, marks=pytest.mark.slow),
    pytest.param("illustrious-emissaries", 6, 7, marks=pytest.mark.slow),
]


def opts(kind):
    if kind == "hard":
        return {"budget_ms": None, "iterations": 2, "horizon": 0}
    if kind == "expert":
        return {"budget_ms": None, "iterations": 12}
    return {}


@pytest.mark.parametrize("kind", ["random", "easy", "normal", "hard", "expert"])
@pytest.mark.parametrize("preset,players,seed", CASES)
def test_same_view_same_decisions(kind, preset, players, seed):
    g, _ = new_game(GameConfig(players=[f"P{i}" for i in range(players)], preset=preset, seed=seed))
    watched = seed % players
    bot_a = make_bot(kind, 99, **opts(kind))
    bot_b = make_bot(kind, 99, **opts(kind))
    others = [make_bot("normal", 10 + s) for s in range(players)]
    rnd = random.Random(seed)
    decisions = 0
    limit = 25 if kind in ("hard", "expert") else 400
    while g.phase != "over" and decisions < limit:
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if seat == watched:
            h = redraw(g, seat, rnd)
            va, vb = view(g, seat), view(h, seat)
            assert msgspec.to_builtins(va) == msgspec.to_builtins(vb)
            ca = bot_a.choose(legal, va)
            cb = bot_b.choose(legal_commands(h, seat), vb)
            assert ca == cb, f"decision {decisions} differs: {ca!r} vs {cb!r}"
            decisions += 1
            cmd = ca
        else:
            cmd = others[seat].choose(legal, view(g, seat))
        apply(g, cmd, check=True)
    assert decisions > 5
