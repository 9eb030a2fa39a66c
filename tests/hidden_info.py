"""Test support: redraw everything one seat cannot see.

`redraw(g, seat, rnd)` returns a copy of `g` in which the other players' hands,
the cards under their Museums, the deck order, the unrevealed characters of other players, the face-down
discards and the characters being passed (when not to `seat`) are dealt
again at random, and the generator state changed. The seat's view must not
change: that is the hidden-information property.
"""

from __future__ import annotations

import random

from engine.decisions import PickCharacter
from engine.roles import blackmailer, magistrate
from engine.state import GameState, copy_state


def redraw(g: GameState, seat: int, rnd: random.Random) -> GameState:
    h = copy_state(g)
    # District cards: other hands and the deck, sizes kept.
    others = [s for s in range(len(h.players)) if s != seat]
    # Cards under another player's Museum are face down too.
    pool = list(h.deck)
    under = [b for s in others for b in h.players[s].city if b.under]
    for s in others:
        pool.extend(h.players[s].hand)
    for b in under:
        pool.extend(b.under)
    rnd.shuffle(pool)
    for s in others:
        n = len(h.players[s].hand)
        h.players[s].hand, pool = pool[:n], pool[n:]
    for b in under:
        n = len(b.under)
        b.under, pool = pool[:n], pool[n:]
    h.deck = pool
    # Characters: unrevealed ones of other players, face-down discards, the pool when not ours.
    p = h.pending
    my_pick = isinstance(p, PickCharacter) and p.seat == seat
    slots: list[tuple[str, int, int]] = []  # (where, owner, index)
    names: list[str] = []
    # A character already called that answered nobody and was not killed is known to be
    # unheld (face down or passed over): it stays where it is.
    known_unheld = {c for c in h.lineup[: h.called] if c not in h.revealed and c != h.markers.killed}
    for s in others:
        for i, c in enumerate(h.players[s].characters):
            if h.revealed.get(c) != s:
                slots.append(("player", s, i))
                names.append(c)
    for i, c in enumerate(h.selection.facedown):
        if c not in known_unheld:
            slots.append(("facedown", -1, i))
            names.append(c)
    if not my_pick:
        for i, c in enumerate(h.selection.pool):
            slots.append(("pool", -1, i))
            names.append(c)
    rnd.shuffle(names)
    for (where, s, i), c in zip(slots, names):
        if where == "player":
            h.players[s].characters[i] = c
        elif where == "facedown":
            h.selection.facedown[i] = c
        else:
            h.selection.pool[i] = c
    h.holders = {c: s for s, pl in enumerate(h.players) for c in pl.characters}
    # Hidden markers: which warrant is signed, which threat is flowered (unless revealed or owned by seat).
    w = magistrate.Warrants.get(h)
    if w is not None and w.signed and not w.revealed and magistrate.owner(h) != seat and w.characters:
        w.signed = rnd.choice(w.characters)
    th = blackmailer.Threats.get(h)
    if th is not None and th.flowered and blackmailer.owner(h) != seat and th.flowered not in th.revealed:
        hidden = [t for t in th.characters if t not in th.revealed]
        if hidden:
            th.flowered = rnd.choice(hidden)
    h.rng = rnd.getrandbits(64)
    return h
