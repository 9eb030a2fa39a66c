"""The host's bans enforced at SSH authentication (issue 18, attack 8), through real asyncssh
clients: a banned key is refused as it is offered, a banned address (guests included) before it
authenticates; the client reads the ban's line, no session or app is ever made, the refusals are
counted under "banned"; a ban lifted lets the same key in."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from server.admin.bans import BANNED_MESSAGE, Bans
from server.transport.input_pipeline import PEOPLE


async def refused(connect, server, **options) -> asyncssh.DisconnectError:
    with pytest.raises(asyncssh.DisconnectError) as caught:
        await connect(server, **options)
    return caught.value


async def test_a_banned_key_is_refused_at_authentication_with_its_line(start, connect, open_terminal, infos):
    bans = Bans(None)
    banned_key = asyncssh.generate_private_key("ssh-ed25519")
    bans.add("key", banned_key.get_fingerprint("sha256"), "testing")
    server = await start(login_check=bans.banned)

    error = await refused(connect, server, key=banned_key, username="mallory")
    assert error.reason.startswith(BANNED_MESSAGE)
    assert server.refusals["banned"] == 1
    assert server.admission_stats()["sessions"] == 0  # never counted as a session
    assert infos == []  # and no app was made for it

    # Another key from the same address is not affected.
    term = await open_terminal(server, username="alice")
    await term.wait_for("user: alice")
    assert [i.username for i in infos] == ["alice"]

    # Lifted: the same key gets in.
    bans.remove("key", banned_key.get_fingerprint("sha256"))
    term2 = await open_terminal(server, key=banned_key, username="mallory")
    await term2.wait_for("user: mallory")
    assert server.refusals["banned"] == 1
    assert PEOPLE.apps_starting == 0  # every app start counted was uncounted at its first frame


async def test_a_banned_address_is_refused_before_login_keys_and_guests(start, connect, open_terminal, infos):
    bans = Bans(None)
    bans.add("address", "127.0.0.7")
    bans.add("address", "127.0.1.0/24")
    server = await start(login_check=bans.banned, allow_guests=True)

    for addr in ("127.0.0.7", "127.0.1.5"):
        error = await refused(connect, server, local_addr=(addr, 0))
        assert error.reason.startswith(BANNED_MESSAGE)
    error = await refused(connect, server, guest=True, local_addr=("127.0.0.7", 0))
    assert error.reason.startswith(BANNED_MESSAGE)
    assert server.refusals["banned"] == 3
    assert infos == []

    term = await open_terminal(server, local_addr=("127.0.0.8", 0))
    await term.wait_for("user: alice")
    await asyncio.sleep(0)
    assert server.admission_stats()["refused"]["banned"] == 3
