"""`citadels admin` end to end (issue 18, attack 8): a real `citadels serve`, real SSH clients, and the
admin command run as the host would: list sessions and tables, broadcast, close a table, kick, ban a
key (kept across a restart) and an address, unban, status; every subcommand has --help."""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import sys
from pathlib import Path

import asyncssh
import pytest
from game_helpers import Screen, close_with_session, create_table
from test_service_recovery import start_serve, stop

from tests.ssh_terminal import Terminal

ROOT = Path(__file__).resolve().parents[2]


async def admin(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "cli.main",
        "admin",
        "--saves-dir",
        str(tmp_path / "saves"),
        *args,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode, out.decode(), err.decode()


async def rows(tmp_path: Path, what: str) -> list[dict]:
    code, out, err = await admin(tmp_path, what, "--json")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines() if line.strip()]


async def client(port: int, username: str, key=None, addr: str = "127.0.0.1") -> Screen:
    from conftest import GuestClient

    options = dict(username=username, known_hosts=None, agent_path=None, config=None, password=None)
    options["local_addr"] = (addr, 0)
    if key is None:
        options.update(client_keys=None, client_factory=GuestClient)
    else:
        options.update(client_keys=[key])
    conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **options), 10)
    proc = await conn.create_process(term_type="xterm-256color", term_size=(120, 40), encoding=None)
    close_with_session(conn, proc)
    return Screen(Terminal(conn, proc))


async def refused_login(port: int, username: str, key=None, addr: str = "127.0.0.1") -> None:
    """A banned client is refused at authentication (no session), reading the ban's line."""
    with pytest.raises(asyncssh.DisconnectError) as caught:
        await client(port, username, key, addr)
    assert caught.value.reason.startswith("You are banned from this server.")


async def ended_with(screen: Screen, text: str) -> None:
    """The session ends, and its last words contain `text`."""
    for _ in range(200):
        if not await screen.term.read_some(0.1):
            break
    assert text in screen.text(False), screen.text(False)[-500:]


@pytest.mark.parametrize("sub", ["sessions", "tables", "bans", "status", "kick", "ban", "unban", "close", "broadcast"])
async def test_every_admin_subcommand_has_help(tmp_path, sub):
    code, out, _ = await admin(tmp_path, sub, "--help")
    assert code == 0 and "usage: citadels admin" in out and sub in out


async def test_admin_without_a_server_says_so_in_one_line(tmp_path):
    code, out, err = await admin(tmp_path, "sessions")
    assert code == 1 and err.count("\n") == 1 and "no server is running" in err


