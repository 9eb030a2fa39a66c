"""The server's event loop (server/event_loop.py): uvloop where it is installed, asyncio's own when
asked or when uvloop is missing; `event_loop = "uvloop"` without it is a clear refusal to start.
End to end: `citadels serve` on uvloop takes an SSH login and says which loop it runs on."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest
from game_helpers import ssh_connect
from test_service_recovery import start_serve, stop

from server import event_loop
from server.config import ConfigError, config_from_mapping
from server.event_loop import EventLoopUnavailable

ROOT = Path(__file__).resolve().parents[2]


async def _kind() -> str:
    return event_loop.loop_name()


def test_the_configuration_names_one_of_three_loops() -> None:
    assert config_from_mapping({}).event_loop == "auto"
    assert config_from_mapping({"event_loop": "asyncio"}).event_loop == "asyncio"
    with pytest.raises(ConfigError, match="event_loop"):
        config_from_mapping({"event_loop": "trio"})


def test_asyncio_when_asked_and_uvloop_by_default() -> None:
    pytest.importorskip("uvloop")
    assert event_loop.run(_kind(), "asyncio") == "asyncio"
    assert event_loop.run(_kind(), "auto") == ("uvloop" if sys.version_info < (3, 13) else "asyncio")
    assert event_loop.run(_kind(), "uvloop") == "uvloop"


def test_without_uvloop_auto_falls_back_and_uvloop_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # `import uvloop` raises ImportError
    assert event_loop.run(_kind(), "auto") == "asyncio"
    main = _kind()
    with pytest.raises(EventLoopUnavailable, match='event_loop = "uvloop", but uvloop is not installed'):
        event_loop.run(main, "uvloop")
    assert main.cr_frame is None  # closed: no "never awaited" warning at collection


async def test_the_served_loop_is_uvloop_and_takes_a_login(tmp_path: Path) -> None:
    """By default on 3.11 and 3.12; asked for on 3.13 (where "auto" is asyncio's loop)."""
    pytest.importorskip("uvloop")
    asked = 'event_loop = "uvloop"\n' if sys.version_info >= (3, 13) else ""
    proc, port, _ = start_serve(tmp_path, settings=asked)
    try:
        ana = await ssh_connect(port, asyncssh.generate_private_key("ssh-ed25519"), "ana", size=(80, 24))
        await ana.wait_for("New table", timeout=20)  # the lobby, drawn over the connection
        ana.send("1")  # a new table's form, then the table made and its room shown
        await ana.wait_for("Create", timeout=10)
    finally:
        stop(proc)
    log = (tmp_path / "server.log").read_text()
    assert "event_loop=uvloop" in log or '"event_loop": "uvloop"' in log, log[-2000:]


def test_serve_refuses_to_start_when_uvloop_is_asked_but_missing(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "uvloop"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text('raise ImportError("not on this host")\n')
    config = tmp_path / "server.toml"
    config.write_text('port = 0\nevent_loop = "uvloop"\n')
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "serve", "--config", str(config), "--workers", "1"]
        + ["--keys-dir", str(tmp_path / "keys"), "--saves-dir", str(tmp_path / "saves")],
        cwd=ROOT,
        env={"PYTHONPATH": f"{shadow.parent}:{ROOT}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert 'citadels serve: event_loop = "uvloop", but uvloop is not installed' in done.stderr
    assert "Traceback" not in done.stderr


def test_the_metering_factory_drops_an_eager_start_of_none() -> None:
    """uvloop 0.23 on 3.13 calls the task factory with `eager_start=None`; 3.13.0's eager factory (set
    by Textual, wrapped by the server's metering) has no such argument."""
    from server.transport.input_budget import ensure_metering

    made: list[dict] = []

    def eager_like(loop, coro, *, name=None, context=None):  # asyncio.eager_task_factory's signature on 3.13.0
        made.append({"name": name, "context": context})
        return asyncio.Task(coro, loop=loop, name=name, context=context)

    async def nothing() -> int:
        return 1

    async def main() -> int:
        loop = asyncio.get_running_loop()
        loop.set_task_factory(eager_like)
        ensure_metering(loop)
        try:
            task = loop.get_task_factory()(loop, nothing(), context=None, eager_start=None)
            return await task
        finally:
            loop.set_task_factory(None)

    assert asyncio.run(main()) == 1
    assert made == [{"name": None, "context": None}]
