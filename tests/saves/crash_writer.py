"""A table-actor stand-in for the crash test: plays games, autosaving, and prints `ack <table> <seq>`
after each `record` returns. Killed with SIGKILL at random moments, restarted, it resumes every
unfinished game from the saves folder, exactly like a restarted server.

    python -m tests.saves.crash_writer SAVES_DIR [GAMES]
"""

from __future__ import annotations

import random
import sys

from engine import GameConfig, apply, legal_commands, new_game
from engine.savefile import Seat
from server.storage.persistence import SaveStore

COUNTS = [4, 2, 5, 7, 6]


def config(i: int) -> GameConfig:
    n = COUNTS[i % len(COUNTS)]
    return GameConfig(players=[f"P{s}" for s in range(n)], preset="first-game", seed=1000 + i)


def choose(i: int, g) -> object:
    """A stateless bot: the same position always gets the same move, across restarts."""
    legal = legal_commands(g, g.pending.seat)
    return legal[random.Random(i * 1_000_003 + g.seq).randrange(len(legal))]


def reference(i: int) -> list:
    g, _ = new_game(config(i))
    log = []
    while g.phase != "over":
        cmd = choose(i, g)
        apply(g, cmd)
        log.append(cmd)
    return log


def main(root: str, games: int) -> int:
    store = SaveStore(root, snapshot_every=7)  # snapshots often, so that kills land in them too
    tables, problems = store.resume_all()
    if problems:
        print("problem", *problems, flush=True)
        return 3
    active = {t.id: t for t in tables}
    done = set(store.finished())
    for i in range(games):
        tid = f"g{i}"
        if tid in done:
            continue
        t = active.get(tid)
        if t is None:
            cfg = config(i)
            g, _ = new_game(cfg)
            t = store.create(tid, cfg, [Seat(p, bot="stateless") for p in cfg.players], g)
        g = t.state
        while g.phase != "over":
            cmd = choose(i, g)
            apply(g, cmd)
            notice = t.record(cmd, g)
            if notice is not None:
                print("problem", notice.detail, flush=True)
                return 4
            sys.stdout.write(f"ack {tid} {g.seq}\n")
            sys.stdout.flush()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 6))
