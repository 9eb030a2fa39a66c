"""Host key lifecycle and the configuration file."""

from __future__ import annotations

import os
import stat

import asyncssh
import pytest

from server.config import ConfigError, ServerConfig, config_from_mapping, load_config
from server.transport.hostkey import HOST_KEY_FILENAME, load_or_create_host_key


def test_host_key_generated_once_with_mode_0600(tmp_path):
    keys = tmp_path / "keys"
    key, fingerprint = load_or_create_host_key(keys)
    path = keys / HOST_KEY_FILENAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key.get_algorithm() == "ssh-ed25519"
    assert fingerprint.startswith("SHA256:")
    before = path.read_bytes()
    again, again_fingerprint = load_or_create_host_key(keys)
    assert again_fingerprint == fingerprint
    assert path.read_bytes() == before
    assert (keys / (HOST_KEY_FILENAME + ".pub")).exists()


def test_loose_host_key_mode_is_tightened(tmp_path):
    keys = tmp_path / "keys"
    load_or_create_host_key(keys)
    path = keys / HOST_KEY_FILENAME
    os.chmod(path, 0o644)
    load_or_create_host_key(keys)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_server_reuses_its_host_key_across_restarts(start, tmp_path):
    first = await start()
    fingerprint = first.host_key_fingerprint
    await first.close()
    second = await start()
    assert second.host_key_fingerprint == fingerprint
    # A client that trusts the key seen the first time connects without complaint.
    host_key = asyncssh.read_private_key(tmp_path / "keys" / HOST_KEY_FILENAME)
    known_hosts = asyncssh.import_known_hosts(f"[127.0.0.1]:{second.port} {host_key.export_public_key().decode()}")
    conn = await asyncssh.connect(
        "127.0.0.1",
        second.port,
        username="alice",
        known_hosts=known_hosts,
        client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        agent_path=None,
        config=None,
    )
    assert conn.get_server_host_key().get_fingerprint("sha256") == fingerprint
    conn.close()
    await conn.wait_closed()


def test_config_defaults():
    config = ServerConfig()
    assert (config.host, config.port, config.keys_dir, config.saves_dir) == ("127.0.0.1", 2222, "keys", "saves")
    assert config.allow_guests is True and config.json_logs is False
    assert config.idle_wait_seconds == 60
    assert config.login_timeout_seconds == 10  # the login grace (issue 18: about 10 s)
    assert (config.ssh_keepalive_seconds(), config.keepalive_count_max) == (300, 3)  # the kernel probes first
    assert (config.tcp_keepalive_idle_seconds, config.tcp_keepalive_interval_seconds, config.tcp_keepalive_count) == (
        30,
        10,
        3,
    )
    assert (config.max_sessions_per_address, config.max_sessions) == (5, 500)
    assert 2 <= config.max_concurrent_app_starts <= 4


def test_config_from_toml(tmp_path):
    path = tmp_path / "server.toml"
    path.write_text('port = 2022\nhost = "0.0.0.0"\nallow_guests = false\nmax_sessions = 50\n')
    config = load_config(path)
    assert (config.port, config.host, config.allow_guests, config.max_sessions) == (2022, "0.0.0.0", False, 50)


def test_unknown_config_key_is_refused_by_name(tmp_path):
    path = tmp_path / "server.toml"
    path.write_text("port = 2022\nmax_sesions = 3\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert "'max_sesions'" in message and "unknown key" in message and "\n" not in message


def test_invalid_config_values_are_refused(tmp_path):
    with pytest.raises(ConfigError) as error:
        config_from_mapping({"port": 70000})
    assert "port" in str(error.value)
    path = tmp_path / "broken.toml"
    path.write_text("port = \n")
    with pytest.raises(ConfigError):
        load_config(path)
    with pytest.raises(ConfigError):
        load_config(tmp_path / "missing.toml")
