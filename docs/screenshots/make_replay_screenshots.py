"""Regenerate the SVG screenshots of the replay screen (80x24 and 120x40).

    python docs/screenshots/make_replay_screenshots.py

Deterministic: a 5-player game of the Devious Dignitaries line-up played by
random bots, saved and loaded back (engine.savefile), shown with everything
revealed at the first move of round 3 or later where warrants and threats are
on the table (the signed warrant and the real threat named).
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import GameConfig, apply, legal_commands, new_game  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from engine.savefile import Seat, dumps, loads, new_save  # noqa: E402
from ui.replay import Replay  # noqa: E402
from ui.screens.replay import ReplayApp, ReplayOptions  # noqa: E402

OUT = Path(__file__).resolve().parent
NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva"]


def saved_game(seed: int = 13):
    cfg = GameConfig(players=NAMES, preset="devious-dignitaries", seed=seed)
    g, _ = new_game(cfg)
    bots = [RandomBot(seed * 10 + s) for s in range(len(NAMES))]
    log = []
    while g.phase != "over":
        cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
        apply(g, cmd)
        log.append(cmd)
    t = datetime(2026, 1, 2, tzinfo=UTC)
    return loads(dumps(new_save("screenshot", cfg, [Seat(n) for n in NAMES], g, log, created=t)))


def interesting(replay: Replay) -> int:
    for p in range(replay.total + 1):
        g = replay.state(p)
        m = g.markers
        if g.round >= 3 and g.phase == "turns" and m.signed and m.flowered and g.turn and g.turn.gathered:
            return p
    return replay.total // 2


async def main() -> None:
    save = saved_game()
    replay = Replay(save)
    at = interesting(replay)
    for size in ((80, 24), (120, 40)):
        app = ReplayApp(replay, ReplayOptions(lang="en", seat=None, position=at))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.save_screenshot(filename=f"replay-{size[0]}x{size[1]}.svg", path=str(OUT))
    print(f"position {at} of {replay.total}")


if __name__ == "__main__":
    asyncio.run(main())
