"""Determinization: a sampled world looks, from the seat, exactly like its view."""

from __future__ import annotations

import random

import msgspec
import pytest

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.determinize import determinize
from engine.bots.registry import make_bot
from engine.cards.lineups import PRESETS
from engine.invariants import check, expected_cards


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7, 8])
@pytest.mark.parametrize(
    "preset",
    [p if p == "first-game" else pytest.param(p, marks=pytest.mark.slow) for p in PRESETS],  # a sweep
)
def test_world_matches_view(preset, players):
    g, _ = new_game(GameConfig(players=[f"P{i}" for i in range(players)], preset=preset, seed=players))
    bots = [make_bot("normal", s) for s in range(players)]
    rnd = random.Random(1)
    expected = expected_cards(g)
    points = legal_differs = 0
    while g.phase != "over":
        seat = g.pending.seat
        v = view(g, seat)
        w = determinize(v, rnd)
        a, b = msgspec.to_builtins(v), msgspec.to_builtins(view(w, seat))
        la, lb = a.pop("legal"), b.pop("legal")
        assert a == b
        legal_differs += la != lb  # per-card turn counters are not in the view
        if g.turn is None or not g.turn.aside:  # a card set aside is not in the view: padded from the deck
            assert not check(w, expected)
        points += 1
        apply(g, bots[seat].choose(legal_commands(g, seat), v), check=False)
    assert legal_differs <= points * 0.05
