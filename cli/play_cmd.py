"""`citadels play`: a local game in this terminal, you against bots (no SSH)."""

from __future__ import annotations

import argparse

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox", "Gus", "Hal"]


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "play",
        help="play a local game against bots in this terminal",
        description="Play Citadels in this terminal against bots (no network).",
    )
    p.add_argument("--players", type=int, default=4, metavar="N", help="players at the table, 2-8 (default 4)")
    p.add_argument(
        "--preset", default="first-game", help="line-up: first-game (default), a 2016 preset name, or random"
    )
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a random one)")
    p.add_argument("--lang", choices=["en", "es"], default="en", help="language of the screen (F2 switches)")
    p.add_argument("--name", default="You", help="your name at the table")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 = first (default)")
    p.add_argument("--bot-delay", type=float, default=0.7, metavar="SECONDS", help="pause between bot moves")
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    import random
    import sys

    from engine import GameConfig, SetupError
    from ui import CitadelsApp, UiOptions, compat
    from ui.local_game import LocalTable

    if not compat.verified():  # a local game runs on Textual's own paths: slower, said once
        print(compat.unverified_message("citadels play") + " (playing without the patches)", file=sys.stderr)

    n = args.players
    if not 2 <= n <= 8:
        print(f"Citadels is for 2 to 8 players, not {n}.")
        return 2
    if not 0 <= args.seat < n:
        print(f"Choose a seat from 0 to {n - 1}.")
        return 2
    others = [x for x in NAMES if x != args.name]
    names = others[: n - 1]
    names.insert(args.seat, args.name)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    try:
        table = LocalTable(
            GameConfig(players=names, preset=args.preset, seed=seed),
            human_seat=args.seat,
            bot_delay=max(args.bot_delay, 0.0),
        )
    except SetupError as e:
        print(e)
        return 2
    app = CitadelsApp(table, UiOptions(lang=args.lang, name=args.name))
    app.run()
    print(f"seed {seed}")
    return 0
