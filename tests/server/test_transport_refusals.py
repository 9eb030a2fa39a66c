"""Everything but an interactive PTY shell is refused, with a one-line message
where the SSH protocol has room for one; admission caps and guests."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from asyncssh.packet import Boolean, String, UInt32


def _one_line(text: str) -> str:
    lines = [line for line in text.replace("\r", "").split("\n") if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


async def test_shell_without_pty_is_refused(start, connect):
    server = await start()
    conn = await connect(server)
    result = await asyncio.wait_for(conn.run(encoding=None), 10)  # shell, no term_type
    assert result.exit_status == 1
    assert "interactive" in _one_line(result.stderr.decode())
    assert server.session_count == 0


async def test_exec_is_refused(start, connect):
    server = await start()
    conn = await connect(server)
    result = await asyncio.wait_for(conn.run("cat /etc/passwd", encoding=None), 10)
    assert result.exit_status == 1
    assert "does not run commands" in _one_line(result.stderr.decode())
    assert result.stdout == b""


async def test_scp_is_refused(start, connect, tmp_path):
    server = await start()
    conn = await connect(server)
    result = await asyncio.wait_for(conn.run("scp -t /tmp", encoding=None), 10)
    assert result.exit_status == 1
    assert "does not run commands" in _one_line(result.stderr.decode())


async def test_sftp_subsystem_is_refused(start, connect):
    server = await start()
    conn = await connect(server)
    result = await asyncio.wait_for(conn.run(subsystem="sftp", encoding=None), 10)
    assert result.exit_status == 1
    assert "'sftp'" in _one_line(result.stderr.decode())
    # And a real SFTP client gets an error, not a file system.
    other = await connect(server)
    with pytest.raises((asyncssh.SFTPError, asyncssh.Error, OSError, asyncio.IncompleteReadError, EOFError)):
        await asyncio.wait_for(other.start_sftp_client(), 10)


async def test_local_port_forwarding_is_refused(start, connect):
    server = await start()
    conn = await connect(server)
    with pytest.raises(asyncssh.ChannelOpenError) as refused:
        await conn.open_connection("127.0.0.1", server.port)
    assert refused.value.code == asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED
    assert "forwarding is disabled" in refused.value.reason
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_unix_connection("/run/some.sock")


async def test_remote_port_forwarding_is_refused(start, connect):
    server = await start()
    conn = await connect(server)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)


async def test_agent_and_x11_forwarding_are_refused(start, connect, open_terminal):
    server = await start()
    # A client asking for agent forwarding still gets its game...
    term = await open_terminal(server, agent_forwarding="/nonexistent/agent.sock")
    await term.wait_for("size: 80x24")
    # ...but the request itself is refused (asked here with want-reply, which
    # asyncssh's client does not do on its own: a private helper, test only).
    assert await term.process.channel._make_request(b"auth-agent-req@openssh.com") is False
    x11 = (Boolean(False), String(b"MIT-MAGIC-COOKIE-1"), String(b"00" * 16), UInt32(0))
    assert await term.process.channel._make_request(b"x11-req", *x11) is False
    term.mark()
    term.send(b"a")
    await term.wait_for("last key: a")


async def test_environment_requests_are_bounded(start, open_terminal, infos):
    server = await start(max_env_vars=5, max_env_bytes=64)
    env = {f"VAR{i}": "x" for i in range(50)}
    env["HUGE"] = "y" * 10_000
    term = await open_terminal(server, env=env)
    await term.wait_for("size: 80x24")
    assert len(infos[0].env) <= 5
    assert "HUGE" not in infos[0].env


async def test_per_address_cap(start, open_terminal, connect, wait_until):
    server = await start(max_sessions_per_address=2)
    first = await open_terminal(server)
    second = await open_terminal(server)
    await first.wait_for("size: 80x24")
    await second.wait_for("size: 80x24")
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await connect(server)
    assert refused.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
    assert "Too many sessions from your address (limit 2)" in refused.value.reason
    assert "\n" not in refused.value.reason
    first.close()
    await wait_until(lambda: server.connection_count == 1, what="slot freed")
    third = await open_terminal(server)
    await third.wait_for("size: 80x24")


async def test_global_cap(start, open_terminal, connect):
    server = await start(max_sessions=2, max_sessions_per_address=10)
    first = await open_terminal(server)
    await open_terminal(server)
    await first.wait_for("size: 80x24")
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await connect(server)
    assert "The server is full" in refused.value.reason
    assert server.connection_count == 2


async def test_guest_allowed_by_default(start, open_terminal, infos):
    server = await start()
    term = await open_terminal(server, username="visitor", guest=True)
    text = await term.wait_for("size: 80x24")
    assert "identity: guest" in text
    assert infos[0].is_guest and infos[0].key_fingerprint is None
    assert infos[0].username == "visitor"


async def test_guest_refused_when_config_says_so(start, connect, open_terminal):
    server = await start(allow_guests=False)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, guest=True)
    # Keys still work.
    term = await open_terminal(server)
    await term.wait_for("identity: key SHA256:")


async def test_same_key_same_fingerprint(start, open_terminal, client_key, infos):
    server = await start()
    other_key = asyncssh.generate_private_key("ssh-ed25519")
    for key in (client_key, client_key, other_key):
        term = await open_terminal(server, key=key)
        await term.wait_for("size: 80x24")
        term.close()
    first, second, third = (info.key_fingerprint for info in infos)
    assert first == second == client_key.get_fingerprint("sha256")
    assert third == other_key.get_fingerprint("sha256") != first
    assert not any(info.is_guest for info in infos)


async def test_username_is_sanitised(start, open_terminal, infos):
    from server.transport.session import sanitize_text

    server = await start()
    term = await open_terminal(server, username="ñandú-" + "x" * 200)
    await term.wait_for("size: 80x24")
    assert infos[0].username == ("ñandú-" + "x" * 200)[:64]
    # Control characters (asyncssh's client will not even send them) are dropped.
    assert sanitize_text("eve\x1b[31m\x07\u202e") == "eve[31m"
