"""`citadels ratings [--family F] [--json]`: the leaderboards of the players database.

One per rule family (2016, classic, 2000: the 2000 edition and Dark City), best first by
the shown rating (openskill's ordinal, mu - 3 sigma). `--json` prints an object keyed by
family, each value a leaderboard as the server's screens get it.
"""

from __future__ import annotations

import argparse
import sys

from cli.db_cmd import add_database_args, db_error, fail, open_store

FAMILY_TITLES = {"2016": "Citadels (2016)", "classic": "Citadels Classic", "2000": "Citadels (2000) and Dark City"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ratings",
        help="leaderboards per rule family from the players database",
        description="Print the rated players of each rule family, best first. Exit status: "
        "0 ok, 1 the database cannot be used, 2 usage error.",
    )
    add_database_args(p)
    p.add_argument("--family", choices=list(FAMILY_TITLES), help="only this rule family")
    p.add_argument("--limit", type=int, default=20, help="players per family (default 20, at most 100)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout, keyed by family")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import msgspec
    from sqlalchemy.exc import SQLAlchemyError

    store = open_store(args, "ratings")
    if store is None:
        return 1
    families = [args.family] if args.family else list(FAMILY_TITLES)
    try:
        boards = {f: store.leaderboard(f, limit=args.limit) for f in families}
    except SQLAlchemyError as e:
        return fail("ratings", db_error(e))
    finally:
        store.close()
    if not args.family:
        boards = {f: b for f, b in boards.items() if b.players}
    if args.json:
        sys.stdout.write(msgspec.json.encode(boards).decode() + "\n")
        return 0
    if not boards or not any(b.players for b in boards.values()):
        print("no rated games yet")
        return 0
    for f, board in boards.items():
        print(f"{FAMILY_TITLES[f]}: {board.players} rated player(s)")
        print(f"  {'#':>3}  {'player':<20} {'rating':>7} {'games':>6} {'wins':>5}")
        for r in board.rows:
            who = r.name + (" (bot)" if r.kind == "bot" else "")
            print(f"  {r.place:>3}  {who:<20} {r.rating:>7.1f} {r.games:>6} {r.wins:>5}")
    return 0
