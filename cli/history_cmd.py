"""`citadels history [--player NAME] [--json]`: finished games in the players database, newest first.

`--game ID` shows one game; `--export ID --output FILE` writes it as a save file (its
state rebuilt by replaying its log), to open with `citadels save replay FILE`.
"""

from __future__ import annotations

import argparse
import sys

from cli.db_cmd import add_database_args, db_error, fail, open_store


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "history",
        help="finished games in the players database, newest first",
        description="List finished games recorded in the players database, newest first: all "
        "of them or one player's. Exit status: 0 ok, 1 the database or the game cannot be "
        "used, 2 usage error.",
    )
    add_database_args(p)
    p.add_argument("--player", metavar="NAME", help="only this player's games (a name, or a bot level: hard...)")
    p.add_argument("--limit", type=int, default=20, help="how many games (default 20, at most 200)")
    p.add_argument("--offset", type=int, default=0, help="skip this many of the newest games first")
    p.add_argument("--game", type=int, metavar="ID", help="show only the game with this id")
    p.add_argument("--export", type=int, metavar="ID", help="write the game with this id as a save file (--output)")
    p.add_argument("--output", metavar="FILE", help="with --export: the save file to write")
    p.add_argument("--json", action="store_true", help="one JSON document on stdout instead of text")
    p.set_defaults(func=run)


def _line(g) -> str:
    seats = " · ".join(
        f"{'★' if s.winner else ''}{s.name}{f' ({s.bot})' if s.bot else ''} {s.score}"
        for s in sorted(g.seats, key=lambda s: (s.place, s.seat))
    )
    rated = "rated" if g.rated else "unrated"
    return f"#{g.id:<6} {g.finished_at:%Y-%m-%d %H:%M} {g.family:<7} {g.rules:<14} {g.rounds:>2} rounds  {rated:<7}  {seats}"


def run(args: argparse.Namespace) -> int:
    import msgspec
    from sqlalchemy.exc import SQLAlchemyError

    from engine.savefile import SaveError

    if args.export is not None and not args.output:
        print("citadels history: --export needs --output FILE", file=sys.stderr)
        return 2
    store = open_store(args, "history")
    if store is None:
        return 1
    try:
        if args.export is not None:
            return _export(store, args.export, args.output)
        you = None
        if args.player:
            player = store.find_player(args.player)
            if player is None:
                return fail("history", f"no player named {args.player!r}")
            you = player.id
        if args.game is not None:
            game = store.game(args.game, you)
            if game is None:
                return fail("history", f"no game {args.game}")
            games = [game]
        else:
            games = store.games(player_id=you, limit=args.limit, offset=args.offset)
    except SQLAlchemyError as e:
        return fail("history", db_error(e))
    except SaveError as e:
        return fail("history", str(e))
    finally:
        store.close()
    if args.json:
        sys.stdout.write(msgspec.json.encode(games).decode() + "\n")
    elif not games:
        print("no finished games recorded" + (f" for {args.player}" if args.player else ""))
    else:
        for g in games:
            print(_line(g))
    return 0


def _export(store, game_id: int, output: str) -> int:
    from pathlib import Path

    from engine.savefile import dumps
    from server.storage.savelog import atomic_write

    save = store.export_save(game_id)
    if save is None:
        return fail("history", f"no game {game_id}")
    try:
        atomic_write(Path(output), dumps(save), durable=False)
    except OSError as e:
        return fail("history", f"cannot write {output}: {e.strerror or e}")
    print(f"game {game_id}: {len(save.log)} commands written to {output} (citadels save replay {output})")
    return 0
