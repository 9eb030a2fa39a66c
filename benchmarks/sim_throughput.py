"""Engine speed: random-bot games per second and commands per second at 2, 5 and 7 players.

Runs on one core (this process), invariants checked only at game end, so the
figure is the engine's own speed (legal_commands + apply), the currency of
bots that search by playing games out. Prints one JSON line.

    python benchmarks/sim_throughput.py [--games 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import platform

from engine.sim import run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    out: dict = {"benchmark": "sim_throughput", "python": platform.python_version(), "games": args.games}
    for n in (2, 5, 7):
        r = run(n, args.games, seed=args.seed, check_every=False)
        out[f"p{n}"] = {
            "games_per_second": r.games_per_second,
            "commands_per_second": r.commands_per_second,
            "commands_per_game": round(r.commands / args.games, 1),
            "mean_rounds": r.mean_rounds,
            "failures": len(r.failures),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
