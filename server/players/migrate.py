"""Schema migrations (Alembic) run from code: `citadels db migrate`, the server and sim at start.

`upgrade(engine)` brings a database (empty or at any earlier revision) to the newest
schema inside one transaction; `current_revision(engine)` says where it stands;
`check_current(engine)` refuses, with one line naming the command to run, a
database the code is newer than.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from .url import WRITE

MIGRATIONS = Path(__file__).parent / "migrations"


class SchemaError(RuntimeError):
    """The database's schema does not match this program; the message is one line."""


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> tuple[str | None, str | None]:
    """Migrate to `revision` (default: the newest); returns (before, after)."""
    before = current_revision(engine)
    cfg = _config()
    with engine.connect() as conn:
        conn = conn.execution_options(**{WRITE: True})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.commit()
    return before, current_revision(engine)


def check_current(engine: Engine) -> None:
    """Raise SchemaError unless the database is at the newest revision."""
    now = current_revision(engine)
    head = head_revision()
    if now == head:
        return
    if now is None:
        raise SchemaError("the players database is empty: run `citadels db migrate` first")
    if now not in revisions():
        raise SchemaError(f"the players database is at revision {now}, newer than this program knows (up to {head})")
    raise SchemaError(f"the players database is at revision {now}, older than {head}: run `citadels db migrate`")
