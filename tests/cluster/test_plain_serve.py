"""Plain `citadels serve` (no --cluster, --workers 1) is the single process it always was: serving a
player never imports NATS (nats-py need not be installed). The default of --workers is a worker per
usable core, 1 on one core, decided without importing nats-py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .harness import REPO

SCRIPT = """
import asyncio, sys
import cli.serve_cmd
from server.config import ServerConfig
from server.serve import serve

async def main(folder):
    stop = asyncio.Event()
    config = ServerConfig(
        port=0, keys_dir=folder + "/keys", saves_dir=folder + "/saves", admin_socket=False, accounts=False,
        gc_tuning=False,
    )
    await serve(config, [], ready=lambda server, lobby: stop.set(), stop=stop)

asyncio.run(main(sys.argv[1]))
loaded = sorted(m for m in sys.modules if m == "nats" or m.startswith(("nats.", "server.cluster")))
print("LOADED", loaded)
"""


def test_plain_serve_never_imports_nats(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=str(REPO), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "LOADED []" in done.stdout, done.stdout


DEFAULT = """
import os, sys
if sys.argv[1] == "one":
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
from cli.serve_cmd import default_workers, usable_cores
print("CORES", usable_cores(), "WORKERS", default_workers())
print("NATS", sorted(m for m in sys.modules if m == "nats" or m.startswith("nats.")))
"""


def test_the_default_is_a_worker_per_usable_core_and_one_core_is_one_process() -> None:
    import os

    def run(which: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", DEFAULT, which], cwd=str(REPO), capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    cores = len(os.sched_getaffinity(0))
    assert "CORES 1 WORKERS 1" in run("one")  # one core: the plain single process
    out = run("all")
    assert f"CORES {cores} WORKERS {cores}" in out  # the cluster extra is installed for these tests
    assert "NATS []" in out  # deciding never imports nats-py


def test_games_in_progress_of_a_single_process_keep_the_default_at_one_process(tmp_path: Path) -> None:
    """A host upgrading from one process loses no game: while its saves folder holds games in progress
    of a single process (which workers would not resume), the default is one process, said on stderr."""
    import os

    from cli.serve_cmd import default_workers, single_process_games

    cores = len(os.sched_getaffinity(0))
    saves = tmp_path / "saves"
    (saves / "finished").mkdir(parents=True)
    (saves / "t1.save").write_bytes(b"x")  # in progress
    (saves / "t2.save").write_bytes(b"x")  # finished (its finish interrupted: the copy in finished/)
    (saves / "finished" / "t2.save").write_bytes(b"x")
    (saves / ".t3.save.tmp").write_bytes(b"x")  # a write never finished: not a game
    (saves / "notes.txt").write_bytes(b"x")
    assert single_process_games(str(saves)) == 1
    if cores > 1:
        assert default_workers(str(saves)) == 1
        (saves / "t1.save").rename(saves / "finished" / "t1.save")
        assert default_workers(str(saves)) == cores
    assert single_process_games(str(tmp_path / "absent")) == 0


def test_workers_lease_and_heartbeat_timings_are_for_one_machine_and_the_host_decides(tmp_path: Path) -> None:
    from server.cluster.config import cluster_config
    from server.cluster.workers import WORKER_TIMINGS, worker_cluster_table

    table = worker_cluster_table(2, {}, tmp_path)
    node = cluster_config("nats://127.0.0.1:4222", **table)  # checked as a worker checks its own
    assert node.node_id == "w2" and node.shared_dir == str(tmp_path)
    assert node.node_ttl_seconds == WORKER_TIMINGS["node_ttl_seconds"] > 4.0  # longer than between machines
    assert node.heartbeat_seconds == WORKER_TIMINGS["heartbeat_seconds"] > 1.0
    host = worker_cluster_table(1, {"node_ttl_seconds": 6.0, "heartbeat_seconds": 1.0}, tmp_path)
    mine = cluster_config("nats://127.0.0.1:4222", **host)
    assert (mine.node_ttl_seconds, mine.heartbeat_seconds, mine.node_id) == (6.0, 1.0, "w1")
