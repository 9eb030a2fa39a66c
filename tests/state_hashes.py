"""State by state: the whole game state after every command of stored seeded games.

`state_trail(case)` plays one seeded game (tests/game_hashes.py's cases) and hashes, in a chain,
the full encoded state (`engine.state.encode`: every hand, the deck order, the generator, every
card's state) after the set-up and after every command. The sample is one game of each rule set
at each player count it allows, plus the variants, the normal bots and the hard bot. The stored
trails (tests/data/state_hashes.json) were made with the engine as it was before the speed work
(the reference replay), so a faster engine that changed any state on the way fails here, even
where no view shows it.

    python tests/state_hashes.py --engine /path/to/reference/tree > tests/data/state_hashes.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path


def sample():
    """One case per (rule set, player count), and the first case with variants or other bots."""
    from game_hashes import cases

    seen: set[tuple] = set()
    out = []
    for c in cases():
        key = (c.rules, c.players, c.variants != (), c.bots)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def state_trail(case) -> tuple[str, int]:
    """(the chained hash of every state of the game, commands played)."""
    from game_hashes import MAX_COMMANDS, _bots

    from engine import apply, legal_commands, new_game, view
    from engine.state import encode

    g, _ = new_game(case.config())
    h = hashlib.sha256(encode(g))
    bots = _bots(case)
    n = 0
    for _ in range(MAX_COMMANDS):
        if g.phase == "over":
            break
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        bot = bots[seat]
        cmd = bot.choose(legal, view(g, seat) if getattr(bot, "needs_view", True) else None)
        apply(g, cmd)
        h.update(hashlib.sha256(encode(g)).digest())
        n += 1
    return h.hexdigest(), n


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    if "--engine" in argv:  # the reference engine's tree goes first on the path
        sys.path.insert(0, argv[argv.index("--engine") + 1])
    sys.path.insert(1, str(here))
    out = {}
    for c in sample():
        digest, n = state_trail(c)
        out[c.key()] = {"trail": digest, "commands": n}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
