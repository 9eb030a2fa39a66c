"""The hard bot's evaluation of a position at a round boundary: each seat's chance to win.

A conditional-logit model: seat s wins with probability exp(w . x_s) / sum_t exp(w . x_t),
where x_s are features of seat s (points built, districts, gold, cards in hand, district types,
complete city, first to complete, crown) and w depends on how close the game is to its end
(the stage: districts the closest player still needs). The weights were fitted on rounds of
normal-bot games (`benchmarks/fit_eval.py`), so a playout that stops at the end of a round is
scored by what such positions went on to give, not by a hand-made guess.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..city import complete_at
from . import knowledge as K

if TYPE_CHECKING:
    from ..state import GameState, Player


FEATURES = ("points", "districts", "gold", "cards", "cards_over_4", "types", "complete", "first", "crown")


def stage_of(g: GameState) -> int:
    """0: a player needs at most 1 more district; 1: 2-3 more; 2: 4 or more."""
    target = complete_at(g)
    need = target - max(_size(p) for p in g.players)
    return 0 if need <= 1 else (1 if need <= 3 else 2)


def _size(p: Player) -> int:
    return len(p.city) + sum(1 for b in p.city if b.name == "Monument")


def features(g: GameState, s: int, target: int) -> list[float]:
    p = g.players[s]
    pts = sum(K.built_value(b) for b in p.city)
    size = _size(p)
    types = len({K.dtype(b.name) for b in p.city})
    hand = len(p.hand)
    return [
        float(pts),
        float(size),
        float(p.gold),
        float(min(hand, 4)),
        float(max(0, hand - 4)),
        float(types),
        1.0 if size >= target else 0.0,
        1.0 if g.first_complete == s else 0.0,
        1.0 if g.crown == s else 0.0,
    ]


# Fitted weights per stage (see the module docstring); refitted by benchmarks/fit_eval.py.
WEIGHTS: dict[int, list[float]] = {  # 16,039 round starts of normal-bot games (3, 5, 7 players, 3 line-ups)
    0: [0.288, 1.035, 0.309, 0.196, -0.217, 0.215, 0.0, 0.0, 0.154],
    1: [0.177, 0.623, 0.174, 0.15, -0.291, -0.004, 0.0, 0.0, 0.102],
    2: [0.118, 0.485, 0.125, 0.113, 0.167, 0.002, 0.0, 0.0, 0.118],
}


def win_chances(g: GameState) -> list[float]:
    """Each seat's estimated chance to win; exact (shared in a tie) once the game is over."""
    n = len(g.players)
    if g.phase == "over":
        w = g.winners
        return [(1.0 / len(w)) if s in w else 0.0 for s in range(n)]
    target = complete_at(g)
    ws = WEIGHTS[stage_of(g)]
    utils = [sum(a * b for a, b in zip(ws, features(g, s, target))) for s in range(n)]
    top = max(utils)
    es = [math.exp(u - top) for u in utils]
    tot = sum(es)
    return [e / tot for e in es]


def evaluate(g: GameState, me: int) -> float:
    return win_chances(g)[me]
