"""`citadels serve --workers N`: N cluster nodes on one host behind one port (issue 23).

    run_workers(config, n, load=[...], cluster_table={...})   # blocking; returns an exit status

The parent process serves nobody itself. It claims the saves folder and checks what would stop a
single server from starting, with the same one line (the host key, made once: the workers would
race for it; the port; the bans file; the players database's schema), in a child process that
exits: the parent imports no engine, SSH or database and stays small (~36 MiB against ~89 for a
worker). Then it starts an embedded
nats-server from the wheel (server/cluster/natsd.py: loopback, a free port, its JetStream store in
`<saves>/nats`, stopped by the kernel if the parent dies), and N workers: each is `citadels serve
--cluster` (server/cluster/serve_node.py) with the parent's settings, its own saves folder
`<saves>/w<K>` and node id `w<K>`, and all of them listening on the same port with SO_REUSEPORT (the
kernel spreads new connections over them). Tables are placed by the cluster's leases, so a player
reaches their table from whichever worker accepted them; one players database is shared (by default
the SQLite file in the parent's saves folder).

What a player or the host sees is the same on every worker: the workers' `shared_dir` is the parent's
saves folder, where they all keep the players' exports (`exports/`), the bans (`bans.json`) and the
finished and closed games (`finished/`, `closed/`), where a single server keeps them too; the
parent's `admin.sock` answers `citadels admin` for all of them (server/cluster/workers_admin.py);
the workers' logs go to the parent's stderr (each line marked with its worker) as well as to
`<saves>/w<K>/worker.log`.

A worker that dies is a node that dies: its tables fail over to the others, and the parent starts
it again after a second (so a SIGTERM to one worker's pid restarts it: it drains, its tables move to
the others, then it is started again). SIGINT/SIGTERM to the parent (a terminal's Ctrl+C reaches
the parent alone: the workers and the nats-server have process groups of their own): every worker
stops at once, as a single server does (its players told; its tables let go), then the nats-server
stops; the games in progress stay in its store and are taken up again by the next start's workers.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import IO, Any

import msgspec

from server.admin.socket_server import socket_path
from server.cluster.natsd import NatsServer, NatsServerError
from server.cluster.workers_admin import WorkersAdmin
from server.config import ServerConfig
from server.logging_setup import configure_logging
from server.storage.folder_sweep import report_sweep

# The parent stays small: what it checks at start with the server's own code (the host key and the
# port through asyncssh, the bans, the players database through SQLAlchemy) is checked in a child
# process that exits (see `_check_in_child`); the parent itself imports no engine, no SSH, no database.

RESTART_DELAY = 1.0
STOP_WAIT = 10.0  # how long the workers have to stop before they are killed
POLL = 0.2


class Checked(msgspec.Struct):
    """What the start checks found (`_check_in_child`): the host key's fingerprint, the port, how
    to name the host in the ssh command; or the one line that stops the start."""

    fingerprint: str = ""
    port: int = 0
    host: str = ""
    error: str = ""
    single_games: list[str] = msgspec.field(default_factory=list)  # unfinished saves of a single process


def _prepare_players_database(url: str) -> None:
    """Create the shared schema once, before any worker starts: workers creating it at once raced
    (one saw a half-made schema and stopped). A schema behind the program stops the start with a
    single server's line (SchemaError); a bad URL too (DatabaseURLError); a database that cannot be
    reached is left to the workers, which start anyway, as a single server does."""
    from server.players.migrate import SchemaError
    from server.players.service import prepare_schema  # only a host with accounts needs SQLAlchemy here
    from server.players.url import make_engine

    engine = make_engine(url)
    try:
        prepare_schema(engine)
    except SchemaError:
        raise
    except Exception:  # unreachable, locked: the workers say so in their logs, and serve
        pass
    finally:
        engine.dispose()


async def _check_start(config: ServerConfig) -> tuple[str, int]:
    """The host key (read, or made once) and the address, checked as a single server checks them (one
    line, StartError); then the port is let go for the workers. (fingerprint, port)"""
    from server.transport.listening import prepare_start

    prepared = await prepare_start(config)
    port = config.port
    if prepared.listener is not None:
        port = int(prepared.listener.sockets[0].getsockname()[1])  # port 0: the one the system chose
        prepared.close()
        await prepared.listener.wait_closed()
    elif port == 0:
        port = _free_port(config.host)
    return prepared.fingerprint, port


def _check(config: ServerConfig, saves: Path, database: str) -> Checked:
    """What would stop a single server from starting, with its line: the bans file (the workers share
    it), the host key and the port, the players database's schema (made here once)."""
    import asyncio

    from server.admin.bans import BanError, Bans
    from server.players.migrate import SchemaError
    from server.players.url import DatabaseURLError
    from server.storage.persistence import PersistenceError, SaveStore
    from server.transport.client_env import display_host
    from server.transport.listening import StartError

    try:
        Bans(saves / "bans.json")
        single = SaveStore(saves).unfinished()  # the games in progress a single process left in the folder
        fingerprint, port = asyncio.run(_check_start(config))
        if config.accounts:
            _prepare_players_database(database)
    except (BanError, PersistenceError, StartError, DatabaseURLError, SchemaError) as e:
        return Checked(error=str(e))
    return Checked(fingerprint=fingerprint, port=port, host=display_host(config.host), single_games=single)


