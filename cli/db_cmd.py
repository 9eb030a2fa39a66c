"""`citadels db migrate|status`: the players database's schema, for hosts.

Also the options every players-database command shares (`--database`, `--saves-dir`) and
how they open it (`open_store`): one line on stderr and exit status 1 when it cannot be.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

DATABASE_HELP = (
    "the players database: sqlite:///PATH or postgresql://USER@HOST:PORT/DB "
    "(default: players.sqlite3 in the saves folder)"
)


def add_database_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database", metavar="URL", default=None, help=DATABASE_HELP)
    p.add_argument(
        "--saves-dir",
        metavar="DIR",
        default="saves",
        help="the saves folder (default: saves), for the default database",
    )


def fail(command: str, message: str) -> int:
    print(f"citadels {command}: {message}", file=sys.stderr)
    return 1


def open_store(args: argparse.Namespace, command: str, *, migrate_schema: bool = False, **kw: Any):
    """The PlayerStore the arguments name, or None after printing why not."""
    from sqlalchemy.exc import SQLAlchemyError

    from server.players.migrate import SchemaError
    from server.players.store import PlayerStore
    from server.players.url import DatabaseURLError

    try:
        return PlayerStore.open(args.database, saves_dir=args.saves_dir, migrate_schema=migrate_schema, **kw)
    except (DatabaseURLError, SchemaError) as e:
        fail(command, str(e))
    except SQLAlchemyError as e:
        fail(command, f"cannot open the players database: {db_error(e)}")
    except OSError as e:
        fail(command, f"cannot open the players database: {e.strerror or e}")
    return None


def db_error(e: BaseException) -> str:
    """One line from a database error (the driver's message, not the statement)."""
    inner = getattr(e, "orig", None) or e
    return " ".join(str(inner).split())[:300]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "db",
        help="the players database: create or upgrade its schema, see where it stands",
        description="The players database holds accounts, keys, finished games and ratings "
        "(SQLite by default, PostgreSQL for big hosts; docs/database.md). Exit status: 0 ok, "
        "1 the database cannot be used, 2 usage error.",
    )
    dsub = p.add_subparsers(dest="db_command", metavar="ACTION")
    m = dsub.add_parser(
        "migrate",
        help="create the schema, or bring an older one up to date",
        description="Create the players database's tables in an empty database, or run the "
        "migrations an older one needs, in one transaction. Safe to run again.",
    )
    add_database_args(m)
    m.add_argument("--to", metavar="REVISION", default="head", help="stop at this revision (default: the newest)")
    m.set_defaults(func=run_migrate)
    s = dsub.add_parser("status", help="the schema revision of the database and of this program")
    add_database_args(s)
    s.set_defaults(func=run_status)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def run_migrate(args: argparse.Namespace) -> int:
    from alembic.util.exc import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from server.players import migrate
    from server.players.url import DatabaseURLError, database_url, describe, make_engine

    try:
        url = database_url(args.database, args.saves_dir)
        engine = make_engine(url)
    except DatabaseURLError as e:
        return fail("db migrate", str(e))
    except OSError as e:
        return fail("db migrate", f"cannot create the database's folder: {e.strerror or e}")
    try:
        before, after = migrate.upgrade(engine, args.to)
    except CommandError as e:
        return fail("db migrate", f"--to {args.to}: {e}")
    except SQLAlchemyError as e:
        return fail("db migrate", f"{describe(url)}: {db_error(e)}")
    finally:
        engine.dispose()
    was = f"was {before}" if before else "was empty"
    print(f"{describe(url)}: schema at revision {after} ({was})")
    return 0


def run_status(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from server.players import migrate
    from server.players.url import DatabaseURLError, database_url, describe, make_engine

    try:
        url = database_url(args.database, args.saves_dir)
        engine = make_engine(url)
        now = migrate.current_revision(engine)
    except DatabaseURLError as e:
        return fail("db status", str(e))
    except SQLAlchemyError as e:
        return fail("db status", db_error(e))
    engine.dispose()
    head = migrate.head_revision()
    state = (
        "up to date" if now == head else "run `citadels db migrate`" if now in (None, *migrate.revisions()) else "newer"
    )
    print(f"{describe(url)}: revision {now or 'none (empty)'}; this program's newest: {head} ({state})")
    return 0 if now == head else 1
