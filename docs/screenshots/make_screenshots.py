"""Regenerate the SVG screenshots of the game screen (80x24 and 120x40).

    python docs/screenshots/make_screenshots.py

Deterministic: fixed seeds, bots playing instantly.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import GameConfig  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from ui import CitadelsApp, UiOptions  # noqa: E402
from ui.local_game import LocalTable  # noqa: E402
from ui.widgets.prompt import PromptPanel  # noqa: E402

OUT = Path(__file__).resolve().parent
NAMES = ["Ana", "Ben", "Cid", "Dee"]


def new(seed: int = 1, lang: str = "en", all_bots: bool = False):
    table = LocalTable(GameConfig(players=NAMES, preset="first-game", seed=seed), bot_delay=0)
    if all_bots:
        table.bots[0] = RandomBot(seed=3)
    return CitadelsApp(table, UiOptions(lang=lang, name="Ana")), table


async def choices(pilot) -> None:
    for _ in range(100):
        await pilot.pause()
        q = pilot.app.table.query(PromptPanel)
        if q and q.first().menu is not None and q.first().menu.entries and not q.first().sent:
            return


async def shoot(name: str, size: tuple[int, int], keys: list[str], seed: int = 1, lang: str = "en",
                all_bots: bool = False) -> None:
    app, table = new(seed, lang, all_bots)
    async with app.run_test(size=size) as pilot:
        if all_bots:
            for _ in range(50):
                await pilot.pause()
                if table.over:
                    break
        else:
            await choices(pilot)
        for k in keys:
            await pilot.press(k)
            await choices(pilot) if k.isdigit() else await pilot.pause()
        await pilot.pause()
        app.save_screenshot(filename=f"{name}-{size[0]}x{size[1]}.svg", path=str(OUT))


async def main() -> None:
    for size in ((80, 24), (120, 40)):
        await shoot("selection", size, [])
        await shoot("turn-ability-targets", size, ["1", "1", "1"])
        await shoot("turn-es", size, ["1", "1"], lang="es")
        await shoot("help", size, ["f1"])
        await shoot("scores", size, [], seed=2, all_bots=True)


if __name__ == "__main__":
    asyncio.run(main())
