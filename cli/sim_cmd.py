"""`citadels sim`: bots play games to the end; one JSON line of figures."""

from __future__ import annotations

import argparse
import sys

import msgspec


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sim",
        help="play simulated games between bots and print one JSON line of figures",
        description="Play bot games to the end, checking the invariants after every command, "
        "and print one JSON line: games, players, seconds, games_per_second, "
        "commands_per_second, mean rounds, mean and max score, invariant checks. "
        "Exits non-zero if an invariant fails.",
    )
    p.add_argument("--players", type=int, default=5, help="players per game, 2-8 (default 5)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i (default 0)")
    p.add_argument("--preset", default=None, help="a preset line-up by name (default: first-game)")
    p.add_argument(
        "--characters",
        default=None,
        help="a custom line-up: comma-separated character names, one per rank 1-8 (+ optional rank 9)",
    )
    p.add_argument(
        "--rules",
        default="2016",
        help="rule set: 2016, 2016-classic-variant, classic, classic-variant, original-2000, dark-city "
        "(default 2016); with dark-city, --characters may list only the Dark City characters "
        "swapped in (e.g. Witch,Queen)",
    )
    p.add_argument(
        "--variant",
        action="append",
        default=None,
        metavar="NAME",
        help="a variant of the rule set, repeatable: short-7, short-6, plague (2000 rule sets)",
    )
    p.add_argument("--uniques", default=None, help="dark-city: comma-separated Dark City purple districts to add (2-6)")
    p.add_argument(
        "--seats",
        default=None,
        help="bot kinds, one per seat, e.g. hard,normal,normal,random (sets the player count); the "
        "kinds rotate round the table game by game and the JSON line gets each kind's win rate "
        "with a 95%% confidence interval (ties count as fractional wins)",
    )
    p.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="the hard bot's thinking time per decision in ms (default 300, at most 1000)",
    )
    p.add_argument(
        "--budget-clock",
        choices=["wall", "cpu"],
        default=None,
        help="what the hard bot's budget measures: elapsed time (default) or its CPU time "
        "(for tournaments on a busy machine)",
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="the hard bot's fixed effort: sampled worlds per searched decision; without --budget-ms "
        "the hard bot then ignores the clock and is reproducible from the seed",
    )
    p.add_argument("--no-check", action="store_true", help="check invariants only at game end (for speed figures)")
    p.add_argument(
        "--save-dir",
        default=None,
        metavar="DIR",
        help="write each game's save file in DIR (sim-<players>p-seed<seed>.save; see `citadels save`)",
    )
    p.set_defaults(func=run)


def _saver(args: argparse.Namespace):
    if not args.save_dir:
        return None
    from cli.save_cmd import sim_saver

    return sim_saver(args.save_dir)


def run(args: argparse.Namespace) -> int:
    from engine import SetupError
    from engine.sim import run as simulate

    chars = [c.strip() for c in args.characters.split(",") if c.strip()] if args.characters else None
    seats = [k.strip() for k in args.seats.split(",") if k.strip()] if args.seats else None
    options = {"budget_ms": args.budget_ms} if args.budget_ms is not None else {}
    if args.budget_clock:
        options["clock"] = args.budget_clock
    if args.iterations is not None:
        options["iterations"] = args.iterations
        options.setdefault("budget_ms", None)
    try:
        result = simulate(
            len(seats) if seats else args.players,
            args.games,
            seed=args.seed,
            preset=args.preset,
            characters=chars,
            rules=args.rules,
            check_every=not args.no_check,
            seats=seats,
            bot_options=options,
            on_game=_saver(args),
            variants=args.variant,
            uniques=[u.strip() for u in args.uniques.split(",")] if args.uniques else None,
        )
    except (SetupError, ValueError) as e:
        print(f"citadels sim: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 1 if result.failures else 0
