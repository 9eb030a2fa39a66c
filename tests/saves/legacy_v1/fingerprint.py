"""What a position does, in one hash: every seat's view and a spectator's, the legal commands of the
seat to move, then a seeded random-bot continuation to the end (each command, its events, and the
views it leaves). Only public engine names are used, so the engine that wrote the format-1 saves
and the current one can both compute it (expected.json holds the old engine's)."""

from __future__ import annotations

import hashlib

import msgspec

from engine import GameState, apply, legal_commands, view_bytes
from engine.bots.random_bot import RandomBot

_enc = msgspec.msgpack.Encoder()


def fingerprint(g: GameState, seed: int = 7, limit: int = 20_000) -> str:
    """The hash of `g`'s views and of its continuation (`g` is played to the end in place)."""
    h = hashlib.sha256()
    seats = [*range(len(g.players)), None]
    for s in seats:
        h.update(view_bytes(g, s))
    bots = [RandomBot(seed * 10 + s) for s in range(len(g.players))]
    for _ in range(limit):
        if g.phase == "over":
            break
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        h.update(_enc.encode(legal))
        cmd = bots[seat].choose(legal)
        h.update(_enc.encode(cmd))
        h.update(_enc.encode(apply(g, cmd)))
        h.update(view_bytes(g, seat))
    h.update(_enc.encode([[p.gold, p.hand, p.city, p.characters] for p in g.players]))
    h.update(_enc.encode([g.deck, g.rng, g.scores, g.winners]))
    return h.hexdigest()
