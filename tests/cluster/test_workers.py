"""`citadels serve --workers 2` (issue 23): two worker processes on one port behind an embedded
nats-server, as a player sees them: whichever worker accepts a connection, the lobby is one (a table
made on one worker is joined from the other); a worker killed is started again; SIGTERM stops all."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .harness import REPO, Player, _term_with_parent
from .helpers import wait_until


async def _serve_workers(folder: Path, config: str = "") -> tuple[asyncio.subprocess.Process, int, list[int]]:
    """`citadels serve --workers 2` in `folder` (`config`: a config file's TOML for it)."""
    args = [sys.executable, "-m", "cli.main", "serve", "--workers", "2", "--port", "0"]
    if config:
        (folder / "server.toml").write_text(config)
        args += ["--config", str(folder / "server.toml")]
    args += ["--keys-dir", str(folder / "keys"), "--saves-dir", str(folder / "saves"), "--bots", "random"]
    with open(folder / "parent.log", "ab") as log:
        proc = await asyncio.create_subprocess_exec(
            *args,
            cwd=str(REPO),
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
            stdin=asyncio.subprocess.DEVNULL,
            preexec_fn=_term_with_parent,
        )
    assert proc.stdout is not None
    seen = b""
    while b"Workers:" not in seen:
        line = await asyncio.wait_for(proc.stdout.readline(), 90)
        assert line, (folder / "parent.log").read_text()
        seen += line
    port = int(re.search(rb"ssh -p (\d+)", seen).group(1))  # type: ignore[union-attr]
    pids = [int(p) for p in re.search(rb"pids ([\d ]+)", seen).group(1).split()]  # type: ignore[union-attr]
    return proc, port, pids


def _worker_of(folder: Path, player: Player) -> str | None:
    for worker in ("w1", "w2"):
        log = folder / "saves" / worker / "worker.log"
        if log.exists() and f"key={player.fingerprint}" in log.read_text(errors="replace"):
            return worker
    return None


async def ana_opens_a_table(folder: Path, port: int, players: list[Player]) -> tuple[Player, str]:
    """ana connects and opens a table of 4 seats; returns her and the worker that accepted her (whose
    table it is)."""
    ana = Player("ana")
    players.append(ana)
    await ana.connect(port)
    await ana.wait_for("New table", timeout=30)
    ana.send(b"1")
    await ana.wait_for("Players")
    ana.send(b"0")  # the form's last row: create the table (4 seats)
    await asyncio.sleep(0.3)
    ana.send(b"\r")
    await ana.wait_for("open: wait for players", timeout=15)
    await wait_until(lambda: _worker_of(folder, ana) is not None, what="ana's worker in its log")
    worker = _worker_of(folder, ana)
    assert worker is not None
    return ana, worker


async def seat_from_other_worker(
    folder: Path, port: int, owner: str, first: int, players: list[Player], **session_options: Any
) -> Player:
    """Connect players (each from an address of its own: a worker admits 5 sessions per address, and
    six in a row may go to one worker) until one is accepted by the worker that is not `owner`; that
    one takes a seat at the lobby's first table."""
    for i in range(first, first + 12):
        p = Player(f"p{i}")
        players.append(p)
        await p.connect(port, source=f"127.0.0.{20 + i}", **session_options)
        await p.wait_for("ana's table", timeout=30)
        await wait_until(lambda p=p: _worker_of(folder, p) is not None, what="the player's worker")
        if _worker_of(folder, p) != owner:
            p.send(b"1")  # the table's row
            await p.wait_for("Take a seat")
            p.send(b"1")
            await p.wait_for(f"{p.name} (you)")
            return p
    raise AssertionError("every connection went to one worker")


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree, players connecting until one lands on each worker, a worker killed (~30 s)
async def test_two_workers_on_one_port_are_one_server(tmp_path: Path) -> None:
    parent, port, pids = await _serve_workers(tmp_path)
    players: list[Player] = []
    try:
        assert len(pids) == 2
        # the embedded nats-server runs one Go thread (server/cluster/workers.py), unless the host says otherwise
        nats = [c for c in _children(parent.pid) if Path(f"/proc/{c}/comm").read_text().strip() == "nats-server"]
        assert len(nats) == 1
        environ = Path(f"/proc/{nats[0]}/environ").read_bytes().split(b"\0")
        assert (b"GOMAXPROCS=" + os.environ.get("GOMAXPROCS", "1").encode()) in environ
        ana, anas = await ana_opens_a_table(tmp_path, port, players)

        # connect until the kernel hands a connection to the other worker: it sees ana's table, joins it
        other = await seat_from_other_worker(tmp_path, port, anas, 0, players)
        await ana.wait_for(other.name)

        # a worker killed is started again (its node id back in the cluster)
        victim = pids[1]
        killed = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        log = tmp_path / "parent.log"
        await wait_until(lambda: "starting it again" in log.read_text(), timeout=15, what="the restart")
        worker_log = tmp_path / "saves" / "w2" / "worker.log"
        await wait_until(lambda: worker_log.read_text().count("node started") >= 2, timeout=40, what="w2 again")
        # its dead predecessor's record replaced at once, not waited out (the workers' life: 12 s)
        assert "record of a dead predecessor replaced" in worker_log.read_text()
        assert time.monotonic() - killed < 10
    finally:
        for p in players:
            p.close()
        parent.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(parent.wait(), 60)
    assert status == 0
    assert "Stopping" in (tmp_path / "parent.log").read_text()
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