@pytest.mark.slow  # end to end: a 'citadels serve' process, restarted, and twenty 'citadels admin' processes
async def test_admin_commands_against_a_real_server(tmp_path):
    key_a = asyncssh.generate_private_key("ssh-ed25519")
    fa = key_a.get_fingerprint("sha256")
    proc, port, out = start_serve(tmp_path)
    try:
        assert "citadels admin --saves-dir" in proc.stdout.readline()  # the line after "Connect with"
        sock = tmp_path / "saves" / "admin.sock"
        assert stat.S_IMODE(os.stat(sock).st_mode) == 0o600
        for junk in (
            b"{not json\n",
            b'{"type": "format_disk"}\n',
            b'{"type": "kick"}\n',
        ):  # bad requests: one line back
            reader, writer = await asyncio.open_unix_connection(str(sock))
            writer.write(junk)
            reply = json.loads(await asyncio.wait_for(reader.readline(), 10))
            writer.close()
            assert reply["ok"] is False and reply["message"].startswith("bad request"), reply
        a = await client(port, "alice", key_a)
        g = await client(port, "gus")
        await a.wait_for("Citadels · lobby")
        await g.wait_for("Citadels · lobby")
        await create_table(a, players=3, bots=1)
        # list
        sessions = await rows(tmp_path, "sessions")
        by_name = {r["name"]: r for r in sessions}
        assert set(by_name) == {"alice", "gus"}
        assert by_name["alice"]["key"] == fa and by_name["gus"]["key"] == "guest"
        assert by_name["alice"]["where"] == "room" and by_name["alice"]["peer"] == "127.0.0.1"
        tables = await rows(tmp_path, "tables")
        assert len(tables) == 1 and tables[0]["phase"] == "waiting" and tables[0]["creator"] == fa
        code, text, _ = await admin(tmp_path, "sessions")
        assert code == 0 and text.startswith("SESSION") and "alice" in text and "gus" in text
        # broadcast
        a.mark()
        g.mark()
        code, text, _ = await admin(tmp_path, "broadcast", "Server restarts at noon")
        assert code == 0 and "sent to 2 session(s)" in text
        await a.wait_for("Message from the host: Server restarts at noon")
        await g.wait_for("Message from the host: Server restarts at noon")
        # close alice's table
        a.mark()
        code, text, _ = await admin(tmp_path, "close", tables[0]["table"], "--message", "Closed for maintenance.")
        assert code == 0, text
        await a.wait_for("Closed for maintenance.")
        assert await rows(tmp_path, "tables") == []
        assert list((tmp_path / "saves").glob("*.meta.json")) == []
        code, _, err = await admin(tmp_path, "close", "t00000000")
        assert code == 1 and "No table" in err
        # kick the guest
        code, text, _ = await admin(tmp_path, "kick", by_name["gus"]["session"])
        assert code == 0 and "kicked 1 session(s)" in text
        await ended_with(g, "The host disconnected you.")
        # ban alice's key: she is closed at once, and refused when she comes back
        code, text, _ = await admin(tmp_path, "ban", "key", fa, "--reason", "testing")
        assert code == 0 and "banned: key" in text and "1 session(s) closed" in text
        await ended_with(a, "You are banned from this server.")
        await refused_login(port, "alice", key_a)
        bans = await rows(tmp_path, "bans")
        assert bans == [{"kind": "key", "value": fa, "reason": "testing", "since": bans[0]["since"]}]
        status = (await rows(tmp_path, "status"))[0]
        # one closed by the ban (the lobby), one refused at login (the transport)
        assert status["refusals"]["banned"] >= 1 and status["transport_refusals"]["banned"] >= 1
        # an address ban; a bad one is refused in one line
        code, text, _ = await admin(tmp_path, "ban", "address", "127.0.0.3")
        assert code == 0
        code, _, err = await admin(tmp_path, "ban", "address", "not-an-address")
        assert code == 1 and "not an address" in err
        await refused_login(port, "mallory", asyncssh.generate_private_key("ssh-ed25519"), addr="127.0.0.3")
    finally:
        stop(proc)
    # the bans hold across a restart; unban lifts one
    proc, port, _ = start_serve(tmp_path)
    try:
        assert {b["kind"] for b in await rows(tmp_path, "bans")} == {"key", "address"}
        await refused_login(port, "alice", key_a)
        code, text, _ = await admin(tmp_path, "unban", "key", fa)
        assert code == 0 and "unbanned" in text
        a4 = await client(port, "alice", key_a)
        await a4.wait_for("Citadels · lobby")
        a4.term.close()
    finally:
        stop(proc)
    log = (tmp_path / "server.log").read_text()
    for line in ("admin command", "kicked", "session refused", "table closed"):
        assert line in log, line
    # what the host did is a warning; a refused command (the bad address) changed nothing: information
    assert re.search(r"WARNING citadels.server.admin: admin command command=unban ok=True", log), log[-2000:]
    assert re.search(r"INFO citadels.server.admin: admin command command=ban ok=False", log), log[-2000:]


@pytest.mark.slow  # a 'citadels serve' process (one stopping with one line stays fast: tests/ui/test_textual_versions.py)
def test_an_unreadable_bans_file_stops_the_server_with_one_line(tmp_path):
    import subprocess

    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "bans.json").write_text('{"bans": [{"kind": "key", "value": "not a key"}]}')
    p = subprocess.run(
        [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--keys-dir", str(tmp_path / "keys")]
        + ["--saves-dir", str(saves), "--workers", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.strip().count("\n") == 0 and "cannot read the bans file" in p.stderr, p.stderr
