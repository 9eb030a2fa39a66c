"""Regenerate the SVG screenshots of the game screen (80x24 and 120x40).

    python docs/screenshots/make_screenshots.py

Deterministic: fixed seeds, bots playing instantly. `markers-targets-*`: a
newer line-up (Devious Dignitaries: Magistrate, Blackmailer, Marshal, ...)
played at random up to the human's Marshal turn in round 4, with warrants and a
threat on the table, the Marshal's targets open and one chosen (what it will do
shown before confirming). `crowded-*`: 8 players late in the game, the seat to
move holding 10 cards with 4 gold, the build list open (the districts it cannot
afford dimmed, with the gold missing); `cities-80x24`: the same table after F4.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import GameConfig, apply, legal_commands, new_game, view  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from engine.bots.registry import make_bot  # noqa: E402
from engine.commands import Ability, Build  # noqa: E402
from ui import CitadelsApp, UiOptions, ViewUpdate  # noqa: E402
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


async def shoot(
    name: str, size: tuple[int, int], keys: list[str], seed: int = 1, lang: str = "en", all_bots: bool = False
) -> None:
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


def advance_to_marshal(table: LocalTable, seed: int) -> None:
    """Play every seat at random (the human too) until the human's Marshal may seize, with
    warrants and threats placed; the events go to the log."""
    g = table.state
    rng = random.Random(seed)
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if (
            seat == table.human
            and type(g.pending).__name__ == "PlayTurn"
            and g.turn.gathered
            and g.markers.warrants
            and g.markers.threats
            and g.round >= 3
            and any(isinstance(c, Ability) and c.name == "Marshal" for c in legal)
        ):
            return
        table._unsent.extend(apply(g, rng.choice(legal)))
    raise RuntimeError("no such position with this seed")


async def shoot_marshal(size: tuple[int, int], lang: str = "en", seed: int = 13) -> None:
    table = LocalTable(GameConfig(players=NAMES + ["Eva"], preset="devious-dignitaries", seed=seed), bot_delay=0)
    advance_to_marshal(table, seed)
    app = CitadelsApp(table, UiOptions(lang=lang, name="Ana"))
    async with app.run_test(size=size) as pilot:
        await choices(pilot)
        prompt = app.table.query_one(PromptPanel)
        marshal = next(
            i
            for i, e in enumerate(prompt.menu.entries)
            if isinstance(e.command, Ability)
            or ((e.submenu and "Marshal" in e.label.plain) or (e.submenu and "Mariscal" in e.label.plain))
        )
        for k in (str(marshal + 1), "1"):
            await pilot.press(k)
            await pilot.pause()
        await pilot.pause()
        app.save_screenshot(filename=f"markers-targets-{size[0]}x{size[1]}.svg", path=str(OUT))


EIGHT = ["Morgana (bot)", "Benedetta", "Mason (bot)", "Cid", "Maximiliano Ortega", "Ana", "Dee", "Fitzgerald"]


def crowded_view():
    """8 players, round 5 or later: the seat to move has gathered and may build, holding 10 cards and 4 gold."""
    g, _ = new_game(GameConfig(players=EIGHT, seed=4))
    bots = [make_bot("normal", 40 + s) for s in range(8)]
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if g.round >= 5 and g.turn is not None and g.turn.gathered and any(isinstance(c, Build) for c in legal):
            break
        apply(g, legal[0] if len(legal) == 1 else bots[seat].choose(legal, view(g, seat)), check=False)
    seat = g.pending.seat
    while len(g.players[seat].hand) < 10:
        g.players[seat].hand.append(g.deck.pop())
    g.players[seat].gold = 4
    return view(g, seat)


async def shoot_crowded(size: tuple[int, int], keys: list[str], name: str = "crowded", lang: str = "en") -> None:
    app = CitadelsApp(None, UiOptions(lang=lang, name="Ana", show_chat=True))
    async with app.run_test(size=size) as pilot:
        app.post_message(ViewUpdate(crowded_view(), []))
        for _ in range(3):
            await pilot.pause()
        for k in keys:
            await pilot.press(k)
            await pilot.pause()
            await pilot.pause()
        app.save_screenshot(filename=f"{name}-{size[0]}x{size[1]}.svg", path=str(OUT))


async def main() -> None:
    await shoot_crowded((80, 24), ["f4"], name="cities")
    for size in ((80, 24), (120, 40)):
        await shoot_crowded(size, ["1"])  # the build list
        await shoot("selection", size, [])
        await shoot("turn-ability-targets", size, ["1", "1", "1"])
        await shoot("turn-es", size, ["1", "1"], lang="es")
        await shoot("help", size, ["f1"])
        await shoot("scores", size, [], seed=2, all_bots=True)
        await shoot_marshal(size)


if __name__ == "__main__":
    asyncio.run(main())
