"""The older rule sets (Classic 2016 box, 2000, The Dark City, the Plague): random games
played to the end under every rule set at every player count it allows, the
invariants checked after every command (cards conserved, gold never negative, one
crown, no character held twice, the game ends), hidden fields of events redacted for
the other seats, refused commands changing nothing; plus the set-up rules of the
older editions (line-ups, decks, variants) and the lobby's catalogue.
"""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples
from random_play import play_random

from engine import GameConfig, IllegalCommand, SetupError, apply, legal_commands, new_game
from engine.cards.characters import ORIGINAL_EIGHT
from engine.cards.districts import DISTRICTS, base_deck
from engine.cards.editions import BASIC_2000_PURPLE, CLASSIC_PURPLE, DARK_CITY_CHARACTERS, DARK_CITY_PURPLE, rank
from engine.commands import Command
from engine.rules import RULESETS, catalogue
from engine.state import encode
from engine.variants.plague import sick_seat
from engine.view import view

OLDER = ["classic", "classic-variant", "original-2000", "dark-city"]
CASES = [(r, n) for r in OLDER for n in range(RULESETS[r].min_players, RULESETS[r].max_players + 1)]
SETTINGS = settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
_decoder = msgspec.json.Decoder(Command)


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


@st.composite
def dark_city_config(draw, n: int):
    """One or two Dark City characters swapped in (any rank 1-8), maybe a rank 9, and
    2-6 Dark City districts (4-6 replacing basic ones), legal for `n` players."""
    ranks = draw(st.lists(st.integers(1, 8), min_size=1, max_size=2, unique=True))
    chars = [c for c in DARK_CITY_CHARACTERS if rank("2000", c) in ranks and not (c == "Emperor" and n == 2)]
    if n == 8 or (4 <= n <= 7 and draw(st.booleans())):
        chars.append("Queen" if n >= 5 and draw(st.booleans()) else "Artist")
    # no Hospital without a sure Assassin: none when rank 1 is swapped, nor when no character is named
    # (2 players, rank 4 drawn: the Emperor is left out, so the line-up is drawn at random)
    pool = [u for u in DARK_CITY_PURPLE if not (u == "Hospital" and (1 in ranks or not chars))]
    uniques = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=6, unique=True))
    return chars, uniques


def play(cfg: GameConfig, seed: int, probe=None) -> None:
    play_random(cfg, seed, probe)


@pytest.mark.parametrize("rules,players", CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_random_games_keep_invariants(rules: str, players: int, seed: int, data) -> None:
    chars = uniques = None
    if rules == "dark-city":
        chars, uniques = data.draw(dark_city_config(players))
    variants = []
    if RULESETS[rules].options:
        variants = data.draw(st.sampled_from([[], ["plague"], ["short-7"], ["short-6", "plague"]]))
    play(
        GameConfig(
            players=names(players), rules=rules, seed=seed, characters=chars, uniques=uniques, variants=variants
        ),
        seed,
    )


@pytest.mark.parametrize("rules", OLDER)
@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7))
def test_refused_commands_change_nothing(rules: str, seed: int, players: int) -> None:
    """Mutated legal commands that are not legal are refused with a message and leave the
    state byte-identical."""
    words = list(DISTRICTS) + list(DARK_CITY_CHARACTERS) + list(ORIGINAL_EIGHT) + ["gold", "take", "pass", "announce"]

    def probe(g, cmd, rnd):
        d = msgspec.to_builtins(cmd)
        key = rnd.choice(list(d))
        if key == "type":
            return
        if isinstance(d[key], int):
            d[key] = rnd.randrange(-1, players + 1)
        elif isinstance(d[key], str):
            d[key] = rnd.choice(words)
        other = _decoder.decode(msgspec.json.encode(d))
        if 0 <= other.seat < players and other in legal_commands(g, other.seat):
            return
        before = encode(g)
        with pytest.raises(IllegalCommand) as err:
            apply(g, other)
        assert str(err.value)
        assert encode(g) == before, f"refused {other} changed the state"

    variants = ["plague"] if RULESETS[rules].options else []
    play(GameConfig(players=names(players), rules=rules, seed=seed, variants=variants), seed, probe)


# --- set-up ------------------------------------------------------------------------------------


def test_classic_fixed_lineup_and_deck() -> None:
    g, _ = new_game(GameConfig(players=names(5), rules="classic", seed=3))
    assert g.lineup == list(ORIGINAL_EIGHT)
    assert len(base_deck()) + len(g.uniques) == 68
    assert Counter(g.uniques) == Counter(CLASSIC_PURPLE) and g.uniques.count("Keep") == 2
    assert g.rules.complete_at == 7 and g.rules.complete_at_small == 8


