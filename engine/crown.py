"""The crown: one holder, who picks first and calls the characters."""
from __future__ import annotations

from .events import Event
from .state import GameState


def give_crown(g: GameState, seat: int, ev: list[Event], by: str) -> None:
    if g.crown == seat:
        ev.append(Event("crown_kept", seat=seat, character=by))
        return
    old = g.crown
    g.crown = seat
    ev.append(Event("crown_moved", seat=seat, player=old, character=by))
