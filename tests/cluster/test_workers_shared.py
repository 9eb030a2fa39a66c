"""`citadels serve --workers 2` (issue 23) is one server for its players and its host, whichever worker
the kernel hands a connection to: `citadels admin` lists every worker's sessions and its ban reaches
every worker (the key's sessions closed where they are, its logins refused on each); a game saved to a
file through one worker is listed and loaded by its owner through the other (and nobody else sees it).

Real processes throughout: the parent with its embedded nats-server, the workers, asyncssh clients (each
connection from a loopback address of its own until it lands on the worker wanted), the admin command."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from server.admin.bans import BANNED_MESSAGE

from .harness import DOWN, REPO, Player, _term_with_parent
from .helpers import wait_until

END, UP, LEFT, RIGHT, ENTER = b"\x1b[F", b"\x1b[A", b"\x1b[D", b"\x1b[C", b"\r"
CTRL_Q = b"\x11"
_addresses = iter(range(20, 250))


class Workers:
    """`citadels serve --workers 2` in `folder`, and `citadels admin` against it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.saves = folder / "saves"
        self.proc: Any = None
        self.port = 0

    async def start(self, own_session: bool = False) -> Workers:
        args = [sys.executable, "-m", "cli.main", "serve", "--workers", "2", "--port", "0", "--bots", "random"]
        args += ["--keys-dir", str(self.folder / "keys"), "--saves-dir", str(self.saves)]
        with open(self.folder / "parent.log", "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *args,
                cwd=str(REPO),
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                stdin=asyncio.subprocess.DEVNULL,
                preexec_fn=_term_with_parent,
                start_new_session=own_session,  # a group of its own, as a terminal gives a command
            )
        seen = b""
        while b"Workers:" not in seen:
            line = await asyncio.wait_for(self.proc.stdout.readline(), 90)
            assert line, (self.folder / "parent.log").read_text()
            seen += line
        assert b"Host tools: citadels admin --saves-dir" in seen
        self.port = int(re.search(rb"ssh -p (\d+)", seen).group(1))  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(self.proc.wait(), 60) == 0

    async def admin(self, *args: str, socket: Path | None = None) -> tuple[int, str, str]:
        where = ["--socket", str(socket)] if socket is not None else []
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "cli.main",
            "admin",
            "--saves-dir",
            str(self.saves),
            *where,
            *args,
            cwd=str(REPO),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        return proc.returncode or 0, out.decode(), err.decode()

    async def rows(self, what: str, socket: Path | None = None) -> list[dict[str, Any]]:
        code, out, err = await self.admin(what, "--json", socket=socket)
        assert code == 0, err
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    async def worker_of(self, player: Player) -> str:
        """The worker serving the player's newest session (its session id is `w<K>.s<n>`)."""
        found: list[str] = []

        async def look() -> bool:
            rows = [r for r in await self.rows("sessions") if r["key"] == player.fingerprint]
            found[:] = [r["session"] for r in rows]
            return bool(rows)

        for _ in range(100):
            if await look():
                break
            await asyncio.sleep(0.1)
        assert found, f"{player.name} is in no worker's sessions"
        newest = max(found, key=lambda sid: int(sid.rsplit(".s", 1)[1]))
        return newest.split(".", 1)[0]

    async def connect_to(self, player: Player, worker: str | None, wait: str = "New table") -> str:
        """Connect from new loopback addresses until the kernel hands the connection to `worker` (any,
        if None); the worker."""
        for _ in range(16):
            await player.connect(self.port, source=f"127.0.0.{next(_addresses)}")
            await player.wait_for(wait, timeout=30)
            where = await self.worker_of(player)
            if worker is None or where == worker:
                return where
            player.close()
            await asyncio.sleep(0.2)  # its session gone from the listing before the next look
        raise AssertionError(f"16 connections and none went to {worker}")


