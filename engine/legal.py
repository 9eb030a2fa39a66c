"""`legal_commands(state, seat)`: exactly what a seat may do now.

The UI builds its prompt from this list and bots choose from it; `apply`
refuses anything not in it. The list is ordered deterministically.
"""

from __future__ import annotations

from . import turn
from .commands import Command
from .decisions import SelectCards
from .distinct import distinct
from .finals import (
    CHOICE,
    CHOOSE,
    CONFIRM,
    DISCARD_CHARACTER,
    KEEP,
    KEEP_CARDS,
    PICK,
    PICK_CHARACTER,
    PLAY_TURN,
    SELECT,
    SELECT_CARDS,
    UNSELECT,
)
from .state import GameState


def legal_commands(g: GameState, seat: int) -> list[Command]:
    p = g.pending
    if p.seat != seat:
        return []
    if type(p) is PLAY_TURN:
        assert g.turn is not None  # a turn is being played
        return turn.legal(g, g.turn)
    if type(p) is PICK_CHARACTER:
        pool = distinct(g.selection.pool)
        if p.mode == "pick":
            return [PICK(seat, c) for c in pool]
        return [DISCARD_CHARACTER(seat, c) for c in pool]
    if isinstance(p, KEEP_CARDS):
        assert g.turn is not None  # cards are kept in a turn
        return [KEEP(seat, c) for c in distinct(g.turn.drawn)]
    if isinstance(p, CHOICE):
        return [CHOOSE(seat, o) for o in p.options]
    if isinstance(p, SELECT_CARDS):
        return select_commands(g, p)
    return []


def select_source(g: GameState, p: SelectCards) -> list[str]:
    if p.source == "hand":
        return g.players[p.seat].hand
    if p.source == "drawn" and g.turn is not None:
        return g.turn.drawn
    return p.offered


def select_commands(g: GameState, p: SelectCards) -> list[Command]:
    out: list[Command] = []
    source = select_source(g, p)
    seat, selected = p.seat, p.selected  # read once: a Struct's attribute is a generic look-up compiled
    n = len(selected)
    if n < p.max:
        reserved = p.reserved
        if not n and not reserved:  # every card of the source may be selected
            out = [SELECT(seat, c) for c in distinct(source)]
        else:
            names = distinct(source)
            repeats = names is not source  # else a card selected or reserved has no other copy
            for c in names:
                # a copy not yet selected nor reserved remains (counted only for a card named there)
                if (c not in selected and c not in reserved) or (
                    repeats and source.count(c) - reserved.count(c) > selected.count(c)
                ):
                    out.append(SELECT(seat, c))
    for c in distinct(selected):
        out.append(UNSELECT(seat, c))
    if n >= p.min:
        out.append(CONFIRM[seat])
    return out
