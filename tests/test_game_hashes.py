"""Seeded games play exactly as before: each game's fingerprint (tests/game_hashes.py) matches the
stored one. A change that alters a game's course fails here; if it is meant to (a rule fixed),
regenerate tests/data/game_hashes.json and say why in the commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from game_hashes import cases, game_hash

from engine.rules import RULESETS

STORED = json.loads((Path(__file__).parent / "data" / "game_hashes.json").read_text())


def test_every_case_has_a_stored_hash() -> None:
    assert sorted(c.key() for c in cases()) == sorted(STORED)


@pytest.mark.parametrize(
    "rules",
    [r if r == "2016" else pytest.param(r, marks=pytest.mark.slow) for r in RULESETS],  # a sweep: 2016 stays fast
)
@pytest.mark.parametrize(
    "players", ["2-4", pytest.param("5-8", marks=pytest.mark.slow)]
)  # 2016 at 2-4 players stays fast
def test_seeded_games_play_as_before(rules: str, players: str) -> None:
    lo, hi = map(int, players.split("-"))
    mine = [c for c in cases() if c.rules == rules and lo <= c.players <= hi]
    changed = [c.key() for c in mine if game_hash(c) != STORED[c.key()]]
    assert not changed, f"{len(changed)} of {len(mine)} games changed course: {changed[:5]}"
