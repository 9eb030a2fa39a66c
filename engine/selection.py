"""The selection phase: discards, then characters passed round the table.

A round's selection is a list of steps computed at its start from the player
count and the number of characters (rulebook tables); `advance` runs the
automatic steps and stops at the next seat that must choose.
Step kinds: pick, discard (2 players: one face down after each later pick),
take_facedown (7 players with 8 characters, 8 with 9: the last player also
takes the face-down card), random_discard (3 players with 9 characters),
rest_facedown (the unchosen card goes face down).
"""

from __future__ import annotations

from typing import Any

from .cards.characters import RANK
from .events import Event
from .finals import EVENT, PICK_CHARACTER
from .rng import Rng
from .rules import FACEUP
from .state import GameState, Selection


def _faceup_discards(chars: list[str], n: int, rng: Rng) -> list[str]:
    """Discard n characters face up from the top; rank 4 is never left face up:
    it is replaced by another card and shuffled back in."""
    out: list[str] = []
    while len(out) < n:
        c = chars.pop()
        if RANK[c] == 4:
            replacement = chars.pop()
            chars.append(c)
            rng.shuffle(chars)
            c = replacement
            if RANK[c] == 4:  # impossible with one character per rank; kept for safety
                continue
        out.append(c)
    return out


def plan_steps(g: GameState) -> list[list[Any]]:
    """The selection's steps, [kind, seat] each, for this round's player count and line-up."""
    n = len(g.players)
    order = [(g.crown + i) % n for i in range(n)]
    k = len(g.lineup)
    if n == 2:
        a, b = order
        return [["pick", a], ["pick", b], ["discard", b], ["pick", a], ["discard", a], ["pick", b], ["discard", b]]
    if n == 3:
        a, b, c = order
        if k == 9:  # 2016: round once, a random face-down discard, round again
            return [
                ["pick", a],
                ["pick", b],
                ["pick", c],
                ["random_discard", c],
                ["pick", a],
                ["pick", b],
                ["pick", c],
                ["rest_facedown", c],
            ]
        # 8 characters (Classic, 2000): picks go round until everyone holds two
        return [["pick", s] for s in order * 2] + [["rest_facedown", c]]
    steps = [["pick", s] for s in order]
    if (n == 7 and k == 8) or (n == 8 and k == 9):
        steps.insert(n - 1, ["take_facedown", order[-1]])
    steps.append(["rest_facedown", order[-1]])
    return steps


def start(g: GameState, ev: list[Event], order: list[str] | None = None) -> None:
    """Shuffle the characters, make the discards, and plan the picks.
    `order` (top first) replaces the shuffle, for scenarios."""
    n = len(g.players)
    rng = Rng(g.rng)
    if order is not None:
        chars = list(reversed(order))
    else:
        chars = list(g.lineup)
        rng.shuffle(chars)
    faceup_n = FACEUP[len(chars)].get(n, 0) if n >= 4 else 0
    sel = Selection()
    if g.rules.faceup_before_facedown:
        sel.faceup = _faceup_discards(chars, faceup_n, rng)
        sel.facedown = [chars.pop()]
    else:  # 2000 edition: the face-down card first
        sel.facedown = [chars.pop()]
        sel.faceup = _faceup_discards(chars, faceup_n, rng)
    g.rng = rng.state
    sel.pool = chars
    g.selection = sel
    sel.steps = plan_steps(g)
    for p in g.players:
        p.characters = []
    ev.append(EVENT("round_started", seat=g.crown, count=g.round))
    ev.append(EVENT("characters_discarded", cards=list(sel.faceup), count=len(sel.facedown)))
    advance(g, ev)


def advance(g: GameState, ev: list[Event]) -> bool:
    """Run automatic steps; set the next pick decision. Returns True when selection is over."""
    sel = g.selection
    while sel.steps:
        kind, seat = sel.steps[0]
        if kind == "pick":
            g.pending = PICK_CHARACTER(seat, "pick")
            return False
        if kind == "discard":
            g.pending = PICK_CHARACTER(seat, "discard")
            return False
        sel.steps.pop(0)
        if kind == "take_facedown":
            sel.pool.extend(sel.facedown)
            sel.facedown = []
            ev.append(EVENT("took_facedown", seat=seat))
        elif kind == "random_discard":
            rng = Rng(g.rng)
            c = sel.pool.pop(rng.below(len(sel.pool)))
            g.rng = rng.state
            sel.facedown.append(c)
            ev.append(EVENT("character_discarded", seat=seat, character=c, private=[]))
        elif kind == "rest_facedown":
            sel.facedown.extend(sel.pool)
            if sel.pool:
                ev.append(EVENT("character_discarded", seat=seat, count=len(sel.pool), private=[]))
            sel.pool = []
    return True


def pick(g: GameState, seat: int, character: str, ev: list[Event]) -> None:
    sel = g.selection
    sel.pool.remove(character)
    sel.steps.pop(0)
    g.players[seat].characters.append(character)
    g.holders[character] = seat
    ev.append(EVENT("character_picked", seat=seat, character=character, private=[seat]))


def discard(g: GameState, seat: int, character: str, ev: list[Event]) -> None:
    sel = g.selection
    sel.pool.remove(character)
    sel.steps.pop(0)
    sel.facedown.append(character)
    ev.append(EVENT("character_discarded", seat=seat, character=character, private=[seat]))
