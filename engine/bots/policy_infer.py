"""Plausibility of a sampled world: would the players before me have picked what it gives them?

During the selection, the characters missing from the pool passed to a seat were taken by the
players before it (or lie face down). A world sampled uniformly (`determinize`) deals them at
random; here, each earlier pick of the world is replayed from the pool that player saw (the
initial pool is the current pool plus every character already held, and the picks go in the
planned order) and scored by the normal bot from that player's view of the sampled world: the
world's weight is the product, over the earlier picks, of the softmax probability of the pick.
The hard bot draws each world it searches from a few uniform samples in proportion to these
weights (sampling-importance-resampling), so the Assassin is where the table's habits put it.

Only the sampled world is read (it is the bot's imagination, built from its view).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..commands import Pick
from ..decisions import PickCharacter
from ..selection import plan_steps
from ..view import view as seat_view
from .normal import NormalBot
from .styles import STYLES

if TYPE_CHECKING:
    from ..state import GameState


class PickModel:
    def __init__(self, temp: float = 1.0) -> None:
        self.temp = temp
        self.scorer = NormalBot(0, STYLES["balanced"])

    def likelihood(self, world: GameState, me: int) -> float:
        """The probability (up to a constant) of the earlier picks of `world`; 1.0 when not applicable."""
        pend = world.pending
        if world.phase != "selection" or not isinstance(pend, PickCharacter) or pend.mode != "pick":
            return 1.0
        n = len(world.players)
        held = [list(p.characters) for p in world.players]
        total = sum(len(h) for h in held)
        if total == 0:
            return 1.0
        sel = world.selection
        saved_pool = sel.pool
        pool = list(sel.pool) + [c for h in held for c in h]
        k = [0] * n
        done = 0
        logl = 0.0
        try:
            for kind, s in plan_steps(world):
                if done >= total or kind != "pick":
                    break
                if k[s] >= len(held[s]):
                    break  # the world does not follow the plan: stop inferring
                c = held[s][k[s]]
                if s != me and len(pool) > 1 and c in pool:
                    for t in range(n):
                        world.players[t].characters = held[t][: k[t]]
                    sel.pool = list(pool)
                    world.pending = PickCharacter(s, "pick")
                    legal = [Pick(s, x) for x in pool]
                    sc = self.scorer.scores(legal, seat_view(world, s), noise=False)
                    top = max(sc)
                    z = sum(math.exp((x - top) / self.temp) for x in sc)
                    logl += (sc[pool.index(c)] - top) / self.temp - math.log(z)
                if c in pool:
                    pool.remove(c)
                k[s] += 1
                done += 1
        finally:
            for t in range(n):
                world.players[t].characters = held[t]
            sel.pool = saved_pool
            world.pending = pend
        return math.exp(logl)
