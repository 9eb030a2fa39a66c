"""What each Textual patch of ui/compat buys: render_cost.py and ui_update.py with all patches,
without each one in turn, and without any, in the same run (docs/compat.md).

    python benchmarks/compat_effect.py [--rounds 3] [--seats 6] [--moves 150] [--apps 20]

Each configuration runs the two benchmarks as subprocesses with `CITADELS_WITHOUT_PATCHES`
set (ui/compat/__init__.py); the configurations are shuffled in every round, so that a noisy
moment of a shared machine does not fall on one of them, and each figure is the median of the
rounds. Prints ONE JSON line: per configuration, the medians of render_cost's CPU per move (a
6-seat table at 120x40, the served path with the SSH driver), bytes per seat update (the
compositor patch must not change them), the collector's garbage per move, and ui_update's CPU
per view update, memory per app and start cost (80x24).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.compat import PATCHES, WITHOUT_ENV  # noqa: E402

RENDER_KEYS = ("cpu_ms_per_move", "bytes_per_seat_update", "wall_ms_to_last_frame_p50", "gc_collected_per_move")
UPDATE_KEYS = ("cpu_ms_per_update", "mb_per_app_tracemalloc", "start_cpu_ms_per_app")


def run_json(script: str, args: list[str], without: tuple[str, ...]) -> dict[str, Any]:
    env = dict(os.environ)
    env[WITHOUT_ENV] = ",".join(without)
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seats", type=int, default=6)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--apps", type=int, default=20)
    ap.add_argument("--updates", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    configs: dict[str, tuple[str, ...]] = {"all": ()}
    configs.update({f"without {name}": (name,) for name in PATCHES})
    configs["none"] = PATCHES
    samples: dict[str, dict[str, list[float]]] = {c: {k: [] for k in RENDER_KEYS + UPDATE_KEYS} for c in configs}
    rng = random.Random(args.seed)
    for _ in range(args.rounds):
        order = list(configs)
        rng.shuffle(order)
        for config in order:
            without = configs[config]
            render = run_json("render_cost.py", ["--seats", str(args.seats), "--moves", str(args.moves)], without)
            update = run_json("ui_update.py", ["--apps", str(args.apps), "--updates", str(args.updates)], without)
            for key in RENDER_KEYS:
                samples[config][key].append(render[key])
            for key in UPDATE_KEYS:
                samples[config][key].append(update[key])
    medians = {c: {k: round(statistics.median(v), 3) for k, v in figures.items()} for c, figures in samples.items()}
    base = medians["all"]
    change = {
        c: {
            k: (round((v / base[k] - 1) * 100, 1) if base[k] else None)
            for k, v in figures.items()
            if k in ("cpu_ms_per_move", "cpu_ms_per_update", "mb_per_app_tracemalloc", "start_cpu_ms_per_app")
        }
        for c, figures in medians.items()
        if c != "all"
    }
    print(
        json.dumps(
            {
                "benchmark": "compat_effect",
                "rounds": args.rounds,
                "render_cost": {"seats": args.seats, "moves": args.moves, "size": "120x40"},
                "ui_update": {"apps": args.apps, "updates": args.updates, "size": "80x24"},
                "medians": medians,
                "percent_vs_all": change,
            }
        )
    )


if __name__ == "__main__":
    main()