def test_classic_refuses_8_players_and_presets() -> None:
    with pytest.raises(SetupError, match="2 to 7"):
        new_game(GameConfig(players=names(8), rules="classic"))
    with pytest.raises(SetupError, match="Presets"):
        new_game(GameConfig(players=names(4), rules="classic", preset="first-game"))
    with pytest.raises(SetupError, match="fixed deck"):
        new_game(GameConfig(players=names(4), rules="classic", uniques=["Armory", "Park"]))


def test_original_2000_basic_deck_and_order() -> None:
    g, _ = new_game(GameConfig(players=names(4), rules="original-2000", seed=1))
    assert Counter(g.uniques) == Counter(BASIC_2000_PURPLE) and len(base_deck()) + len(g.uniques) == 66
    assert not g.rules.faceup_before_facedown and g.rules.reveal_killed and g.rules.rank8_at_end
    assert (g.rules.complete_at, g.rules.complete_at_small) == (8, 8)


def test_dark_city_tax_collector_is_rank_2() -> None:
    g, _ = new_game(
        GameConfig(players=names(4), rules="dark-city", characters=["Tax Collector"], uniques=["Park", "Museum"])
    )
    assert g.lineup[1] == "Tax Collector" and "Thief" not in g.lineup
    g16, _ = new_game(GameConfig(players=names(4), preset="first-game", rank9=False))
    assert rank("2016", "Tax Collector") == 9


def test_dark_city_random_lineups_are_legal() -> None:
    for seed in range(60):
        for n in range(2, 9):
            g, _ = new_game(GameConfig(players=names(n), rules="dark-city", seed=seed))
            swapped = [c for c in g.lineup if c not in ORIGINAL_EIGHT and rank("2000", c) <= 8]
            assert 1 <= len(swapped) <= 2
            added = [u for u in g.uniques if u in DARK_CITY_PURPLE]
            assert len(added) == 3
            assert ("Graveyard" in g.uniques) == ("Diplomat" not in g.lineup)
            assert "Hospital" not in g.uniques or "Assassin" in g.lineup


def test_variants_are_checked() -> None:
    with pytest.raises(SetupError, match="no variant"):
        new_game(GameConfig(players=names(4), rules="classic", variants=["plague"]))
    g, _ = new_game(GameConfig(players=names(4), rules="original-2000", variants=["short-6", "plague"], seed=5))
    assert g.rules.name == "original-2000" and g.rules.complete_at == 6 and g.rules.plague
    assert sick_seat(g) in range(4) and view(g, 0).plague == sick_seat(g)


def test_catalogue_for_the_lobby() -> None:
    cat = {r["name"]: r for r in catalogue()}
    assert set(OLDER) <= set(cat)
    assert cat["classic"]["max_players"] == 7 and cat["dark-city"]["max_players"] == 8
    assert {o["name"] for o in cat["dark-city"]["options"]} == {
        "characters",
        "uniques",
        "rank9",
        "short-7",
        "short-6",
        "plague",
    }
    assert cat["2016"]["options"] == []


def test_edition_costs() -> None:
    from engine.city import printed_cost

    g, _ = new_game(
        GameConfig(
            players=names(4),
            rules="dark-city",
            characters=["Witch"],
            uniques=["Factory", "Poor House", "Imperial Treasury"],
        )
    )
    assert [printed_cost(g, c) for c in ("Observatory", "Imperial Treasury", "Poor House", "Factory")] == [5, 4, 5, 6]
    c, _ = new_game(GameConfig(players=names(4), rules="classic"))
    assert [printed_cost(c, x) for x in ("Observatory", "Imperial Treasury")] == [4, 5]


@pytest.mark.parametrize("rules", OLDER)
@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7))
def test_view_ignores_what_the_seat_cannot_see(rules: str, seed: int, players: int) -> None:
    """A seat's view does not change when everything it cannot see is dealt again (not while
    a Lighthouse search shows its owner the deck)."""
    from hidden_info import redraw

    from engine import view_bytes
    from engine.decisions import Choice

    def probe(g, cmd, rnd):
        if rnd.random() < 0.2 and not (isinstance(g.pending, Choice) and g.pending.about == "Lighthouse"):
            for seat in range(players):
                assert view_bytes(redraw(g, seat, rnd), seat) == view_bytes(g, seat), (
                    f"seat {seat} sees hidden information"
                )

    variants = ["plague"] if RULESETS[rules].options else []
    play(GameConfig(players=names(players), rules=rules, seed=seed, variants=variants), seed, probe)
