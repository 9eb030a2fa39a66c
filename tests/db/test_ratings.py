"""Ratings on both backends: wins move a rating up and losses down; what makes a game unrated; each
rule family apart; bot levels as rated players when the host rates bots."""

from __future__ import annotations

import re
import threading

import msgspec
import pytest

from server.players.game_record import places
from server.players.ratings import RatingPolicy, combine, rate

from .games import record, seat_players


def _people(store, n: int) -> list[int]:
    ids = []
    for i in range(n):
        pid = store.player_for_key(f"SHA256:p{i}").id
        store.claim_name(pid, f"Player {i}")
        ids.append(pid)
    return ids


def _rating(store, pid: int, family: str = "2016"):
    prof = store.profile(pid)
    return next((r for r in prof.ratings if r.family == family), None)


def test_places_put_winners_first_and_share_equal_scores():
    assert places([20, 30, 30, 10], [2]) == [3, 2, 1, 4]
    assert places([30, 30, 10, 10], [0, 1]) == [1, 1, 3, 3]
    assert places([25, 25, 25], [1]) == [2, 1, 2]  # the tie-break gave seat 1 the win


def test_a_winner_goes_up_and_a_loser_down(store):
    ana, ben, cid = _people(store, 3)
    result = store.record_game(record("g1", seat_players(1, [ana, ben, cid]), seed=1))
    assert result.rated and result.unrated_reason is None
    a, b, c = (_rating(store, p) for p in (ana, ben, cid))
    assert a.rating > 0 > c.rating  # a new player is shown at 0
    assert a.rating > b.rating > c.rating
    assert (a.games, a.wins, c.games, c.wins) == (1, 1, 1, 0)
    assert a.sigma < 25 / 3 and c.sigma < 25 / 3  # more certain after a game


def test_repeated_wins_keep_climbing_and_losses_keep_falling(store):
    ana, ben = _people(store, 2)
    history = []
    for i in range(5):
        store.record_game(record(f"g{i}", seat_players(i + 1, [ana, ben]), seed=i + 1, minutes=i))
        history.append((_rating(store, ana).rating, _rating(store, ben).rating))
    ups = [h[0] for h in history]
    downs = [h[1] for h in history]
    assert ups == sorted(ups) and downs == sorted(downs, reverse=True)
    prof = store.profile(ana)
    assert [p.rating for p in prof.history["2016"]] == pytest.approx(ups)
    assert [p.game_id for p in prof.history["2016"]] == sorted(p.game_id for p in prof.history["2016"])
    # An upset: the loser beats the leader and gains more than the leader loses... at least gains.
    before = _rating(store, ben).rating
    store.record_game(record("upset", seat_players(9, [ben, ana]), seed=9, minutes=10))
    assert _rating(store, ben).rating > before


def test_each_rule_family_is_rated_apart(store):
    ana, ben = _people(store, 2)
    store.record_game(record("new", seat_players(1, [ana, ben]), seed=1))
    store.record_game(
        record("classic", seat_players(2, [ben, ana], rules="classic"), seed=2, rules="classic", minutes=1)
    )
    store.record_game(
        record("dark", seat_players(3, [ben, ana], rules="dark-city"), seed=3, rules="dark-city", minutes=2)
    )
    assert _rating(store, ana, "2016").rating > 0 > _rating(store, ana, "classic").rating
    assert _rating(store, ana, "2000").rating < 0
    assert [r.family for r in store.profile(ana).ratings] == ["2016", "classic", "2000"]
    assert [f.family for f in store.profile(ana).by_family] == ["2016", "classic", "2000"]
    assert store.leaderboard("2016").rows[0].player_id == ana
    assert store.leaderboard("classic").rows[0].player_id == ben


@pytest.mark.parametrize(
    ("bots", "shares", "reason"),
    [
        (["normal", None], None, r"a bot \(normal\) sat at the table"),
        ([None, None], [0.5, 0.0], "a bot played .* for 50% of its decisions"),
    ],
)
def test_bots_make_a_game_unrated_unless_the_host_rates_them(store, bots, shares, reason):
    ana, ben = _people(store, 2)
    ids = seat_players(1, [ana, ben])
    result = store.record_game(record("g", ids, seed=1, bots=bots, bot_shares=shares))
    assert not result.rated
    assert result.unrated_reason is not None
    assert re.fullmatch(reason, result.unrated_reason), result.unrated_reason
    assert _rating(store, ana) is None and _rating(store, ben) is None
    assert store.profile(ana).games == 1  # still in the history


