"""The ciphers the server offers: AES (GCM, or CTR with HMAC-SHA-2), not chacha20-poly1305, which
costs the server 4-5 times the CPU per packet (server/config.py, `ssh_ciphers`). Real clients: an
asyncssh client with its defaults (chacha20 first), one that only speaks chacha20, and OpenSSH's
`ssh` with its own defaults."""

from __future__ import annotations

import asyncio
import shutil
import subprocess

import asyncssh
import pytest

from server.config import ConfigError, config_from_mapping


async def test_a_client_preferring_chacha20_gets_aes_gcm(start, connect) -> None:
    server = await start()
    conn = await connect(server)
    assert conn.get_extra_info("send_cipher") in ("aes256-gcm@openssh.com", "aes128-gcm@openssh.com")
    assert conn.get_extra_info("recv_cipher") == conn.get_extra_info("send_cipher")


async def test_a_client_with_only_chacha20_is_refused_unless_the_host_offers_it(start, connect) -> None:
    server = await start()
    with pytest.raises((asyncssh.KeyExchangeFailed, asyncssh.DisconnectError)):
        await connect(server, encryption_algs=["chacha20-poly1305@openssh.com"])
    offering = await start(ssh_ciphers=["chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com"])
    conn = await connect(offering, encryption_algs=["chacha20-poly1305@openssh.com"])
    assert conn.get_extra_info("send_cipher") == "chacha20-poly1305@openssh.com"


async def test_a_client_with_only_umac_gets_no_connection_but_a_clear_refusal(start, connect) -> None:
    server = await start()
    with pytest.raises((asyncssh.KeyExchangeFailed, asyncssh.DisconnectError)) as refused:
        await connect(server, encryption_algs=["aes128-ctr"], mac_algs=["umac-64-etm@openssh.com"])
    assert "mac" in str(refused.value).lower()


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs OpenSSH's ssh")
async def test_openssh_with_its_defaults_agrees_on_aes_and_hmac_sha2(start, tmp_path) -> None:
    server = await start()
    # -v prints the algorithms agreed ("kex: server->client cipher: ... MAC: ..."); no login needed
    proc = await asyncio.create_subprocess_exec(
        "ssh",
        "-F",
        "/dev/null",
        "-v",
        "-p",
        str(server.port),
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        f"UserKnownHostsFile={tmp_path / 'known'}",
        "-o",
        "PreferredAuthentications=none",
        "nobody@127.0.0.1",
        "true",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), 20)
    agreed = [line for line in err.decode().splitlines() if "server->client cipher" in line]
    assert agreed, err.decode()[-2000:]
    assert "cipher: aes" in agreed[0] and "chacha" not in agreed[0]
    assert "hmac-sha2-256" in agreed[0] or "implicit" in agreed[0]


def test_an_unknown_or_empty_algorithm_list_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError, match="ssh_ciphers: 'rot13' is not one asyncssh offers"):
        config_from_mapping({"ssh_ciphers": ["rot13"]})
    with pytest.raises(ConfigError, match="ssh_macs: empty"):
        config_from_mapping({"ssh_macs": []})
