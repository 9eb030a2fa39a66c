"""Saves taken at random points of random games load back to the same state and continue identically."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples

from engine import new_game
from engine.savefile import dumps, loads, loads_json, new_save, replay, replay_steps, to_json, verify
from engine.state import copy_state, encode

from .games import T0, bots_for, config, play, playable_configs, seats_for


def test_every_player_count_the_engine_allows_is_covered():
    counts = {c[1] for c in playable_configs()}
    assert {2, 4, 5, 6, 7} <= counts  # first-game today; 3 and 8 come with a playable rank 9
    assert {c[0] for c in playable_configs()} >= {"2016", "2016-classic-variant"}


@st.composite
def games(draw):
    rules, n, preset, chars, uniques = draw(st.sampled_from(playable_configs()))
    seed = draw(st.integers(0, 2**32))
    crown = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    stop = draw(st.integers(0, 600))  # past the end of most games: also saves of finished games
    return config(rules, n, preset, chars, uniques, seed, crown), stop, draw(st.integers(0, 1000))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_round_trip_and_identical_continuation(game):
    cfg, stop, bot_seed = game
    g, _ = new_game(cfg)
    log = play(g, bots_for(len(cfg.players), bot_seed), stop)
    before = encode(g)
    save = new_save("t1", cfg, seats_for(cfg), g, log, created=T0)

    data = dumps(save)
    assert encode(g) == before  # saving changes nothing
    back = loads(data)
    assert encode(back.state) == before
    assert back.log == log and back.config == cfg and back.seats == save.seats and back.finished == (g.phase == "over")
    assert (back.created, back.updated) == (T0, T0)
    assert dumps(back) == data  # stable bytes
    assert encode(loads_json(to_json(save)).state) == before  # the JSON export reads back the same

    # The continuation is identical: same bots from here on, same commands, same end.
    n = len(cfg.players)
    rest_a = play(g, bots_for(n, bot_seed + 1))
    rest_b = play(back.state, bots_for(n, bot_seed + 1))
    assert rest_a == rest_b
    assert encode(g) == encode(back.state)


@settings(max_examples=examples(15), deadline=None)
@given(games())
def test_replay_steps_walk_the_game(game):
    cfg, stop, bot_seed = game
    g, _ = new_game(cfg)
    log = play(g, bots_for(len(cfg.players), bot_seed), stop)
    save = new_save("t1", cfg, seats_for(cfg), g, log, created=T0)
    seen = [(n, cmd) for n, cmd, _ev, _st in replay_steps(save)]
    assert seen == list(enumerate(log, 1))
    assert encode(replay(save)) == encode(verify(save)) == encode(g)


def test_loaded_finished_game_has_engine_types():
    # The snapshot decodes `scores` as plain dicts (GameState.scores is an untyped list); a checked
    # load hands back the replayed state, whose scores are the engine's Score structs.
    from engine.scoring import Score

    cfg = config("2016", 4, "first-game", None, None, 5)
    g, _ = new_game(cfg)
    log = play(g, bots_for(4, 0))
    back = loads(dumps(new_save("t1", cfg, seats_for(cfg), g, log, created=T0)))
    assert back.finished and all(isinstance(s, Score) for s in back.state.scores)
    assert msgspec.msgpack.encode(back.state) == encode(copy_state(g))
