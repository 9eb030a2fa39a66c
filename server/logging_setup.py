"""Logging for the server: one line per record on stderr, plain text or JSON.

Log calls carry structured fields with ``extra={"fields": {...}}``; use
:func:`log_event`. Nothing here (nor anywhere in server/) logs the bytes a
client types: input may hold passwords pasted by mistake or chat text.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

_HANDLER_NAME = "citadels-stderr"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, then the fields."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if fields:
            for key, value in fields.items():
                payload.setdefault(key, value)
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        return json.dumps(payload, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger: msg key=value ...``"""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = getattr(record, "fields", None)
        if fields:
            line += " " + " ".join(f"{key}={_text_value(value)}" for key, value in fields.items())
        return line


def _text_value(value: Any) -> str:
    text = str(value)
    if not text or any(ch.isspace() or ch in '"=' for ch in text):
        return json.dumps(text, ensure_ascii=False)
    return text


def configure_logging(
    *, json_lines: bool = False, level: str = "INFO", asyncssh_level: str = "WARNING", ssh: bool = True
) -> None:
    """Send log records to stderr, replacing a handler we installed earlier.

    asyncssh logs every channel and request at INFO; it gets its own level
    (WARNING by default) and its packet-level debug logging stays off. `ssh`
    False: a process that serves no SSH (the `--workers` parent) does not
    import asyncssh for it.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if handler.get_name() == _HANDLER_NAME:
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(JsonFormatter() if json_lines else TextFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("asyncssh").setLevel(asyncssh_level.upper())
    # Alembic tells its plugins and its database dialect at INFO on every start: not for the host
    # (its "Running upgrade" lines, which say what a new schema was made of, stay).
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    migration = logging.getLogger("alembic.runtime.migration")
    if _alembic_chatter not in migration.filters:
        migration.addFilter(_alembic_chatter)
    if not ssh:
        return
    try:
        import asyncssh

        asyncssh.set_debug_level(1)  # never the packet dumps of levels 2-3
    except Exception:  # pragma: no cover - asyncssh is a dependency
        pass


def _alembic_chatter(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(("Context impl", "Will assume"))


def log_event(logger: logging.Logger, level: int, msg: str, **fields: Any) -> None:
    """Log ``msg`` with structured fields (shown as key=value or JSON keys)."""
    if logger.isEnabledFor(level):
        logger.log(level, msg, extra={"fields": fields})
