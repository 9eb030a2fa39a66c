"""A random line-up, legal for the player count and reproducible from the seed.

Characters: one per rank 1-8 among those the engine can play, never the Emperor
with 2 players; a rank-9 character with 3 and 8 players, none with 2, and with
4-7 players one in two games (or as `GameConfig.rank9` says); never the Queen
with fewer than 5 players.

Unique districts: the rulebook asks for "14 unique districts of different build
costs" (000: "de diferentes costos de construcción"; 002: "com diversos custos").
We read it as a spread: one district of each cost 2, 3, 4, 5 and 6 first, then
9 more drawn from all the others (the Secret Vault, which has no cost, among
them). The draw uses its own generator stream derived from the game seed, so
the same seed gives the same line-up and the game's shuffles are unchanged.
"""

from __future__ import annotations

from .cards.characters import CHARACTERS, RANK
from .cards.districts import UNIQUE_DISTRICTS
from .hooks import ROLES, UNIQUES
from .rng import Rng, seed_state

_STREAM = 0x4C494E455550  # "LINEUP": a stream apart from the game's own
SPREAD_COSTS = (2, 3, 4, 5, 6)


def _rng(seed: int) -> Rng:
    return Rng(seed_state(seed) ^ _STREAM)


def random_characters(players: int, rng: Rng, rank9: bool | None = None, rank9_allowed: bool = True) -> list[str]:
    chars = []
    for rank in range(1, 9):
        pool = [c for c in CHARACTERS if RANK[c] == rank and c in ROLES and not (players == 2 and c == "Emperor")]
        chars.append(rng.choice(pool))
    if players in (3, 8):
        want9 = True
    elif players == 2 or not rank9_allowed:
        want9 = False
    else:
        draw = rng.below(2) == 1  # drawn always, so the district draw does not depend on `rank9`
        want9 = draw if rank9 is None else rank9
    if want9:
        pool = [c for c in CHARACTERS if RANK[c] == 9 and c in ROLES and not (players < 5 and c == "Queen")]
        chars.append(rng.choice(pool))
    return chars


def random_uniques(rng: Rng, count: int = 14) -> list[str]:
    names = [u for u in UNIQUE_DISTRICTS if u in UNIQUES]
    chosen: list[str] = []
    for cost in SPREAD_COSTS:
        pool = [u for u in names if UNIQUE_DISTRICTS[u].cost == cost and u != "Secret Vault"]
        if pool:
            chosen.append(rng.choice(pool))
    rest = [u for u in names if u not in chosen]
    rng.shuffle(rest)
    chosen += rest[: count - len(chosen)]
    return sorted(chosen)


def random_lineup(
    players: int, seed: int, rank9: bool | None = None, rank9_allowed: bool = True
) -> tuple[list[str], list[str]]:
    """(characters in rank order, 14 unique districts) for `players` and `seed`."""
    rng = _rng(seed)
    chars = random_characters(players, rng, rank9, rank9_allowed)
    return sorted(chars, key=lambda c: RANK[c]), random_uniques(rng)
