"""Line-ups: every preset (and the random line-up) played to the end by random bots at
every player count 2-8, the invariants checked after every command; the preset
substitutions; custom and random line-ups.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples

from engine import GameConfig, SetupError, apply, legal_commands, new_game
from engine.cards.characters import RANK
from engine.cards.districts import UNIQUE_DISTRICTS
from engine.cards.lineups import PRESETS
from engine.hooks import ROLES, UNIQUES
from engine.invariants import check, expected_cards
from engine.lineup_check import check_lineup
from engine.lineup_random import random_lineup
from engine.setup import resolve_lineup
from engine.sim import MAX_COMMANDS

PLAYER_COUNTS = range(2, 9)
SETTINGS = settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def skip_if_not_playable(cfg: GameConfig) -> None:
    """Skip, naming the missing character, while a line-up holds a character not written yet."""
    try:
        resolve_lineup(cfg)
    except SetupError as e:
        if "not playable" in str(e):
            pytest.skip(f"{cfg.preset} with {len(cfg.players)} players: {e}")
        raise


def play_to_end(cfg: GameConfig, seed: int) -> None:
    g, _ = new_game(cfg)
    expected = expected_cards(g)
    rnd = random.Random(seed)
    n = 0
    while g.phase != "over":
        legal = legal_commands(g, g.pending.seat)
        assert legal, f"no legal command at {g.pending!r}"
        apply(g, rnd.choice(legal), check=False)
        n += 1
        bad = check(g, expected)
        assert not bad, bad
        assert n <= MAX_COMMANDS, "the game did not end"
    assert g.scores is not None and g.winners


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize(
    "preset",
    [p if p == "first-game" else pytest.param(p, marks=pytest.mark.slow) for p in PRESETS],  # a sweep
)
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_preset_played_to_the_end(preset: str, players: int, seed: int) -> None:
    cfg = GameConfig(players=names(players), preset=preset, seed=seed)
    skip_if_not_playable(cfg)
    play_to_end(cfg, seed)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_random_lineup_played_to_the_end(players: int, seed: int) -> None:
    play_to_end(GameConfig(players=names(players), preset="random", seed=seed), seed)


# --- what a preset resolves to ---------------------------------------------------------------------


def lineup(preset: str, n: int, **kw) -> list[str]:
    return resolve_lineup(GameConfig(players=names(n), preset=preset, **kw))[0]


def test_presets_bring_their_rank9_with_3_and_8_players() -> None:
    for name, p in PRESETS.items():
        for n in (3, 8):
            chars = lineup(name, n)
            nine = [c for c in chars if RANK[c] == 9]
            want = p.rank9 or "Artist"
            if want == "Queen" and n < 5:
                want = "Artist"
            assert nine == [want], (name, n, chars)


def test_two_players_no_emperor_no_rank9() -> None:
    for name in PRESETS:
        chars = lineup(name, 2)
        assert "Emperor" not in chars and all(RANK[c] <= 8 for c in chars) and len(chars) == 8
    assert "King" in lineup("cunning-agents", 2) and "King" in lineup("illustrious-emissaries", 2)


def test_queen_only_with_five_or_more() -> None:
    for name in ("ambitious-aristocrats", "devious-dignitaries"):
        assert "Artist" in lineup(name, 3) and "Queen" not in lineup(name, 3)
        assert "Artist" in lineup(name, 4) and "Queen" not in lineup(name, 4)
        for n in range(5, 9):
            assert "Queen" in lineup(name, n)


def test_first_game_rank9_is_the_artist() -> None:
    assert lineup("first-game", 3)[-1] == "Artist"
    assert lineup("first-game", 8)[-1] == "Artist"
    assert all(RANK[c] <= 8 for c in lineup("first-game", 5))


def test_rank9_optional_with_four_to_seven() -> None:
    assert "Tax Collector" in lineup("cunning-agents", 5)
    assert "Tax Collector" not in lineup("cunning-agents", 5, rank9=False)


def test_presets_have_fourteen_uniques_and_eight_ranks() -> None:
    for p in PRESETS.values():
        assert len(set(p.uniques)) == 14 and all(u in UNIQUE_DISTRICTS for u in p.uniques)
        assert sorted(RANK[c] for c in p.characters) == list(range(1, 9))


# --- custom line-ups -------------------------------------------------------------------------------

CUSTOM = ["Witch", "Spy", "Wizard", "Emperor", "Abbot", "Trader", "Navigator", "Marshal"]
CUSTOM_UNIQUES = [
    "Armory",
    "Basilica",
    "Capitol",
    "Framework",
    "Great Wall",
    "Keep",
    "Monument",
    "Museum",
    "Necropolis",
    "Observatory",
    "Secret Vault",
    "Stables",
    "Theater",
    "Thieves' Den",
]


def test_custom_lineup_with_chosen_uniques() -> None:
    missing = [c for c in CUSTOM + ["Queen"] if c not in ROLES]
    if missing:
        pytest.skip(f"not playable yet: {', '.join(missing)}")
    g, _ = new_game(GameConfig(players=names(5), characters=CUSTOM + ["Queen"], uniques=CUSTOM_UNIQUES, seed=3))
    assert g.lineup == CUSTOM + ["Queen"]
    assert sorted(g.uniques) == sorted(CUSTOM_UNIQUES)
    deck_uniques = [c for c in g.deck + [h for p in g.players for h in p.hand] if c in UNIQUE_DISTRICTS]
    assert sorted(deck_uniques) == sorted(CUSTOM_UNIQUES)
    play_to_end(GameConfig(players=names(5), characters=CUSTOM + ["Queen"], uniques=CUSTOM_UNIQUES, seed=3), 3)


@pytest.mark.parametrize(
    "chars, uniques, message",
    [
        (CUSTOM[:7], CUSTOM_UNIQUES, "rank-8"),
        (CUSTOM[:7] + ["Warlord", "Marshal"], CUSTOM_UNIQUES, "more than one rank-8"),
        (CUSTOM, CUSTOM_UNIQUES[:13], "14 unique"),
        (CUSTOM, CUSTOM_UNIQUES[:13] + ["Armory"], "twice"),
        (CUSTOM, CUSTOM_UNIQUES[:13] + ["Graveyard"], "Unknown unique"),
    ],
)
def test_custom_lineup_refused(chars, uniques, message) -> None:
    with pytest.raises(SetupError, match=message):
        new_game(GameConfig(players=names(5), characters=chars, uniques=uniques))


# --- random line-ups -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_lineup_is_legal_spread_and_reproducible(players: int) -> None:
    seen = set()
    for seed in range(40):
        chars, uniques = random_lineup(players, seed)
        assert check_lineup(chars, players) == chars
        assert len(uniques) == 14 and len(set(uniques)) == 14 and all(u in UNIQUES for u in uniques)
        costs = {UNIQUE_DISTRICTS[u].cost for u in uniques if u != "Secret Vault"}
        assert {2, 3, 4, 5, 6} <= costs, uniques
        assert random_lineup(players, seed) == (chars, uniques)
        g1, _ = new_game(GameConfig(players=names(players), preset="random", seed=seed))
        g2, _ = new_game(GameConfig(players=names(players), preset="random", seed=seed))
        assert (g1.lineup, g1.uniques, g1.deck) == (g2.lineup, g2.uniques, g2.deck) == (g1.lineup, uniques, g1.deck)
        seen.add((tuple(chars), tuple(uniques)))
    assert len(seen) > 30  # the seed matters


def test_random_lineup_respects_rank9_option() -> None:
    for seed in range(10):
        assert all(
            RANK[c] <= 8
            for c in resolve_lineup(GameConfig(players=names(5), preset="random", seed=seed, rank9=False))[0]
        )
        assert RANK[resolve_lineup(GameConfig(players=names(5), preset="random", seed=seed, rank9=True))[0][-1]] == 9
