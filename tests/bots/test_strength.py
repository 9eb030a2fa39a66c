"""A small seeded tournament: the normal bot clearly beats random bots."""

from __future__ import annotations

import pytest

from engine.sim import run, seat_kind, tournament_stats


@pytest.mark.slow  # a tournament (60 games)
def test_normal_beats_random():
    r = run(5, 60, seed=1000, check_every=False, seats=["normal", "random", "random", "random", "random"])
    assert not r.failures
    k = r.kinds
    assert k["normal"]["ci95"][0] > 0.2  # clearly above its fair share
    assert k["normal"]["win_rate"] >= 3 * k["random"]["win_rate"]


@pytest.mark.slow  # a tournament (60 games)
def test_normal_beats_easy():
    r = run(4, 60, seed=2000, check_every=False, seats=["normal", "easy", "easy", "easy"])
    assert r.kinds["normal"]["win_rate"] > r.kinds["easy"]["win_rate"]


def test_seats_rotate_and_ties_count_fractionally():
    seats = ["a", "b", "b"]
    assert [seat_kind(seats, g, 0) for g in range(3)] == ["a", "b", "b"]
    assert [seat_kind(seats, 1, s) for s in range(3)] == ["b", "a", "b"]
    stats = tournament_stats(seats, [(0, [0, 1]), (1, [1])])  # game 0: a and b tie; game 1: a wins
    assert stats["a"]["win_rate"] == 0.75
    assert stats["b"]["win_rate"] == 0.125