def _check_in_child(config: ServerConfig, saves: Path, database: str) -> Checked:
    """`_check` in a child process (forked), so that the modules it needs are never the parent's: the
    parent lives as long as the server, and would hold them for nothing (~45 MiB)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            os.close(read)
            result = _check(config, saves, database)
        except BaseException as e:
            traceback.print_exc()
            result, status = Checked(error=f"the start checks failed: {type(e).__name__}: {e}"), 1
        try:
            with os.fdopen(write, "wb") as out:
                out.write(msgspec.json.encode(result))
            sys.stderr.flush()
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    try:
        return msgspec.json.decode(data, type=Checked)
    except msgspec.DecodeError:
        return Checked(error="the start checks stopped without an answer")


def run_workers(
    config: ServerConfig, workers: int, load: list[str] | None = None, cluster_table: dict[str, Any] | None = None
) -> int:
    configure_logging(json_lines=config.json_logs, level=config.log_level, ssh=False)
    saves = Path(config.saves_dir).resolve()
    lock = _lock(saves)  # one parent per saves folder (each worker locks its own subfolder)
    if isinstance(lock, str):
        print(f"citadels serve: {lock}", file=sys.stderr)
        return 1
    report_sweep(saves, workers)
    # One Go thread: the workers' traffic is a JetStream write a move, and each message woke Go's
    # scheduler threads on every core (~15 % less nats-server CPU for the same messages,
    # docs/performance.md)
    nats = NatsServer(saves / "nats", die_with_parent=True, own_process_group=True, go_procs=1)
    admin: WorkersAdmin | None = None
    pool: WorkerPool | None = None
    try:
        pool = WorkerPool(config, workers, saves, config.port, "", load or [], cluster_table or {})
        checked = _check_in_child(config, saves, pool.database)
        if checked.error:
            print(f"citadels serve: {checked.error}", file=sys.stderr)
            return 1
        pool.port = port = checked.port
        if checked.single_games:
            # A single process's games in progress are files in the saves folder; the workers' are in the
            # cluster's log (saves/nats): neither resumes the other's.
            n, first = len(checked.single_games), checked.single_games[0]
            print(
                f"warning: {n} unfinished game(s) in {config.saves_dir} were left by `citadels serve --workers 1` "
                f"and are not resumed by workers: serve them with --workers 1 until they end, or bring one into "
                f"the workers as a new table with --load {Path(config.saves_dir) / first}.save",
                file=sys.stderr,
                flush=True,
            )
        nats.start()
        pool.nats_url = nats.url
        pool.start_all()
        if not pool.wait_ready():
            pool.stop()
            print(f"citadels serve: the workers did not start (see {saves}/w*/worker.log)", file=sys.stderr)
            return 1
        if config.admin_socket:
            admin = WorkersAdmin(socket_path(saves), pool.admin_sockets)
            try:
                admin.start()
            except OSError as e:
                admin = None
                print(f"warning: no admin socket (citadels admin will not work): {e}", file=sys.stderr, flush=True)
        print(f"Host key fingerprint: {checked.fingerprint}", flush=True)
        port_part = "" if port == 22 else f"-p {port} "
        print(f"Connect with: ssh {port_part}{checked.host}", flush=True)
        if admin is not None:
            print(f"Host tools: citadels admin --saves-dir {config.saves_dir} --help", flush=True)
        print(f"Workers: {workers} on one port (pids {' '.join(str(p) for p in pool.pids())})", flush=True)
        pool.run_until_signal()
        return 0
    except NatsServerError as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 1
    finally:
        if admin is not None:
            admin.close()
        if pool is not None:
            pool.stop()  # stopped already, unless the start itself was interrupted (Ctrl+C)
        with contextlib.suppress(Exception):
            nats.stop()
        os.close(lock)


def _lock(saves: Path) -> int | str:
    """The saves folder claimed as a single server claims it (server/storage/persistence.py's
    SaveStore.lock: an exclusive flock on `.lock`, so neither a second parent nor a single server
    runs on it); the lock's file descriptor, or why not (one line)."""
    import fcntl

    try:
        saves.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(saves / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as e:
        return f"cannot use the saves folder {saves}: {e.strerror or e}"
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return f"the saves folder {saves} is in use by another citadels server"
    return fd


class WorkerPool:
    """The workers' processes: started, watched, restarted, stopped."""

    def __init__(
        self,
        config: ServerConfig,
        count: int,
        saves: Path,
        port: int,
        nats_url: str,
        load: list[str],
        cluster_table: dict[str, Any],
    ) -> None:
        self.config = config
        self.count = count
        self.saves = saves
        self.port = port
        self.nats_url = nats_url
        self.load = load
        self.cluster_table = cluster_table
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.ready: set[int] = set()
        self.stopping = 0  # signals received

    @property
    def database(self) -> str:
        # one players database for every worker: the parent's (by default its saves folder's file)
        return self.config.database or f"sqlite:///{self.saves / 'players.sqlite3'}"

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs.values()]

    def admin_sockets(self) -> list[tuple[str, Path]]:
        """Each worker's own admin socket (server/cluster/node_admin.py), which the parent's asks."""
        return [(f"w{k}", socket_path(self.saves / f"w{k}")) for k in range(1, self.count + 1)]

    def start_all(self) -> None:
        for k in range(1, self.count + 1):
            self._start(k)

    def _start(self, k: int) -> None:
        folder = self.saves / f"w{k}"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        settings = msgspec.to_builtins(self.config)
        settings.update(
            port=self.port,
            saves_dir=str(folder),
            reuse_port=True,
            keys_dir=str(Path(self.config.keys_dir).resolve()),
            database=self.database,
        )
        cluster = worker_cluster_table(k, self.cluster_table, self.saves)
        path = folder / "worker.toml"
        path.write_text(_toml_file(settings, cluster))
        args = [sys.executable, "-m", "cli.main", "serve", "--config", str(path), "--cluster", self.nats_url]
        if k == 1:
            for item in self.load:
                args += ["--load", str(Path(item).resolve())]
        out = folder / "worker.out"  # its "Connect with" line says it listens
        with open(out, "wb") as stdout:
            proc = self.procs[k] = subprocess.Popen(
                args,
                stdout=stdout,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                preexec_fn=_die_with_parent,
                process_group=0,  # a Ctrl+C in the terminal reaches the parent alone, which drains the workers
                cwd=str(Path(__file__).resolve().parents[2]),
            )
        assert proc.stderr is not None
        log = open(folder / "worker.log", "ab")  # noqa: SIM115  # closed by its copier at the worker's end
        threading.Thread(target=_copy_log, args=(proc.stderr, log, f"w{k}", self.config.json_logs), daemon=True).start()
        self.ready.discard(k)

    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Until every worker printed its "Connect with" line (it listens); False if one stopped."""
        deadline = time.monotonic() + timeout
        while len(self.ready) < self.count and time.monotonic() < deadline:
            for k, proc in self.procs.items():
                if proc.poll() is not None:
                    return False
                if b"Connect with" in (self.saves / f"w{k}" / "worker.out").read_bytes():
                    self.ready.add(k)
            time.sleep(POLL)
        return len(self.ready) == self.count

    def run_until_signal(self) -> None:
        """Watch the workers (one that stops is started again) until SIGINT or SIGTERM; then stop them
        all at once, as a single server stops (its players told, its tables left in the log for the next
        start): a drain would wait for sessions that every worker is about to close anyway."""

        def on_signal(signum: int, frame: Any) -> None:
            self.stopping += 1

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            while not self.stopping:
                for k, proc in list(self.procs.items()):
                    if proc.poll() is not None and not self.stopping:
                        print(f"worker w{k} stopped (status {proc.returncode}): starting it again", file=sys.stderr)
                        time.sleep(RESTART_DELAY)
                        if not self.stopping:
                            self._start(k)
                time.sleep(POLL)
            print("Stopping...", file=sys.stderr, flush=True)
            self.stop()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
            self.stop()

    def _wait_all(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(p.poll() is None for p in self.procs.values()):
            time.sleep(POLL)

    def stop(self) -> None:
        """Every worker stopped: told twice (the second SIGTERM: stop without waiting for sessions to
        leave), given STOP_WAIT seconds, then killed."""
        if all(p.poll() is not None for p in self.procs.values()):
            return
        for _ in range(2):
            for proc in self.procs.values():
                if proc.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        proc.send_signal(signal.SIGTERM)
            time.sleep(0.1)
        self._wait_all(STOP_WAIT)
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


_stderr_lock = threading.Lock()


# Workers share one machine: a node's heartbeat (which holds all its tables: server/cluster/leases.py)
# is written less often and lasts longer than between machines (1 s and 4 s by default). Under load
# (2 workers and nats-server on 2 busy cores) writes took over 2.5 s while every loop was at most
# 0.78 s late (docs/performance.md); a dead worker is seen by its parent at once and restarted, and
# the new one replaces its dead predecessor's record (host_local_ids), which frees its tables then,
# not 12 s later. A host's [cluster] table still decides.
WORKER_TIMINGS = {
    "heartbeat_seconds": 2.0,
    "node_ttl_seconds": 12.0,
    "lease_margin_seconds": 1.0,
    # a crashed worker started again replaces its dead predecessor's record at once (server/cluster/nodes.py)
    "host_local_ids": True,
}


def worker_cluster_table(k: int, host_table: dict[str, Any], saves: Path) -> dict[str, Any]:
    """The [cluster] table of worker `k`: the workers' timings, then the host's settings, then its name."""
    return {"namespace": "citadels", **WORKER_TIMINGS, **host_table, "node_id": f"w{k}", "shared_dir": str(saves)}


def _copy_log(pipe: IO[bytes], log: IO[bytes], worker: str, json_lines: bool) -> None:
    """A worker's stderr, line by line, to its `worker.log` and to the parent's stderr, marked with the
    worker ("w1 " before a text line; a "worker" field first in a JSON line)."""
    try:
        for line in pipe:
            log.write(line)
            log.flush()
            text = line.decode("utf-8", "replace")
            if json_lines and text.startswith("{"):
                text = '{"worker": ' + json.dumps(worker) + (", " if text[1:].strip() != "}" else "") + text[1:]
            else:
                text = f"{worker} {text}"
            with _stderr_lock, contextlib.suppress(OSError, ValueError):
                sys.stderr.write(text)
                sys.stderr.flush()
    finally:
        log.close()
        pipe.close()


def _free_port(host: str) -> int:
    """A free port for all the workers to share (port 0 in the config)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def _toml_file(settings: dict[str, Any], cluster: dict[str, Any]) -> str:
    lines = [f"{k} = {_toml(v)}" for k, v in settings.items() if v is not None]
    lines += ["", "[cluster]"] + [f"{k} = {_toml(v)}" for k, v in cluster.items() if v is not None]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)
