"""Graceful shutdown, serve_forever under signals, join bursts, gc tuning."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import asyncssh
import pytest

from server.transport.session import ServerStopping

REPO = Path(__file__).resolve().parents[2]


async def test_shutdown_tells_and_closes_every_session_quickly(start, open_terminal):
    server = await start()
    terms = [await open_terminal(server, username=f"p{i}") for i in range(4)]
    for term in terms:
        await term.wait_for("size: 80x24")
    began = time.monotonic()
    await asyncio.wait_for(server.close(), 10)
    for term in terms:
        text = await term.read_to_end(timeout=5)
        assert "The server is shutting down" in text
        await asyncio.wait_for(term.process.wait_closed(), 5)
    assert time.monotonic() - began < server.config.shutdown_grace_seconds + 2
    assert server.session_count == 0
    # No longer listening.
    with pytest.raises((OSError, asyncssh.Error)):
        await asyncssh.connect(
            "127.0.0.1", server.port, known_hosts=None, agent_path=None, config=None, client_keys=None
        )


async def test_apps_hear_server_stopping(start, open_terminal):
    heard: list[str] = []

    from server.transport.demo_app import DemoApp

    class Listening(DemoApp):
        def on_server_stopping(self, message: ServerStopping) -> None:
            heard.append(message.text)

    server = await start(app_factory=Listening)
    term = await open_terminal(server)
    await term.wait_for("size: 80x24")
    await server.close("Maintenance: back in 5 minutes.")
    assert "Maintenance: back in 5 minutes." in await term.read_to_end(timeout=5)
    assert heard == ["Maintenance: back in 5 minutes."]


async def test_a_stuck_app_does_not_hold_up_shutdown(start, open_terminal):
    from server.transport.demo_app import DemoApp

    class Stubborn(DemoApp):
        async def on_key(self, event) -> None:
            await asyncio.sleep(3600)  # busy forever: exit requests wait behind it

    server = await start(app_factory=Stubborn, shutdown_grace_seconds=1.0)
    term = await open_terminal(server)
    await term.wait_for("size: 80x24")
    term.send(b"x")
    await asyncio.sleep(0.1)  # let the key reach the app; not a timing assertion
    began = time.monotonic()
    await asyncio.wait_for(server.close(), 10)
    assert time.monotonic() - began < 4
    await asyncio.wait_for(term.process.wait_closed(), 5)


async def test_join_burst_starts_a_few_apps_at_a_time(start, open_terminal):
    running = 0
    peak = 0

    from server.transport.demo_app import DemoApp

    class Counting(DemoApp):
        def on_mount(self) -> None:
            nonlocal running, peak
            running += 1
            peak = max(peak, running)

        def on_ready(self) -> None:
            nonlocal running
            running -= 1

    server = await start(app_factory=Counting, max_concurrent_app_starts=2, max_sessions_per_address=10)
    terms = await asyncio.gather(*(open_terminal(server, username=f"j{i}") for i in range(8)))
    for term in terms:
        await term.wait_for("size: 80x24")
    assert 1 <= peak <= 2
    assert server.session_count == 8


async def test_gc_is_tuned_while_serving_and_restored_after(start, open_terminal, wait_until):
    before = gc.get_threshold()
    server = await start(gc_tuning=True, gc_freeze_delay_seconds=0.1, gc_threshold0=12345, gc_quiet_seconds=0.2)
    try:
        assert gc.get_threshold()[0] == 12345
        term = await open_terminal(server)
        await term.wait_for("size: 80x24")
        await wait_until(lambda: server.gc.freezes >= 1, timeout=5, what="gc.freeze after app start")
        assert gc.get_freeze_count() > 0
        term.close()
        await wait_until(lambda: server.session_count == 0, what="session gone")
        # The last session left: its cycles are collected without waiting for quiet checks.
        await wait_until(lambda: server.gc.collections >= 1, timeout=5, what="collection after the last departure")
    finally:
        await server.close()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


async def test_gc_pacer_keeps_the_young_generation_small(start, wait_until):
    """CPython collects generation 0 when allocations minus deallocations pass a threshold: a
    server that replaces old objects with new ones never gets there while generation 0 grows
    (100,000+ objects, a 100 ms pause when it finally runs). The pacer collects it regularly."""
    server = await start(
        gc_tuning=True, gc_young_interval_seconds=0.02, gc_freeze_interval_seconds=0.02, gc_threshold0=1_000_000
    )
    try:
        old = [[i] for i in range(60_000)]
        await asyncio.sleep(0.1)  # frozen by now: old objects, as a served screen's earlier lines
        assert server.gc.freezes >= 1
        new = []
        for i in range(60_000):  # replace them one by one: the net count never rises
            new.append([i])
            old.pop()
            if i % 5_000 == 0:
                await asyncio.sleep(0.03)
        await asyncio.sleep(0.1)
        assert len(gc.get_objects(0)) < 20_000, "generation 0 collected along the way"
        assert server.gc.paced_collections >= 5
        assert server.gc.max_paced_ms < 1000
        del new
    finally:
        await server.close()
    assert gc.get_freeze_count() == 0


async def test_gc_pacer_steps_sooner_after_a_long_step_and_back_after(start, wait_until):
    """A step scans what was made since the last one: after a burst (many apps drawing at once) the
    pacer waits less before the next step, so that no step is long, then returns to its pace."""
    server = await start(
        gc_tuning=True,
        gc_young_interval_seconds=0.2,
        gc_freeze_interval_seconds=0.2,
        gc_threshold0=1_000_000,
        gc_pause_target_ms=2.0,
        gc_young_min_interval_seconds=0.02,
        gc_young_quiet_interval_seconds=0,  # no longer waits while quiet (the next test)
    )
    try:
        await asyncio.sleep(0.5)
        assert server.gc.min_pace_seconds == 0.2, "nothing made: the usual pace"
        burst = [[i] for i in range(300_000)]  # survivors the next step must scan (tens of ms)
        await wait_until(lambda: server.gc.min_pace_seconds <= 0.1, timeout=5, what="a shorter wait after a long step")
        await wait_until(lambda: server.gc.pace_seconds == 0.2, timeout=10, what="back to the usual pace")
        del burst
    finally:
        await server.close()
    assert gc.get_freeze_count() == 0


async def test_gc_pacer_waits_longer_while_quiet_and_not_once_work_comes(start, wait_until):
    """An idle server wakes the collector about once a second, not ten times; the first step that
    finds work puts the usual pace back, so a burst after a quiet spell is not left to pile up."""
    server = await start(
        gc_tuning=True,
        gc_young_interval_seconds=0.05,
        gc_freeze_interval_seconds=0.05,
        gc_threshold0=1_000_000,
        gc_pause_target_ms=50.0,
        gc_quiet_step_ms=1.0,
        gc_young_quiet_interval_seconds=0.4,
    )
    try:
        await wait_until(lambda: server.gc.pace_seconds == 0.4, timeout=5, what="the quiet wait")
        steps = server.gc.paced_collections
        await asyncio.sleep(1.0)
        assert server.gc.paced_collections - steps <= 4, "about one step every 0.4 s while quiet, not every 0.05"
        assert server.gc.pace_seconds == 0.4
        burst = [[i] for i in range(300_000)]  # survivors the next step must scan (well over 1 ms)
        await wait_until(lambda: server.gc.pace_seconds <= 0.05, timeout=2, what="the usual pace with work")
        del burst
        await wait_until(lambda: server.gc.pace_seconds == 0.4, timeout=5, what="quiet again")
        steps = server.gc.paced_collections
        await asyncio.sleep(0.05)
        server.gc.note_input()  # a player's key: play resumes, the quiet wait ends at once
        await wait_until(lambda: server.gc.paced_collections > steps, timeout=0.2, what="a step right after input")
    finally:
        await server.close()
    assert gc.get_freeze_count() == 0


def test_serve_forever_prints_how_to_connect_and_stops_on_sigterm(tmp_path, strip_ansi):
    script = textwrap.dedent(
        f"""
        from server.config import ServerConfig
        from server.transport.demo_app import demo_app_factory
        from server.transport.ssh import serve_forever
        raise SystemExit(serve_forever(ServerConfig(port=0, keys_dir={str(tmp_path / "keys")!r}), demo_app_factory))
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        assert re.fullmatch(r"Host key fingerprint: SHA256:\S+\n", first), first
        match = re.fullmatch(r"Connect with: ssh -p (\d+) 127\.0\.0\.1\n", second)
        assert match, second
        port = int(match.group(1))

        async def session_then_sigterm() -> str:
            conn = await asyncssh.connect(
                "127.0.0.1",
                port,
                username="alice",
                known_hosts=None,
                agent_path=None,
                config=None,
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            )
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            output = b""
            while b"size: 80x24" not in output:
                output += await asyncio.wait_for(process.stdout.read(65536), 10)
            proc.send_signal(signal.SIGTERM)
            while True:
                chunk = await asyncio.wait_for(process.stdout.read(65536), 10)
                if not chunk:
                    break
                output += chunk
            conn.close()
            return strip_ansi(output.decode("utf-8", "replace"))

        text = asyncio.run(session_then_sigterm())
        assert "The server is shutting down" in text
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_gc_never_unfreezes_the_heap_with_many_sessions_live(start, open_terminal, wait_until):
    """Past gc_full_collect_max_sessions live, departures are collected without unfreezing."""
    server = await start(
        gc_tuning=True,
        gc_freeze_delay_seconds=0.1,
        gc_quiet_seconds=0.1,
        gc_collect_interval_seconds=0.2,
        gc_full_collect_max_sessions=0,
    )
    try:
        stay = await open_terminal(server, username="stay")
        leave = await open_terminal(server, username="leave")
        await stay.wait_for("size: 80x24")
        await leave.wait_for("size: 80x24")
        await wait_until(lambda: server.gc.freezes >= 1, timeout=5, what="gc.freeze after app start")
        leave.close()
        await wait_until(lambda: server.session_count == 1, what="one session gone")
        await wait_until(
            lambda: server.gc.young_collections >= 1, timeout=5, what="a collection of the unfrozen objects"
        )
        assert server.gc.collections == 0
        assert gc.get_freeze_count() > 0
    finally:
        await server.close()
