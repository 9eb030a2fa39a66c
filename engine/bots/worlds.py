"""What the searching bots (hard, expert) imagine: sampled worlds and their play-outs.

`sample_world` draws a full game state consistent with one seat's view (`determinize`); during the
selection it draws `infer` of them and keeps one in proportion to how plausible the earlier picks
are (`policy_infer`). `play_out` lets normal bots play every seat of such a world to the end of a
round and scores it with the fitted evaluation (`policy_eval`). Only the view goes in; the worlds
are the bot's imagination.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..apply import apply
from ..legal import legal_commands
from ..view import view as seat_view
from . import policy_eval
from .determinize import determinize
from .normal import NormalBot
from .policy_infer import PickModel
from .styles import STYLES

if TYPE_CHECKING:
    from ..state import GameState
    from ..view import View

ROLLOUT_STYLE = STYLES["balanced"]


def sample_world(view: View, rng: random.Random, pick_model: PickModel, infer: int) -> GameState:
    """A world consistent with the view; during the selection, drawn among `infer` uniform samples
    in proportion to how plausible their earlier picks are."""
    if infer <= 1 or view.phase != "selection":
        return determinize(view, rng)
    worlds: list[GameState] = []
    weights: list[float] = []
    seat = view.seat
    assert seat is not None
    for _ in range(infer):
        w = determinize(view, rng)
        worlds.append(w)
        weights.append(pick_model.likelihood(w, seat))
    tot = sum(weights)
    if tot <= 0.0:
        return worlds[0]
    x = rng.random() * tot
    for w, p in zip(worlds, weights):
        x -= p
        if x <= 0.0:
            return w
    return worlds[-1]


def rollout_bots(players: int) -> list[NormalBot]:
    """One normal bot per seat, reseeded for every play-out."""
    return [NormalBot(0, ROLLOUT_STYLE) for _ in range(players)]


def play_out(g: GameState, me: int, seed: int, stop_round: int, bots: list[NormalBot], max_commands: int) -> float:
    """Normal bots play every seat of `g` to the end of round `stop_round - 1` (or the game);
    `me`'s chance to win then (exact once the game is over, else the fitted model)."""
    for s, b in enumerate(bots):
        b.rng.seed(seed * 31 + s)
    steps = 0
    while g.phase != "over" and g.round < stop_round and steps < max_commands:
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if not legal:
            break
        cmd = legal[0] if len(legal) == 1 else bots[seat].choose(legal, seat_view(g, seat))
        apply(g, cmd, check=False)
        steps += 1
    return policy_eval.evaluate(g, me)
