"""Sessions are isolated from each other and from the server's own state:
fresh contexts, no stdout capture, no input in the logs, login timeout."""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import sys

import pytest

from server.logging_setup import JsonFormatter, TextFormatter, log_event
from server.transport.demo_app import DemoApp

MARKER: contextvars.ContextVar[str] = contextvars.ContextVar("marker")


async def test_apps_run_in_fresh_contexts(start, open_terminal):
    from textual._context import active_app

    seen: dict[str, object] = {}

    class Probe(DemoApp):
        def on_mount(self) -> None:
            seen[self.info.username] = (MARKER.get(None), active_app.get() is self)

    MARKER.set("from the test task")
    server = await start(
        app_factory=lambda info: (seen.setdefault("factory " + info.username, MARKER.get(None)), Probe(info))[1]
    )
    first = await open_terminal(server, username="one")
    second = await open_terminal(server, username="two")
    await first.wait_for("size: 80x24")
    await second.wait_for("size: 80x24")
    assert seen["factory one"] is None and seen["factory two"] is None
    assert seen["one"] == (None, True) and seen["two"] == (None, True)


async def test_served_apps_leave_sys_stdout_alone(start, open_terminal, capsys, wait_until):
    before_out, before_err = sys.stdout, sys.stderr
    server = await start()
    terms = [await open_terminal(server, username=f"u{i}") for i in range(3)]
    for term in terms:
        await term.wait_for("size: 80x24")
    assert sys.stdout is before_out and sys.stderr is before_err
    print("server output")
    terms[1].close()
    await wait_until(lambda: server.session_count == 2, what="one session gone")
    assert sys.stdout is before_out and sys.stderr is before_err
    assert "server output" in capsys.readouterr().out


async def test_typed_input_never_reaches_the_logs(start, open_terminal, caplog, wait_until):
    caplog.set_level(logging.DEBUG)
    server = await start()
    term = await open_terminal(server, username="typist")
    await term.wait_for("size: 80x24")
    secret = "hunter2-correct-horse"
    term.send(secret.encode())
    term.send(b"\x1b[200~" + b"pasted-secret-xyz" + b"\x1b[201~")
    await term.wait_for("last paste: 17 characters")
    term.close()
    await wait_until(lambda: server.session_count == 0, what="session gone")
    assert "session started" in caplog.text and "session ended" in caplog.text
    assert secret not in caplog.text and "pasted-secret" not in caplog.text
    assert "hunter2" not in caplog.text


def test_log_formats():
    record = logging.LogRecord("citadels.server", logging.INFO, __file__, 1, "session started", None, None)
    record.fields = {"user": "ana maría", "guest": False}
    line = JsonFormatter().format(record)
    payload = json.loads(line)
    assert payload["msg"] == "session started" and payload["user"] == "ana maría" and payload["level"] == "info"
    assert "\n" not in line
    text = TextFormatter().format(record)
    assert 'user="ana maría"' in text and "guest=False" in text


def test_log_event_respects_levels(caplog):
    logger = logging.getLogger("citadels.test")
    caplog.set_level(logging.WARNING, logger="citadels.test")
    log_event(logger, logging.INFO, "hidden", x=1)
    log_event(logger, logging.WARNING, "shown", x=2)
    assert [r.getMessage() for r in caplog.records] == ["shown"]
    assert caplog.records[0].fields == {"x": 2}


async def test_login_timeout_closes_idle_connections(start, wait_until):
    server = await start(login_timeout_seconds=1.0)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    banner = await asyncio.wait_for(reader.readline(), 5)
    assert banner.startswith(b"SSH-2.0-")
    # Never authenticate (never even send a version): the server hangs up.
    data = await asyncio.wait_for(reader.read(), 10)
    assert isinstance(data, bytes)
    await wait_until(lambda: server.connection_count == 0, timeout=5, what="connection dropped")
    writer.close()


@pytest.mark.parametrize("size", [(1, 1), (500, 200)])
async def test_extreme_sizes_render(start, open_terminal, size):
    server = await start()
    term = await open_terminal(server, size=size)
    await asyncio.sleep(0.3)  # nothing to wait for on a 1x1 screen; not a timing assertion
    term.mark()
    term.resize(80, 24)
    await term.wait_for("size: 80x24")


async def test_departed_sessions_are_freed(start, open_terminal, wait_until):
    """Nothing keeps an ended session's app alive (Textual's class-level caches
    included): keys, escape sequences and pastes go through each one first."""
    import gc
    import weakref

    from server.transport.session import SSHSession

    apps: weakref.WeakSet[DemoApp] = weakref.WeakSet()

    def factory(info):
        app = DemoApp(info)
        apps.add(app)
        return app

    server = await start(app_factory=factory)
    names = set()
    for round_ in range(2):
        terms = [await open_terminal(server, username=f"r{round_}u{i}") for i in range(3)]
        for term in terms:
            names.add(term.conn.get_extra_info("username"))
            await term.wait_for("size: 80x24")
            term.send(b"abc\x1b[A\x1b[1;5C\x1b[97u\x1b[200~pasted\x1b[201~")
            await term.wait_for("last paste: 6 characters")
            term.close()
        await wait_until(lambda: server.session_count == 0, what="sessions gone")
    await wait_until(lambda: server.connection_count == 0, what="connections gone")
    await asyncio.sleep(0.1)  # let asyncssh finish its cleanup callbacks
    gc.collect()
    assert len(apps) == 0
    assert not [obj for obj in gc.get_objects() if isinstance(obj, SSHSession) and obj._identity.username in names]
