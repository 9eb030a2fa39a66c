"""A small run of the layout measure (benchmarks/screen_fit.py): a regression that cuts a hand card, a
menu item, the status line, the gold or the characters at some size fails here. The full measure (300
states, 5 sizes) is the benchmark; this is 30 states, both languages, the sizes at both ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.fit_states import sample
from benchmarks.screen_fit import run


@pytest.mark.slow  # a sweep: 30 states x 3 sizes x 2 languages (test_table_layout checks the plan at 54 sizes)
async def test_a_sample_of_game_states_fits_at_every_size():
    states = sample(30, seed=7, games_per=1)
    assert {s.role for s in states} >= {"to_move", "waiting", "spectator", "crowd"}
    results = await run(states, ["80x24", "100x30", "240x67"], ["en", "es"])
    for size, r in results.items():
        assert r.renders == len(states)
        assert r.cut == 0, f"{size}: " + "\n".join(r.details)
        assert 0.2 < r.blank < 0.9
