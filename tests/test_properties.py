"""Property tests: random legal games at every player count, checked after every command.

Invariants: cards conserved, gold never negative, exactly one crown, no
character held twice, the game ends; a seat's view does not change when
everything it cannot see is redrawn; a refused command changes nothing.
"""

from __future__ import annotations

import msgspec
import pytest
from hidden_info import redraw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples
from random_play import play_random

from engine import GameConfig, IllegalCommand, apply, legal_commands, view_bytes
from engine.cards.characters import CHARACTERS
from engine.commands import Command
from engine.hooks import ROLES
from engine.state import encode
from engine.view import view


def lineups(players: int) -> list[list[str]]:
    """Line-ups that together hold every playable character, legal for this player count."""
    by_rank: dict[int, list[str]] = {}
    for c in CHARACTERS.values():
        if c.name in ROLES and not (players == 2 and c.name == "Emperor") and not (players < 5 and c.name == "Queen"):
            by_rank.setdefault(c.rank, []).append(c.name)
    if any(r not in by_rank for r in range(1, 9)):
        return []
    width = max(len(v) for v in by_rank.values())
    out = []
    for k in range(width):
        lineup = [by_rank[r][k % len(by_rank[r])] for r in range(1, 9)]
        if players in (3, 8) or (players != 2 and k % 2 == 1):
            if 9 not in by_rank:
                continue
            lineup.append(by_rank[9][k % len(by_rank[9])])
        out.append(lineup)
    return out


def playable_counts() -> list[int]:
    return [n for n in range(2, 9) if lineups(n)]


PLAYERS = playable_counts()
# Every player count is a sweep (slow); the smallest, a middle and the largest stay in the fast tier.
PLAYER_SWEEP = [n if n in (min(PLAYERS), 5, max(PLAYERS)) else pytest.param(n, marks=pytest.mark.slow) for n in PLAYERS]
SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(players: int, lineup_index: int, seed: int, each=None) -> None:
    options = lineups(players)
    lineup = options[lineup_index % len(options)]
    play_random(GameConfig(players=[f"P{i}" for i in range(players)], characters=lineup, seed=seed), seed, each)


@pytest.mark.parametrize("players", PLAYER_SWEEP)
@SETTINGS
@given(lineup=st.integers(0, 8), seed=st.integers(0, 2**32))
def test_random_games_keep_invariants(players: int, lineup: int, seed: int) -> None:
    play(players, lineup, seed)


@pytest.mark.parametrize("players", PLAYER_SWEEP)
@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lineup=st.integers(0, 8), seed=st.integers(0, 2**32))
def test_view_ignores_what_the_seat_cannot_see(players: int, lineup: int, seed: int) -> None:
    def probe(g, cmd, rnd):
        if rnd.random() < 0.15:
            for seat in range(players):
                h = redraw(g, seat, rnd)
                if view_bytes(h, seat) != view_bytes(g, seat):
                    a, b = msgspec.to_builtins(view(g, seat)), msgspec.to_builtins(view(h, seat))
                    raise AssertionError(f"seat {seat} sees hidden information: {differences(a, b)}")
            assert view_bytes(redraw(g, -1, rnd), None) == view_bytes(g, None), "a spectator sees hidden information"

    play(players, lineup, seed, probe)


@pytest.mark.parametrize("players", PLAYER_SWEEP)
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lineup=st.integers(0, 8), seed=st.integers(0, 2**32))
def test_views_sharing_the_other_players_are_each_seats_own(players: int, lineup: int, seed: int) -> None:
    """`view(g, seat, others)`, every seat and a spectator after one another (a table after a move):
    each the same bytes as the seat's view made alone; a player as the others see them one object in
    all of them; a seat's own player never that object."""

    def probe(g, cmd, rnd):
        others: dict = {}
        seats = [*range(players), None]
        rnd.shuffle(seats)
        shared = {seat: view(g, seat, others) for seat in seats}
        for seat, v in shared.items():
            assert msgspec.msgpack.encode(v) == view_bytes(g, seat), f"seat {seat}'s view differs when shared"
            for pv in v.players:
                assert (pv is others[pv.seat]) == (pv.seat != seat), f"seat {seat}, player {pv.seat}"
        assert set(others) == set(range(players))

    play(players, lineup, seed, probe)


def differences(a, b, path: str = "") -> list[str]:
    if type(a) is not type(b):
        return [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, dict):
        return [
            d
            for k in sorted(set(a) | set(b), key=str)
            if a.get(k) != b.get(k)
            for d in differences(a.get(k), b.get(k), f"{path}.{k}")
        ]
    if isinstance(a, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [f"{path}: {a!r} != {b!r}"] if a != b else []


_decoder = msgspec.json.Decoder(Command)


@pytest.mark.parametrize("players", PLAYER_SWEEP)
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lineup=st.integers(0, 8), seed=st.integers(0, 2**32))
def test_refused_commands_change_nothing(players: int, lineup: int, seed: int) -> None:
    """Mutate legal commands at random (other seat, other card, other target): anything not
    legal is refused with a message and leaves the state byte-identical."""
    from engine.cards.districts import DISTRICTS

    names = list(DISTRICTS) + list(CHARACTERS) + ["nothing"]

    def probe(g, cmd, rnd):
        for _ in range(3):
            d = msgspec.to_builtins(cmd)
            key = rnd.choice(list(d))
            if key == "type":
                continue
            if isinstance(d[key], int):
                d[key] = rnd.randrange(-1, players + 1)
            elif isinstance(d[key], str):
                d[key] = rnd.choice(names)
            other = _decoder.decode(msgspec.json.encode(d))
            before = encode(g)
            if other in legal_commands(g, other.seat) if 0 <= other.seat < players else False:
                continue
            with pytest.raises(IllegalCommand) as err:
                apply(g, other)
            assert str(err.value), "a refusal needs a message"
            assert encode(g) == before, f"refused {other} changed the state"

    play(players, lineup, seed, probe)
