"""A real PostgreSQL server for the storage suite: Debian's postgresql package, a throwaway cluster
in a temporary folder, started once per test session (per xdist worker).

PostgreSQL refuses to run as root, so as root (CI) the cluster belongs to the `postgres`
user the package creates and its programs run as that user; otherwise they run as us.
Ports come from 23600-23699 (this suite's range), a different slice per xdist worker.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PORTS = range(23600, 23700)
USER = "citadels"


def find_bindir() -> Path | None:
    """The folder holding initdb and pg_ctl: Debian's /usr/lib/postgresql/<version>/bin, else PATH."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name), reverse=True
    )
    if versions:
        return versions[0].parent
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found else None


def _free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class PostgresServer:
    def __init__(self, bindir: Path, worker: int = 0) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="t20-db-pg-"))
        self.data = self.root / "data"
        self._as: dict = {}
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            self._as = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        self.slice = [p for p in PORTS if p % 4 == worker % 4]
        self.port = 0
        self._databases = 0

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            check=check,
            cwd=self.root,
            timeout=120,
            **self._as,
        )

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", USER, "--no-sync", "-E", "UTF8")
        for port in self.slice:
            if not _free(port):
                continue
            self.port = port
            if self.start(check=False):
                return
        raise RuntimeError(f"no port of {self.slice[0]}-{self.slice[-1]} could be used: {self.log_tail()}")

    def start(self, check: bool = True) -> bool:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60"
        done = self._run(
            "pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "start", check=False
        )
        if done.returncode != 0 and check:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr.strip()} {self.log_tail()}")
        return done.returncode == 0

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return (self.root / "log").read_text()[-500:]
        return ""

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def _admin(self):
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True)

    def new_database(self) -> str:
        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        with contextlib.suppress(Exception), self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
