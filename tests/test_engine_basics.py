"""Set-up refusals, determinism, the engine's import boundary, views and errors."""

from __future__ import annotations

import subprocess
import sys

import msgspec
import pytest

from engine import GameConfig, IllegalCommand, SetupError, apply, legal_commands, new_game, view
from engine.bots.random_bot import RandomBot
from engine.commands import EndTurn, Pick, TakeGold
from engine.state import copy_state, encode

EIGHT = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"]


@pytest.mark.parametrize(
    "players, chars, message",
    [
        (["A"], EIGHT, "2 to 8 players"),
        ([str(i) for i in range(9)], EIGHT, "2 to 8 players"),
        ([str(i) for i in range(8)], EIGHT, "8 players need a rank-9 character"),
        (["A", "B", "C"], EIGHT, "3 players need a rank-9 character"),
        (["A", "B"], EIGHT + ["Artist"], "2-player games use ranks 1-8 only"),
        (["A", "B", "C", "D"], EIGHT[:7], "needs one rank-8 character"),
        (["A", "B", "C", "D"], EIGHT + ["Witch"], "more than one rank-1 character"),
        (["A", "B", "C", "D"], EIGHT[:-1] + ["Nobody"], "Unknown character 'Nobody'"),
        (
            ["A", "B"],
            ["Assassin", "Thief", "Magician", "Emperor", "Bishop", "Merchant", "Architect", "Warlord"],
            "The Emperor is not used with 2 players",
        ),
        (["A", "B", "C", "D"], EIGHT + ["Queen"], "The Queen is only used with 5 or more players"),
        (["A", "A"], EIGHT, "different name"),
    ],
)
def test_impossible_setups_are_refused_with_a_reason(players, chars, message):
    with pytest.raises(SetupError, match=message):
        new_game(GameConfig(players=players, characters=chars))


def test_unknown_preset_and_uniques_are_refused():
    with pytest.raises(SetupError, match="Unknown preset"):
        new_game(GameConfig(players=["A", "B"], preset="nope"))
    with pytest.raises(SetupError, match="14 unique districts"):
        new_game(GameConfig(players=["A", "B"], characters=EIGHT, uniques=["Keep"]))


def test_setup_deals_four_cards_and_two_gold():
    g, _ = new_game(GameConfig(players=["A", "B", "C", "D", "E"], seed=3, crown=2))
    assert all(len(p.hand) == 4 and p.gold == 2 for p in g.players)
    assert g.crown == 2 and g.pending.seat == 2
    assert len(g.deck) + 20 == 68


def _play(g, seed, limit=None):
    bots = [RandomBot(seed * 10 + s) for s in range(len(g.players))]
    n = 0
    while g.phase != "over" and (limit is None or n < limit):
        s = g.pending.seat
        apply(g, bots[s].choose(legal_commands(g, s)))
        n += 1
    return bots


def test_a_game_is_determined_by_setup_seed_and_commands():
    a, _ = new_game(GameConfig(players=["A", "B", "C", "D"], seed=11))
    b, _ = new_game(GameConfig(players=["A", "B", "C", "D"], seed=11))
    _play(a, 5)
    _play(b, 5)
    assert encode(a) == encode(b)


def test_a_copied_state_continues_identically():
    g, _ = new_game(GameConfig(players=["A", "B", "C", "D", "E"], seed=4))
    _play(g, 1, limit=150)
    h = copy_state(g)
    log_g, log_h = [], []
    for state, log in ((g, log_g), (h, log_h)):
        bots = [RandomBot(99 + s) for s in range(5)]
        while state.phase != "over":
            s = state.pending.seat
            cmd = bots[s].choose(legal_commands(state, s))
            log.append(cmd)
            apply(state, cmd)
    assert log_g == log_h and encode(g) == encode(h)


def test_wrong_seat_and_wrong_moment_are_refused_readably_and_change_nothing():
    g, _ = new_game(GameConfig(players=["Ana", "Ben", "Cid", "Dee"], seed=1, crown=0))
    before = encode(g)
    with pytest.raises(IllegalCommand, match="not your move: waiting for Ana to choose a character"):
        apply(g, Pick(1, g.selection.pool[0]))
    with pytest.raises(IllegalCommand, match="Characters are being chosen"):
        apply(g, TakeGold(0))
    with pytest.raises(IllegalCommand, match="no seat 7"):
        apply(g, EndTurn(7))
    assert encode(g) == before


def test_views_hold_only_what_the_seat_may_know():
    g, _ = new_game(GameConfig(players=["Ana", "Ben", "Cid", "Dee"], seed=2, crown=0))
    v = view(g, 1)
    assert v.players[1].hand == g.players[1].hand
    assert all(p.hand is None for i, p in enumerate(v.players) if i != 1)
    assert v.pool == [] and v.legal == []  # Ana chooses; Ben sees neither her cards nor choices
    assert view(g, 0).pool and view(g, 0).legal
    spectator = view(g, None)
    assert all(p.hand is None for p in spectator.players) and spectator.legal == []


def test_engine_imports_no_ui_server_textual_or_asyncssh():
    code = (
        "import sys, engine, engine.sim, engine.scenario; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('ui', 'server', 'textual', 'asyncssh')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_view_does_not_share_the_states_cities():
    """A view is a picture of one moment: a city built, beautified or filled later (the engine changes
    the state's lists and districts in place) must not show in a view taken before."""
    from engine.state import Built

    g, _ = new_game(GameConfig(players=["Ana", "Ben", "Cid"], seed=5))
    g.players[1].city.append(Built("Market"))
    g.players[1].city.append(Built("Museum", under=["Temple"]))
    before = msgspec.msgpack.encode(view(g, 0))  # not state.encode: a view is no GameState (compiled: refused)
    mine = view(g, 1)
    g.players[1].city.append(Built("Castle"))  # build.py appends
    g.players[1].city[0].beautified = True  # the Artist beautifies in place
    g.players[1].city[1].under.append("Harbor")  # the Museum keeps a card under it
    assert msgspec.msgpack.encode(view(g, 0)) != before  # the state did change
    assert [b.name for b in mine.players[1].city] == ["Market", "Museum"]
    assert not mine.players[1].city[0].beautified
    assert mine.players[1].city[1].under == ["Temple"]
