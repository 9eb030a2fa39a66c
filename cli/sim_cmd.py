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
    p.add_argument(
        "--record-to",
        default=None,
        metavar="URL",
        help="record each game in a players database (sqlite:///PATH or postgresql://...; its schema is "
        "created or brought up to date) as a rated game between bot players, one per bot level; "
        "then see `citadels ratings --database URL`",
    )
    p.set_defaults(func=run)


def _on_game(args: argparse.Namespace, recorder):
    callbacks = [recorder] if recorder else []
    if args.save_dir:
        from cli.save_cmd import sim_saver

        callbacks.append(sim_saver(args.save_dir))
    if len(callbacks) < 2:
        return callbacks[0] if callbacks else None
    return lambda *a: [cb(*a) for cb in callbacks]


class SimRecorder:
    """The `on_game` callback of `citadels sim --record-to URL`: each game into the players database,
    rated between bot players (the store's policy rates bots). The engine does no I/O."""

    def __init__(self, url: str) -> None:
        import uuid
        from datetime import UTC, datetime

        from server.players.ratings import RatingPolicy
        from server.players.store import PlayerStore

        self.store = PlayerStore.open(url, migrate_schema=True, policy=RatingPolicy(rate_bots=True))
        self.run_id = uuid.uuid4().hex[:12]  # a second run records new games, not the same ones again
        self.recorded = 0
        self.rated = 0
        self._now = lambda: datetime.now(UTC)
        self._last = self._now()

    def __call__(self, cfg, g, log, bots) -> None:
        from server.players.game_record import game_record

        if g.phase != "over":  # a game that failed its invariants is not a result
            return
        kinds = [getattr(b, "kind", None) or type(b).__name__ for b in bots]
        end = self._now()
        record = game_record(
            f"sim-{self.run_id}-{cfg.seed}",
            cfg,
            g,
            log,
            player_ids=[None] * len(bots),
            bots=kinds,
            started_at=self._last,
            finished_at=end,
            source="sim",
        )
        self._last = end
        result = self.store.record_game(record)
        self.recorded += 1
        self.rated += result.rated

    def close(self) -> None:
        self.store.close()


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
    recorder = None
    db_errors: tuple[type[Exception], ...] = ()
    if args.record_to:
        from sqlalchemy.exc import SQLAlchemyError

        from cli.db_cmd import db_error
        from server.players.url import describe

        db_errors = (SQLAlchemyError,)

        try:
            recorder = SimRecorder(args.record_to)
        except Exception as e:  # a bad URL, an unreachable or newer database: one line
            print(f"citadels sim: --record-to: {db_error(e)}", file=sys.stderr)
            return 1
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
            on_game=_on_game(args, recorder),
            variants=args.variant,
            uniques=[u.strip() for u in args.uniques.split(",")] if args.uniques else None,
        )
    except (SetupError, ValueError) as e:
        print(f"citadels sim: {e}", file=sys.stderr)
        return 2
    except db_errors as e:
        print(f"citadels sim: --record-to: {db_error(e)}", file=sys.stderr)
        return 1
    finally:
        if recorder is not None:
            recorder.close()
    if recorder is not None:
        print(
            f"citadels sim: {recorder.recorded} games recorded ({recorder.rated} rated) in "
            f"{describe(recorder.store.engine.url)}",
            file=sys.stderr,
        )
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 1 if result.failures else 0
