"""History on both backends: finished games stored whole (settings, seats, scores, command log),
listed newest first, written once per uid, exported as save files that replay; profiles and
leaderboards read from them."""

from __future__ import annotations

from engine.savefile import dumps, loads, verify
from server.players.game_record import decode_record, encode_record

from .games import finished, record, seat_players


def _people(store, names: list[str]) -> list[int]:
    ids = []
    for n in names:
        pid = store.player_for_key(f"SHA256:{n}").id
        store.claim_name(pid, n)
        ids.append(pid)
    return ids


def test_a_game_is_stored_whole_and_exports_as_a_save_that_replays(store):
    ana, ben, cid = _people(store, ["Ana", "Ben", "Cid"])
    rec = record("table-7/1", seat_players(4, [cid, ana, ben]), seed=4)
    result = store.record_game(rec)
    game = store.game(result.game_id, you=ana)
    cfg, g, log = finished(4, 3)
    assert game.rules == "2016" and game.family == "2016" and game.players == 3 and game.rounds == g.round
    assert game.you == next(s.seat for s in game.seats if s.player_id == ana)
    assert [s.score for s in game.seats] == [next(x.total for x in g.scores if x.seat == s) for s in range(3)]
    assert [s.winner for s in game.seats] == [s in g.winners for s in range(3)]
    assert next(s for s in game.seats if s.place == 1).player_id == cid
    save = store.export_save(result.game_id)
    assert save.config == cfg and save.log == list(log) and save.finished
    assert [s.name for s in save.seats] == cfg.players
    again = loads(dumps(save))  # through bytes, checked by replaying the log
    verify(again)
    assert store.export_save(999_999) is None and store.game(999_999) is None


def test_a_game_recorded_twice_is_written_once(store):
    ana, ben = _people(store, ["Ana", "Ben"])
    rec = record("same", seat_players(1, [ana, ben]), seed=1)
    first = store.record_game(rec)
    second = store.record_game(decode_record(encode_record(rec)))  # as the outbox would resend it
    assert first.new and not second.new and first.game_id == second.game_id
    assert len(store.games()) == 1
    assert store.profile(ana).ratings[0].games == 1


def test_games_are_listed_newest_first_even_when_recorded_late(store):
    ana, ben, cid = _people(store, ["Ana", "Ben", "Cid"])
    # Recorded out of order (an outbox delivering an older game after a newer one).
    store.record_game(record("late", seat_players(2, [ana, ben]), seed=2, minutes=30))
    store.record_game(record("early", seat_players(3, [ana, cid]), seed=3, minutes=10))
    store.record_game(record("latest", seat_players(4, [ben, cid]), seed=4, minutes=50))
    store.record_game(record("middle", seat_players(5, [cid, ana]), seed=5, minutes=20))
    every = store.games()
    assert [g.finished_at for g in every] == sorted((g.finished_at for g in every), reverse=True)
    assert len(every) == 4
    mine = store.games(player_id=ana)
    assert [g.finished_at.minute for g in mine] == [30, 20, 10]
    assert all(g.you is not None and g.seats[g.you].player_id == ana for g in mine)
    assert [g.id for g in store.games(player_id=ana, limit=1, offset=1)] == [mine[1].id]
    assert store.games(player_id=999) == []


def test_a_profile_sums_games_wins_scores_and_characters(store):
    ana, ben = _people(store, ["Ana", "Ben"])
    scores, wins, picks = [], 0, {}
    for i, seed in enumerate((1, 2, 3)):
        rec = record(f"g{seed}", seat_players(seed, [ana, ben] if i != 1 else [ben, ana]), seed=seed, minutes=i)
        store.record_game(rec)
        mine = next(s for s in rec.seats if s.player_id == ana)
        scores.append(mine.score)
        wins += mine.winner
        for c, n in mine.characters.items():
            picks[c] = picks.get(c, 0) + n
    prof = store.profile(ana)
    assert prof.player.name == "Ana"
    assert (prof.games, prof.wins) == (3, wins) == (3, 2)
    assert prof.average_score == round(sum(scores) / 3, 2)
    top = sorted(picks.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    assert [(c.character, c.times) for c in prof.favourites] == top
    assert prof.ratings[0].place == 1 and prof.ratings[0].of == 2
    assert len(prof.history["2016"]) == 3
    assert store.profile(12345) is None


def test_a_leaderboard_ranks_by_rating_and_shows_your_place(store):
    ids = _people(store, [f"P{i}" for i in range(6)])
    # Everyone plays one two-player game: three winners, three losers (equal ratings share a place).
    for i in range(3):
        store.record_game(record(f"g{i}", seat_players(1, [ids[i], ids[i + 3]]), seed=1, minutes=i))
    board = store.leaderboard("2016", limit=4, you=ids[5])
    assert board.players == 6
    assert [r.place for r in board.rows] == [1, 1, 1, 4]
    assert {r.player_id for r in board.rows[:3]} == set(ids[:3])
    assert board.rows[0].rating > board.rows[3].rating
    assert board.you is not None and board.you.player_id == ids[5] and board.you.place == 4
    assert store.leaderboard("2016", you=ids[0]).you.place == 1
    empty = store.leaderboard("classic", you=ids[0])
    assert empty.rows == [] and empty.players == 0 and empty.you is None


def test_a_profiles_place_follows_the_games_recorded(backend):
    store = backend.open()
    ana, ben = _people(store, ["Ana", "Ben"])
    store.record_game(record("g1", seat_players(1, [ana, ben]), seed=1))
    assert [store.profile(p).ratings[0].place for p in (ana, ben)] == [1, 2]
    for i in range(2):  # Ben wins twice and passes Ana
        store.record_game(record(f"g{i + 2}", seat_players(i + 2, [ben, ana]), seed=i + 2, minutes=i + 1))
    assert [store.profile(p).ratings[0].place for p in (ana, ben)] == [2, 1]
    # Another recorder (another node) moved the ratings: this store's places (the player's own rating
    # against the others' as cached) are exact again once the cache's ttl has passed.
    other = backend.open()
    for i in range(3):
        other.record_game(record(f"h{i}", seat_players(i + 4, [ana, ben]), seed=i + 4, minutes=i + 10))
    store.places.clock = lambda: float("inf")
    assert [store.profile(p).ratings[0].place for p in (ana, ben)] == [1, 2]
    assert store.leaderboard("2016").rows[0].player_id == ana  # the leaderboard counts every time