async def _create_and_start(player: Player) -> None:
    """From the lobby's main page (no table listed): a table of 2 (the player and a bot), started."""
    player.mark()
    player.send(b"1")  # New table…
    await player.wait_for("Players")
    player.send(DOWN + LEFT * 2 + DOWN * 3 + RIGHT)  # 2 players, 1 bot
    await asyncio.sleep(0.3)
    player.mark()
    player.send(END + UP + ENTER)  # Create
    await player.wait_for("Start the game", timeout=15)
    player.mark()
    player.send(b"1")
    await player.wait_for("Round 1", timeout=15)


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree, players until both workers hold one, admin processes (~12 s)
async def test_admin_sees_every_worker_and_a_ban_holds_on_all_of_them(tmp_path: Path) -> None:
    server = await Workers(tmp_path).start()
    ana, bob_here, bob_there = Player("ana"), Player("bob"), Player("bob")
    bob_there.key, bob_there.fingerprint = bob_here.key, bob_here.fingerprint  # one person, two connections
    players = [ana, bob_here, bob_there]
    try:
        w_ana = await server.connect_to(ana, None)
        other = "w2" if w_ana == "w1" else "w1"
        await server.connect_to(bob_here, w_ana)
        await server.connect_to(bob_there, other)

        # every worker's sessions in one listing; their ids unique on the host
        rows = await server.rows("sessions")
        assert sorted(r["name"] for r in rows) == ["ana", "bob", "bob"]
        assert len({r["session"] for r in rows}) == 3
        assert {r["session"].split(".")[0] for r in rows if r["name"] == "bob"} == {"w1", "w2"}
        code, text, _ = await server.admin("sessions")
        assert code == 0 and text.startswith("SESSION") and text.count("bob") == 2
        (status,) = await server.rows("status")
        assert status["sessions"] == 3 and status["workers"] == ["w1", "w2"], status

        # a broadcast reaches both workers' sessions
        code, text, _ = await server.admin("broadcast", "Restart at noon")
        assert code == 0 and "sent to 3 session(s)" in text, text
        await ana.wait_for("Message from the host: Restart at noon")
        await bob_there.wait_for("Message from the host: Restart at noon")

        # the ban closes bob's sessions on both workers, and refuses his logins on each
        code, text, err = await server.admin("ban", "key", bob_here.fingerprint, "--reason", "testing")
        assert code == 0 and f"banned: key {bob_here.fingerprint}; 2 session(s) closed" in text, (text, err)
        for bob in (bob_here, bob_there):
            await wait_until(lambda bob=bob: not bob.connected, timeout=10, what="bob's session closed")
            assert BANNED_MESSAGE in bob.text(False)
        assert [r["name"] for r in await server.rows("sessions")] == ["ana"]
        refused_on: set[str] = set()
        for _ in range(20):
            with pytest.raises(asyncssh.DisconnectError) as caught:
                await bob_here.connect(server.port, source=f"127.0.0.{next(_addresses)}")
            assert caught.value.reason.startswith(BANNED_MESSAGE)
            for w in ("w1", "w2"):
                (mine,) = await server.rows("status", socket=server.saves / w / "admin.sock")
                if mine["transport_refusals"].get("banned"):
                    refused_on.add(w)
            if refused_on == {"w1", "w2"}:
                break
        assert refused_on == {"w1", "w2"}, "the kernel never handed bob's login to one of the workers"
        assert [b["value"] for b in await server.rows("bans")] == [bob_here.fingerprint]
        assert json.loads((server.saves / "bans.json").read_text())["bans"][0]["reason"] == "testing"

        # kick by session id: the worker that holds it closes it
        (row,) = await server.rows("sessions")
        code, text, _ = await server.admin("kick", row["session"])
        assert code == 0 and f"kicked 1 session(s): {row['session']}" in text, text
        await wait_until(lambda: not ana.connected, timeout=10, what="ana kicked")

        # lifted through the parent: bob gets in again, on either worker
        code, text, _ = await server.admin("unban", "key", bob_here.fingerprint)
        assert code == 0 and "unbanned" in text
        await server.connect_to(bob_here, None)
    finally:
        for p in players:
            p.close()
        await server.stop()
    log = (tmp_path / "parent.log").read_text()
    assert "w1 " in log and "w2 " in log and "session refused" in log  # the workers' logs, on the parent's stderr


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree and players on both workers
async def test_a_game_saved_through_one_worker_is_loaded_by_its_owner_through_the_other(tmp_path: Path) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "t0ld.save").write_bytes(b"")  # a single process's game in progress: named at start
    server = await Workers(tmp_path).start()
    assert "1 unfinished game(s)" in (tmp_path / "parent.log").read_text()
    ana, cy = Player("ana"), Player("cy")
    try:
        w_ana = await server.connect_to(ana, None)
        other = "w2" if w_ana == "w1" else "w1"
        await _create_and_start(ana)
        ana.mark()
        ana.send(CTRL_Q)
        await ana.wait_for("Save the game to a file")
        ana.send(b"4\r")  # Back, Lobby, Spectators may write, Save…, Quit
        await ana.wait_for("Save the game as")
        ana.send(b"ours" + ENTER)
        await ana.wait_for("Saved.", timeout=10)
        assert (server.saves / "exports" / "ours.save").exists()  # the host's one exports folder
        assert not list(server.saves.glob("w*/exports/*.save"))

        # the host closes the running table (whichever worker runs it): it is kept in the one closed/
        (table,) = await server.rows("tables")
        ana.mark()
        code, text, err = await server.admin("close", table["table"])
        assert code == 0 and "kept in" in text, (text, err)
        await ana.wait_for("The host closed this table.")
        assert (server.saves / "closed" / f"{table['table']}.save").exists()
        assert await server.rows("tables") == []

        # ana comes back through the other worker: her saved game is listed there, and loads
        ana.close()
        await server.connect_to(ana, other, wait="Load a saved game")
        ana.mark()
        ana.send(END + UP + ENTER)  # … Load a saved game…, Quit
        await ana.wait_for("Your saved games")
        await ana.wait_for("ours")
        ana.send(b"1")
        await ana.wait_for("A saved game", timeout=15)
        own = await server.rows("tables", socket=server.saves / other / "admin.sock")
        assert [t["saved_game"] for t in own] == [True]  # loaded by the worker she is on

        # a stranger on the first worker sees no saved game of hers
        await server.connect_to(cy, w_ana)
        await cy.quiet(0.5)
        assert "Load a saved game" not in cy.text(False)
    finally:
        for p in (ana, cy):
            p.close()
        await server.stop()


