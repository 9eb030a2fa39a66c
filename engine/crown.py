"""The crown: one holder, who picks first and calls the characters."""

from __future__ import annotations

from .events import Event
from .finals import EVENT
from .state import GameState


def give_crown(g: GameState, seat: int, ev: list[Event], by: str) -> None:
    if g.crown == seat:
        ev.append(EVENT("crown_kept", seat=seat, character=by))
        return
    old = g.crown
    g.crown = seat
    ev.append(EVENT("crown_moved", seat=seat, player=old, character=by))
    if g.rules.edition != "2016":  # older districts that react to the crown changing hands (Throne Room)
        from .caches import city

        for s in range(len(g.players)):
            for u in city(g, s).on_crown_moved:
                u.on_crown_moved(g, s, old, seat, ev)
