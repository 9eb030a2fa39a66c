"""What the host reads on stderr (server/logging_setup.py): Alembic's chatter at every start is left
out, its "Running upgrade" lines (what a new schema was made of) stay."""

from __future__ import annotations

import logging

from server.logging_setup import _HANDLER_NAME, configure_logging


def test_alembic_chatter_is_left_out_and_its_upgrades_stay(capsys):
    configure_logging()
    try:
        logging.getLogger("alembic.runtime.plugins").info("setup plugin alembic.autogenerate.schemas")
        migration = logging.getLogger("alembic.runtime.migration")
        migration.info("Context impl SQLiteImpl.")
        migration.info("Will assume non-transactional DDL.")
        migration.info("Running upgrade  -> 0001, Accounts")
        configure_logging()  # configured again (tests, a restart): one filter, not two
        migration.info("Running upgrade 0001 -> 0002, History")
    finally:  # our handler writes to this test's captured stderr: not past it
        root = logging.getLogger()
        for handler in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
            root.removeHandler(handler)
    err = capsys.readouterr().err
    assert "setup plugin" not in err and "Context impl" not in err and "Will assume" not in err
    assert "Running upgrade  -> 0001" in err and "Running upgrade 0001 -> 0002" in err
    assert len(logging.getLogger("alembic.runtime.migration").filters) == 1
