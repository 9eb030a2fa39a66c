"""The recorded bot ladder (benchmarks/bot_ladder.py) on a tiny run: its games go through the players
database's recording and openskill update, and its report reads the ratings and the head-to-head
shares back from the database."""

from __future__ import annotations

import json

from benchmarks.bot_ladder import main, share_ci
from server.players.ratings import MODEL, ordinal


def ladder(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    out, _ = capsys.readouterr()
    return json.loads(out)


def test_a_tiny_ladder_is_recorded_rated_and_reported(backend, capsys):
    played = ladder(
        capsys, "play", "--database", backend.url, "--levels", "random,easy,normal", "--games", "3", "--seed", "11"
    )
    assert played["recorded"] == played["rated"] == 3
    assert played["lineups"] == [{"seats": ["random", "easy", "normal"], "seed": 11, "games": 3, "failures": 0}]

    rep = ladder(capsys, "report", "--database", backend.url)
    assert rep["games"] == 3
    levels = rep["levels"]
    assert list(levels) == ["random", "easy", "normal"]
    for k, r in levels.items():
        assert r["games"] == 3, k
        assert r["sigma"] < MODEL.sigma, k  # three rated games made each level's rating surer
        assert abs(r["ordinal"] - round(ordinal(r["mu"], r["sigma"]), 2)) < 0.02, k
    assert sum(r["wins"] for r in levels.values()) >= 3  # a winner in every game
    assert levels["normal"]["ordinal"] > levels["random"]["ordinal"]

    pairs = rep["pairwise"]
    assert set(pairs) == {f"{x}/{y}" for x in levels for y in levels if x != y}
    for key, p in pairs.items():
        x, y = key.split("/")
        assert p["meetings"] == 3
        assert abs(p["ahead"] + pairs[f"{y}/{x}"]["ahead"] - 1.0) < 1e-6  # ahead of one is behind the other
        assert p["ci95"][0] <= p["ahead"] <= p["ci95"][1]
    assert pairs["normal/random"]["ahead"] > 0.5

    # recording the same database again adds games: the report follows the database, not the run
    ladder(capsys, "play", "--database", backend.url, "--levels", "random,easy,normal", "--games", "3", "--seed", "20")
    assert ladder(capsys, "report", "--database", backend.url)["levels"]["normal"]["games"] == 6


def test_share_interval_stays_inside_zero_one_and_narrows():
    lo_hi = [share_ci([1.0] * n) for n in (3, 30, 300)]
    assert all(p == 1.0 and 0.0 < lo < 1.0 and abs(hi - 1.0) < 1e-9 for p, lo, hi in lo_hi)
    assert lo_hi[0][1] < lo_hi[1][1] < lo_hi[2][1]
    p, lo, hi = share_ci([1.0, 0.0, 0.5, 1.0])
    assert p == 0.625 and lo < p < hi
