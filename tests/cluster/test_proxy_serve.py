"""The PROXY protocol through `citadels serve` itself (a real server process, `proxy_protocol = true`):
a player behind a balancer sending a v1 or v2 header reaches the lobby, and the server's log names the
player's address, not the balancer's; a malformed header, a connection without one and a header from a
sender outside `proxy_allowed` are refused before SSH. (test_proxy_listener.py tests the listener alone,
and that the plain listener refuses a header.) Needs no NATS."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import asyncssh
import pytest

from .harness import REPO, Player, _term_with_parent
from .test_proxy_listener import TcpProxy, closed_by_server, v1, v2


class ServeProcess:
    """`citadels serve --config FILE` on a free port, until stopped."""

    def __init__(self, folder: Path, settings: dict[str, object]) -> None:
        self.folder = folder
        self.settings = settings
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0

    @property
    def log(self) -> str:
        return (self.folder / "serve.log").read_text(errors="replace")

    async def start(self) -> ServeProcess:
        self.folder.mkdir(parents=True, exist_ok=True)
        base = {
            "port": 0,
            "keys_dir": str(self.folder / "keys"),
            "saves_dir": str(self.folder / "saves"),
            "admin_socket": False,
            "accounts": False,
            "gc_tuning": False,
        }
        lines = [f"{k} = {_toml(v)}" for k, v in {**base, **self.settings}.items()]
        config = self.folder / "citadels.toml"
        config.write_text("\n".join(lines) + "\n")
        with open(self.folder / "serve.log", "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "cli.main",
                "serve",
                "--config",
                str(config),
                "--workers",
                "1",
                cwd=str(REPO),
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                stdin=asyncio.subprocess.DEVNULL,
                preexec_fn=_term_with_parent,
            )
        assert self.proc.stdout is not None
        seen = b""
        while b"Connect with" not in seen:
            line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
            assert line, f"citadels serve stopped: {self.log[-2000:]}"
            seen += line
        found = re.search(rb"ssh -p (\d+)", seen)
        assert found is not None, seen
        self.port = int(found.group(1))
        return self

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


async def _player_through(port: int, header: bytes, name: str) -> tuple[Player, TcpProxy]:
    proxy = TcpProxy(port, header)
    player = Player(name)
    try:
        await player.connect(await proxy.start())
    except BaseException:
        await proxy.close()
        raise
    return player, proxy


@pytest.mark.slow  # end to end: a 'citadels serve' process behind a PROXY header (test_proxy_listener.py and test_proxy_protocol.py stay fast)
async def test_players_behind_the_balancer_are_served_by_their_address_and_bad_headers_refused(
    tmp_path: Path,
) -> None:
    served = await ServeProcess(
        tmp_path, {"proxy_protocol": True, "proxy_allowed": ["127.0.0.1/32"], "proxy_header_timeout_seconds": 1.0}
    ).start()
    try:
        # v1 (IPv4) and v2 (IPv6): the lobby is drawn, and the log names the player's address
        for name, header, address in (
            ("ana", v1(("203.0.113.7", 51000)), "203.0.113.7"),
            ("bob", v2(("2001:db8::7", 4000), ("2001:db8::1", 22)), "2001:db8::7"),
        ):
            player, proxy = await _player_through(served.port, header, name)
            try:
                await player.wait_for("New table", timeout=30)
                connected = [x for x in served.log.splitlines() if "player connected" in x]
                assert any(f"peer={address}" in x for x in connected), served.log[-3000:]
                assert not any("peer=127.0.0.1" in x for x in connected)  # never the balancer's
            finally:
                player.close()
                await proxy.close()
        # a malformed header, and SSH without a header: closed without a banner, SSH never sees them
        for opening in (b"PROXY TCP4 999.0.0.1 10.0.0.2 1 2\r\n", b"SSH-2.0-OpenSSH_9.6\r\n"):
            reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
            writer.write(opening)
            assert await closed_by_server(reader, 5), opening
            writer.close()
        assert sum("player connected" in x for x in served.log.splitlines()) == 2
    finally:
        await served.stop()


@pytest.mark.slow  # end to end: a 'citadels serve' process
async def test_a_header_from_outside_the_allowed_balancers_is_refused(tmp_path: Path) -> None:
    server = await ServeProcess(tmp_path, {"proxy_protocol": True, "proxy_allowed": ["10.0.0.10/32"]}).start()
    try:
        with pytest.raises((asyncssh.Error, ConnectionError, OSError, TimeoutError)):
            await _player_through(server.port, v2(), "cy")
        assert "player connected" not in server.log
    finally:
        await server.stop()


async def _through_balancer(port: int, player: tuple[str, int]) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(v1(player))
    await writer.drain()
    return reader, writer


@pytest.mark.slow  # end to end: a 'citadels serve' process
async def test_admission_applies_to_the_address_the_header_names(tmp_path: Path) -> None:
    """Behind a balancer every connection comes from its address: the per-source limits and
    penalties count the player's, as if they had connected directly."""
    served = await ServeProcess(
        tmp_path, {"proxy_protocol": True, "proxy_allowed": ["127.0.0.1/32"], "max_startups_per_source": 2}
    ).start()
    opened = []
    try:
        for _ in range(2):  # two silent logins from one player address: both get the SSH banner
            reader, writer = await _through_balancer(served.port, ("203.0.113.9", 5000))
            opened.append(writer)
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        # a third from that address is refused before SSH, with the reason
        reader, writer = await _through_balancer(served.port, ("203.0.113.9", 5001))
        opened.append(writer)
        line = await asyncio.wait_for(reader.readline(), 10)
        assert b"Too many connections logging in from your address" in line, line
        # another player's address behind the same balancer is not concerned
        reader, writer = await _through_balancer(served.port, ("198.51.100.4", 6000))
        opened.append(writer)
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        player, proxy = await _player_through(served.port, v1(("198.51.100.5", 6001)), "dee")
        try:
            await player.wait_for("New table", timeout=30)
        finally:
            player.close()
            await proxy.close()
    finally:
        for writer in opened:
            writer.close()
        await served.stop()