@pytest.mark.slow  # two 'citadels serve --workers 2' processes (the parent's imports below stay fast)
def test_what_stops_a_single_server_stops_the_workers_with_the_same_line(tmp_path: Path) -> None:
    import socket
    import subprocess

    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "cli.main", "serve", "--workers", "2", "--keys-dir", str(tmp_path / "keys")]
            + ["--saves-dir", str(tmp_path / "saves"), *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = serve("--port", str(port))
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == f"citadels serve: cannot listen on 127.0.0.1:{port}: Address already in use"
    (tmp_path / "saves" / "bans.json").write_text('{"bans": [{"kind": "key", "value": "not a key"}]}')
    done = serve("--port", "0")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("citadels serve: cannot read the bans file")
    assert not list((tmp_path / "saves").glob("w*"))  # no worker was started


def test_the_parent_imports_no_engine_ssh_or_database(tmp_path: Path) -> None:
    """The parent lives as long as the server and serves nobody: its start checks run in a child."""
    import subprocess

    code = (
        "import sys, server.cluster.workers, server.logging_setup as l; l.configure_logging(ssh=False); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'engine', 'asyncssh', 'sqlalchemy', 'alembic', 'ui'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree stopped by a terminal's Ctrl+C
async def test_ctrl_c_in_the_terminal_stops_the_workers_then_nats_as_a_single_server_stops(tmp_path: Path) -> None:
    """A terminal's Ctrl+C is SIGINT to the whole foreground group: it reaches the parent alone (the
    workers and the nats-server have groups of their own), which stops its workers as a single server
    stops (players told, within seconds), then the nats-server: not every process at once (the
    nats-server gone under the stopping workers)."""
    import os
    import time

    server = await Workers(tmp_path).start(own_session=True)
    ana = Player("ana")
    try:
        await server.connect_to(ana, None)
        start = time.monotonic()
        os.killpg(server.proc.pid, signal.SIGINT)
        assert await asyncio.wait_for(server.proc.wait(), 60) == 0
        took = time.monotonic() - start
        await ana.wait_for("The server is shutting down")
    finally:
        ana.close()
        await server.stop()
    log = (tmp_path / "parent.log").read_text()
    assert log.count("Stopping...") == 3 and "Traceback" not in log, log[-3000:]
    assert took < 8, took  # a single server's shutdown_grace_seconds (3) and the nodes' leaving
