"""The engine plays stored seeded games state by state as the reference engine did (tests/state_hashes.py):
every rule set at every player count it allows, the variants, the normal and the hard bots. A cache
that went stale, or any other change to a game's course, shows here even where no view shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from state_hashes import sample, state_trail

STORED = json.loads((Path(__file__).parent / "data" / "state_hashes.json").read_text())


def test_the_sample_is_stored() -> None:
    assert sorted(c.key() for c in sample()) == sorted(STORED)


@pytest.mark.parametrize("case", sample(), ids=lambda c: c.key())
def test_every_state_as_the_reference(case) -> None:
    digest, n = state_trail(case)
    want = STORED[case.key()]
    assert n == want["commands"], f"{case.key()}: {n} commands, the reference played {want['commands']}"
    assert digest == want["trail"], f"{case.key()}: some state differs from the reference replay's"