def test_a_bot_playing_a_small_share_keeps_the_game_rated(store):
    ana, ben = _people(store, 2)
    result = store.record_game(record("g", seat_players(1, [ana, ben]), seed=1, bot_shares=[0.25, 0.1]))
    assert result.rated


def test_a_guest_or_one_player_at_two_seats_makes_it_unrated(store):
    ana, ben = _people(store, 2)
    guest = store.record_game(record("g1", seat_players(1, [ana, None]), seed=1))
    assert guest.unrated_reason.endswith("played as a guest")
    twice = store.record_game(record("g2", seat_players(2, [ana, ana, ben]), seed=2, minutes=1))
    assert twice.unrated_reason == "one player held two seats"
    assert _rating(store, ana) is None


def test_rated_bots_are_one_player_per_level(bot_store):
    store = bot_store
    ana, ben = _people(store, 2)
    ids = seat_players(1, [ana, None, ben])  # the middle place is a bot's
    bots = [None if pid else "hard" for pid in ids]
    result = store.record_game(record("g", ids, seed=1, bots=bots))
    assert result.rated
    hard = store.find_player("hard")
    board = store.leaderboard("2016")
    assert [r.player_id for r in board.rows] == [ana, hard.id, ben]
    assert board.rows[1].kind == "bot" and board.rows[1].name == "hard"


def test_one_level_at_two_seats_moves_by_both_seats(bot_store):
    # hard, normal, normal, random as `citadels sim --seats` sits them: "normal" holds two seats.
    ranking = seat_players(1, [1, 2, 3, 4])
    kinds = {1: "hard", 2: "normal", 3: "random", 4: "normal"}
    bots = [kinds[pid] for pid in ranking]
    result = bot_store.record_game(record("g", [None] * 4, seed=1, bots=bots))
    assert result.rated
    board = {r.name: r for r in bot_store.leaderboard("2016").rows}
    assert board["hard"].rating > board["random"].rating
    assert board["normal"].games == 1 and board["normal"].wins == 0
    # The combination: the sum of each seat's move from the same prior; sigma shrinks once per seat.
    prior = {7: (25.0, 25 / 3)}
    after = rate([(25.0, 25 / 3), (25.0, 25 / 3), (25.0, 25 / 3)], [1, 2, 3])
    combined = combine({**prior, 8: (25.0, 25 / 3)}, [7, 8, 7], after)
    assert combined[7][0] == pytest.approx(25.0 + (after[0][0] - 25) + (after[2][0] - 25))
    assert combined[7][1] == pytest.approx((25 / 3) * (after[0][1] / (25 / 3)) * (after[2][1] / (25 / 3)))
    assert combined[8] == pytest.approx(after[1])


def test_the_policy_bounds_its_share():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"max_bot_share": 1.5}, RatingPolicy)


def test_two_games_ending_at_once_both_count(backend):
    stores = [backend.open(), backend.open()]  # two recorders (two nodes, or two threads of one)
    for round_ in range(3):
        ana, ben = (stores[0].player_for_key(f"SHA256:{round_}-{n}").id for n in ("ana", "ben"))
        recs = [
            record(f"r{round_}-a", seat_players(1, [ana, ben]), seed=1, minutes=round_),
            record(f"r{round_}-b", seat_players(2, [ben, ana]), seed=2, minutes=round_),
        ]
        barrier = threading.Barrier(2)
        done: list = []

        def rec(i: int) -> None:
            barrier.wait()
            done.append(stores[i].record_game(recs[i]))

        threads = [threading.Thread(target=rec, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert len(done) == 2 and all(r.rated for r in done)
        for pid in (ana, ben):
            prof = stores[0].profile(pid)
            assert prof.ratings[0].games == 2 and prof.ratings[0].wins == 1
            assert len(prof.history["2016"]) == 2
