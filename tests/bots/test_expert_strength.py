"""A small seeded tournament (slow tier: `pytest -m slow`): the expert beats the hard and the normal bot.

One expert, one hard and one normal bot at 3 players, seats rotated game by game, both searching bots
with a fixed effort and no clock (reproducible whatever the machine's load): the hard bot 2 sampled
worlds per searched decision, the expert 24 play-outs (a few times the hard bot's work, as its 2 s
default budget is to the hard bot's 300 ms). docs/bots.md has the large tables; this one asserts only
the order, with a wide margin.
"""

from __future__ import annotations

import pytest

from engine.sim import run


@pytest.mark.slow
def test_expert_beats_hard_and_normal():
    r = run(
        3,
        60,
        seed=41000,
        check_every=False,
        seats=["expert", "hard", "normal"],
        bot_options={"hard": {"budget_ms": None, "iterations": 2}, "expert": {"budget_ms": None, "iterations": 24}},
    )
    assert not r.failures
    k = r.kinds
    assert k["expert"]["win_rate"] > k["expert"]["fair_share"]
    assert k["expert"]["win_rate"] > k["normal"]["win_rate"]
    assert k["expert"]["win_rate"] >= k["hard"]["win_rate"]
