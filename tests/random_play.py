"""Test support: play a game to the end with uniformly random legal commands.

After every command: the invariants (cards conserved, gold never negative, one
crown, no character held twice), and every event's hidden fields blanked for the
seats outside its `private` list; the game must end. `probe(g, cmd, rnd)` runs
before each command, for property checks at random points.
"""

from __future__ import annotations

import random

from engine import GameConfig, apply, legal_commands, new_game
from engine.invariants import check, expected_cards
from engine.sim import MAX_COMMANDS
from engine.view import redact_event


def play_random(cfg: GameConfig, seed: int, probe=None):
    g, _ = new_game(cfg)
    expected = expected_cards(g)
    rnd = random.Random(seed)
    n = 0
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        assert legal, f"no legal command for seat {seat} at {g.pending}"
        cmd = legal[rnd.randrange(len(legal))]
        if probe is not None:
            probe(g, cmd, rnd)
        events = apply(g, cmd)
        for e in events:
            for s in range(len(g.players)):
                if e.private is not None and s not in e.private:
                    r = redact_event(e, s)
                    assert r.cards == [] and r.card is None and r.character is None
        bad = check(g, expected)
        assert not bad, f"after {cmd}: {bad}"
        n += 1
        assert n < MAX_COMMANDS, "the game does not end"
    assert g.scores is not None and g.winners
    return g
