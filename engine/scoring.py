"""Game end: each player's score with its breakdown, and the winner.

End-of-game choices (the Haunted Quarter's type, revealing a Secret Vault)
are made for each player so as to maximise their score: each unique district
that offers a choice lists its options through `Unique.score_options`, and
every combination is tried (there are at most a handful).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Final

from .cards.districts import DISTRICTS, TYPES
from .cards.editions import rank
from .city import complete_at, size, value
from .hooks import UNIQUES, ScoreCtx
from .state import GameState, Score

_ALL_TYPES: Final = frozenset(TYPES)


def type_at_end(name: str, ctx: ScoreCtx) -> str:
    """A district's type at game end: its printed type unless an end-of-game choice
    changed it (the Haunted Quarter counted as another type is no longer unique)."""
    chosen = ctx.get("type:" + name)
    return chosen if isinstance(chosen, str) else DISTRICTS[name].type


def _types(g: GameState, seat: int, ctx: ScoreCtx) -> set[str]:
    return {type_at_end(b.name, ctx) for b in g.players[seat].city}


def score_player(g: GameState, seat: int, ctx: ScoreCtx) -> Score:
    p = g.players[seat]
    s = Score(seat=seat, choices={k: v for k, v in ctx.items() if isinstance(v, str)})
    s.districts = sum(value(b, g) for b in p.city)
    if _types(g, seat, ctx) >= _ALL_TYPES:
        s.all_types = 3
    if g.first_complete == seat:
        s.first_complete = 4
    elif size(g, seat) >= complete_at(g):
        s.complete = 2
    for name in dict.fromkeys(b.name for b in p.city):
        u = UNIQUES.get(name)
        if u is not None:
            pts = u.score(g, seat, ctx)
            if pts:
                s.bonuses[name] = pts
    for name in dict.fromkeys(c for c in p.hand if c in UNIQUES):
        pts = UNIQUES[name].score_from_hand(g, seat, ctx)
        if pts:
            s.bonuses[name] = s.bonuses.get(name, 0) + pts
    s.total = s.districts + s.all_types + s.first_complete + s.complete + sum(s.bonuses.values())
    return s


def _contexts(g: GameState, seat: int) -> Iterator[ScoreCtx]:
    """Every combination of the player's end-of-game choices."""
    options: list[list[ScoreCtx]] = []
    names = [b.name for b in g.players[seat].city] + list(g.players[seat].hand)
    for name in dict.fromkeys(names):
        u = UNIQUES.get(name)
        if u is not None:
            opts = u.score_options(g, seat)
            if opts:
                options.append(opts)
    if not options:
        yield {}
        return
    for combo in itertools.product(*options):
        ctx: ScoreCtx = {}
        for part in combo:
            ctx.update(part)
        yield ctx


def best_score(g: GameState, seat: int) -> Score:
    best = None
    for ctx in _contexts(g, seat):
        s = score_player(g, seat, ctx)
        if best is None or s.total > best.total:
            best = s
    assert best is not None
    if g.rules.tiebreak == "gold":  # 2000 rules (open point): most gold left, then shared
        best.tiebreak = g.players[seat].gold
        return best
    ranks = [rank(g.rules.edition, c) for c, s in g.revealed.items() if s == seat]
    best.tiebreak = max(ranks) if ranks else -1
    return best


def final_scores(g: GameState) -> list[Score]:
    return [best_score(g, seat) for seat in range(len(g.players))]


def winners(g: GameState, scores: list[Score]) -> list[int]:
    """Most points; a tie goes to the tied player who revealed the highest rank in
    the last round. A tie that remains (no rank revealed by either) is shared."""
    top = max(s.total for s in scores)
    tied = [s for s in scores if s.total == top]
    best = max(s.tiebreak for s in tied)
    return [s.seat for s in tied if s.tiebreak == best]
