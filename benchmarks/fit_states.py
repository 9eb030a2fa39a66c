"""Game states for the layout measure (benchmarks/screen_fit.py), sampled from bot games.

`sample(n, seed)` plays normal-bot games of every rule set with 2 to its
maximum of players, keeps every decision point, and picks `n` of them: first
one of every kind of pending decision met (character choice and discard, a
turn before and after gathering, keeping a card, each question and each card
choice), then the rest spread over rule sets, player counts and stages (early,
mid, late). Each sample is seen from the seat to move, from a seat waiting or
by a spectator. One sample in ten is the issue's crowded case: a late game
of 8 (or the rule set's most) players whose seat to move holds 10 cards.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameConfig, apply, legal_commands, new_game, redact_events, view
from engine.bots.registry import make_bot
from engine.cards.lineups import PRESETS
from engine.city import complete_at
from engine.rules import RULESETS
from engine.state import GameState

# names of every length a server sees (20 at most), bots' marked as the server marks them
NAMES = [
    "Ana",
    "Benedetta",
    "Mason (bot)",
    "Cid",
    "Maximiliano Ortega",
    "Morgana (bot)",
    "Dee",
    "Fitzgerald",
]
LOG_EVENTS = 80  # events of the game so far given to the log
_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(GameState)


@dataclass
class Sample:
    label: str  # rules/players/stage/decision/role, for the report
    view: Any  # engine.View of the seat (or the spectator)
    events: list[Any]  # the last events of the game, redacted for that seat
    role: str  # "to_move", "waiting" or "spectator"
    decision: str  # the kind of pending decision


def decision_of(g: GameState) -> str:
    pd = g.pending
    kind = type(pd).__struct_config__.tag
    if kind == "pick_character":
        return f"{kind}:{getattr(pd, 'mode', '') or 'pick'}"
    if kind == "play_turn":
        return f"{kind}:{'gathered' if g.turn is not None and g.turn.gathered else 'gather'}"
    if kind == "choice":
        return f"{kind}:{pd.about}"
    if kind == "select_cards":
        return f"{kind}:{pd.purpose}"
    return kind


def _stage(g: GameState, complete: int) -> str:
    most = max(len(p.city) for p in g.players)
    if g.round <= 2:
        return "early"
    return "late" if most >= complete - 2 else "mid"


@dataclass
class _Point:
    state: bytes
    events: int  # events before this point
    rules: str
    players: int
    stage: str
    decision: str


def _play(rules: str, players: int, seed: int, preset: str | None) -> tuple[list[_Point], list[Any]]:
    cfg = GameConfig(players=NAMES[:players], rules=rules, seed=seed, preset=preset)
    g, events = new_game(cfg)
    bots = [make_bot("normal", seed * 10 + s) for s in range(players)]
    points: list[_Point] = []
    complete = complete_at(g)
    while g.phase != "over":
        seat = g.pending.seat
        points.append(_Point(_enc.encode(g), len(events), rules, players, _stage(g, complete), decision_of(g)))
        legal = legal_commands(g, seat)
        cmd = legal[0] if len(legal) == 1 else bots[seat].choose(legal, view(g, seat))
        events.extend(apply(g, cmd, check=False))
    points.append(_Point(_enc.encode(g), len(events), rules, players, "late", "game_over"))
    return points, events


def _crowd(g: GameState, seat: int, cards: int = 10) -> None:
    """Top the seat's hand up to `cards` from the deck (the issue's crowded screen)."""
    hand = g.players[seat].hand
    while len(hand) < cards and g.deck:
        hand.append(g.deck.pop())


def sample(n: int = 300, seed: int = 0, games_per: int = 2) -> list[Sample]:
    rng = random.Random(seed)
    games: list[tuple[list[_Point], list[Any]]] = []
    lineups = [*PRESETS, "random"]  # the 2016 line-ups: every character and unique district shows up
    for r in RULESETS.values():
        for players in range(r.min_players, r.max_players + 1):
            for k in range(games_per):
                preset = lineups[(players * games_per + k) % len(lineups)] if r.edition == "2016" else None
                games.append(_play(r.name, players, seed * 1000 + players * 10 + k, preset))
    pool = [(gi, pi) for gi, (points, _) in enumerate(games) for pi in range(len(points))]
    by_decision: dict[str, list[tuple[int, int]]] = {}
    for gi, pi in pool:
        by_decision.setdefault(games[gi][0][pi].decision, []).append((gi, pi))
    picked: list[tuple[int, int, str]] = []
    for decision in sorted(by_decision):  # every kind of decision, from the seat that decides
        gi, pi = rng.choice(by_decision[decision])
        picked.append((gi, pi, "to_move"))
    strata: dict[tuple, list[tuple[int, int]]] = {}
    for gi, pi in pool:
        p = games[gi][0][pi]
        strata.setdefault((p.rules, p.players, p.stage), []).append((gi, pi))
    keys = sorted(strata)
    rng.shuffle(keys)
    i = 0
    while len(picked) < n:
        key = keys[i % len(keys)]
        gi, pi = rng.choice(strata[key])
        r = rng.random()
        role = "to_move" if r < 0.6 else "waiting" if r < 0.9 else "spectator"
        if len(picked) % 10 == 9:
            role = "crowd"
        picked.append((gi, pi, role))
        i += 1
    out = []
    for gi, pi, role in picked[:n]:
        if role == "crowd":
            gi, pi = _late_crowd(games, rng) or (gi, pi)
        points, events = games[gi]
        point = points[pi]
        g = _dec.decode(point.state)
        mover = g.pending.seat
        if role == "crowd":
            _crowd(g, mover)
            seat: int | None = mover
        elif role == "to_move":
            seat = mover
        elif role == "waiting":
            seat = rng.choice([s for s in range(len(g.players)) if s != mover] or [mover])
        else:
            seat = None
        evs = events[: point.events][-LOG_EVENTS:]
        label = f"{point.rules}/{point.players}p/{point.stage}/{point.decision}/{role}"
        out.append(Sample(label, view(g, seat), redact_events(evs, seat), role, point.decision))
    return out


def _late_crowd(games: list[tuple[list[_Point], list[Any]]], rng: random.Random) -> tuple[int, int] | None:
    """A late turn of a game with the most players of all (8)."""
    most = max(points[0].players for points, _ in games)
    late = [
        (gi, pi)
        for gi, (points, _) in enumerate(games)
        if points[0].players == most
        for pi, p in enumerate(points)
        if p.stage == "late" and p.decision.startswith("play_turn")
    ]
    return rng.choice(late) if late else None
