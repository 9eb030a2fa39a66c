"""`server_scale.py --workers N`: the server is `citadels serve --workers N`, the real command.

The benchmark starts `python -m cli.main serve --workers N --config <its TOML>` (the parent:
the embedded nats-server from the wheel, N workers on one port with SO_REUSEPORT, tables placed by
the cluster's leases: server/cluster/workers.py) with benchmarks/server_scale_site first on the
PYTHONPATH: its sitecustomize loads the harness's hooks into each worker, and only there
(server_scale_worker.py: the watched tables' moves reported, GC pauses timed, a control socket per
worker). Nothing of the parent or the workers is replaced; the players connect to the one port and the
kernel spreads them over the workers, as in production. A table is created by its first player's
worker (which owns it: the cluster's placement of a new table); players on another worker join it
through the cluster and are served from their own worker, as in production.

Figures are the whole process tree's (the parent, the workers, the nats-server): CPU seconds and RSS
summed over it, the workers' counters (moves' report time, GC, frames dropped) summed or merged
(the longest pause of all; the pauses over 10 ms of each, marked with their worker), and a breakdown
per process (`tree`).

Cores: with more CPUs than workers, worker K is pinned to CPU K-1 (the parent and the nats-server
with them, on CPUs 0..N-1) and the clients to the others; with N or fewer CPUs (2 workers on 2 cores)
nothing is pinned: the server's processes and the clients share every CPU, and the clients' CPU is
in each level's figures (`client_cpu_percent`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from server_scale_clients import cpu_seconds, descendants, rss_mb, wait_or_kill
from server_scale_link import server_spec

SITE = Path(__file__).resolve().with_name("server_scale_site")  # its sitecustomize loads the hooks in workers


def workers_config(spec: dict) -> dict:
    """The ServerConfig fields of the single-process harness (server_scale_server.py's main), as TOML."""
    return {
        "host": "127.0.0.1",
        "port": 0,
        "keys_dir": spec["keys"],
        "saves_dir": spec["saves"],
        "max_sessions_per_address": 100000,
        "max_sessions": 100000,
        "max_tables": 10000,
        "max_tables_per_address": 100000,  # every simulated player connects from 127.0.0.1
        "log_level": "WARNING",
        "bot_kind": spec["bots"],
        "gc_collect_interval_seconds": spec["gc_interval"],
        "gc_quiet_seconds": 1.0,
        "admission_exempt": ["127.0.0.0/8"],  # 10 logins at once from one address
        **spec["overrides"],
    }


def toml(settings: dict) -> str:
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())  # JSON scalars and lists are TOML


class WorkersLink:
    """`citadels serve --workers N` and a control connection to each of its workers."""

    def __init__(self, args, repo: Path, tmp: Path, on_pub: Callable[[dict], None]) -> None:
        self.args, self.repo, self.tmp, self.on_pub = args, repo, tmp, on_pub
        self.n = args.workers
        self.proc: asyncio.subprocess.Process | None = None
        self.conns: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter]] = {}
        self.pending: dict[int, asyncio.Future] = {}
        self.rids = itertools.count(1)
        self.owner: dict[str, str] = {}  # table id -> the worker that owns it
        self.pumps: list[asyncio.Task] = []
        self.port = 0
        self.pinning = ""

    async def start(self, bots: str) -> None:
        if bots != "normal":
            raise SystemExit("--workers: the hard-bot run is single-process only")
        spec = server_spec(self.args, self.tmp, bots)
        control = self.tmp / "ctl"
        control.mkdir(parents=True)
        config = self.tmp / "server.toml"
        cluster = json.loads(self.args.cluster_config)  # the [cluster] table (lease timings...): experiments
        config.write_text(toml(workers_config(spec)) + (f"\n[cluster]\n{toml(cluster)}" if cluster else ""))
        cpus = os.cpu_count() or 1
        everything = set(range(cpus))
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, everything)  # a --baseline run before this one pinned the clients
        env = {**os.environ, "CITADELS_BENCH_CONTROL": str(control)}
        env["PYTHONPATH"] = os.pathsep.join([str(SITE), str(self.repo), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        self.errors = open(self.tmp / "parent.err", "wb")  # the parent's and workers' logs
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "cli.main", "serve", "--workers", str(self.n), "--config", str(config)),
            cwd=self.repo,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.errors,
            preexec_fn=_die_with_us,
        )
        try:
            await asyncio.wait_for(self._started(), 120)
        except (TimeoutError, EOFError) as e:
            await self.stop()
            raise RuntimeError(f"citadels serve --workers did not start: {self.log_tail()}") from e
        for k in range(1, self.n + 1):
            name = f"w{k}"
            path = control / f"{name}.sock"
            for _ in range(600):
                if path.exists():
                    break
                await asyncio.sleep(0.1)
            self.conns[name] = await asyncio.open_unix_connection(str(path), limit=1 << 22)
            self.pumps.append(asyncio.create_task(self._pump(name)))
        if cpus > self.n and hasattr(os, "sched_setaffinity"):
            for pid, role in self.tree().items():
                k = int(role[1:]) if role.startswith("w") and role[1:].isdigit() else 1
                os.sched_setaffinity(pid, {k - 1} if role.startswith("w") else set(range(self.n)))
            os.sched_setaffinity(0, set(range(self.n, cpus)))
            self.pinning = f"worker K on CPU K-1, parent and nats-server on CPUs 0-{self.n - 1}, clients on the others"
        else:
            self.pinning = (
                f"none: {cpus} CPUs for {self.n} workers, the parent, the nats-server and the clients "
                "(all share every CPU; the clients' CPU is client_cpu_percent)"
            )

    async def _started(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                raise EOFError
            found = re.search(rb"Connect with: ssh (?:-p (\d+) )?", line)
            if found:
                self.port = int(found.group(1) or 22)
            if line.startswith(b"Workers:"):
                return

    def log_tail(self) -> str:
        path = self.tmp / "parent.err"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    async def _pump(self, name: str) -> None:
        reader = self.conns[name][0]
        while line := await reader.readline():
            msg = json.loads(line)
            if msg["ev"] == "pub":
                self.owner.setdefault(msg["t"], name)
                self.on_pub(msg)
                continue
            fut = self.pending.pop(msg.get("rid"), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)

    async def ask(self, worker: str, **req) -> dict:
        rid = next(self.rids)
        fut = self.pending[rid] = asyncio.get_running_loop().create_future()
        self.conns[worker][1].write((json.dumps({**req, "rid": rid}) + "\n").encode())
        msg = await asyncio.wait_for(fut, 120)
        if msg["ev"] == "error":
            raise RuntimeError(f"server {worker}: {msg}")
        return msg

    async def ask_all(self, **req) -> dict[str, dict]:
        names = sorted(self.conns)
        return dict(zip(names, await asyncio.gather(*(self.ask(n, **req) for n in names))))

    async def request(self, ev: str, **req) -> dict:
        """A request of the single-process harness, asked of every worker and merged."""
        if req["cmd"] == "profile" and not req["on"]:
            got = {n: await self.ask(n, **{**req, "path": f"{req['path']}.{n}"}) for n in sorted(self.conns)}
        else:
            got = await self.ask_all(**req)
        return merge(list(got.values()), list(got))

    async def stats(self, frozen: bool = False) -> dict:
        got = await self.ask_all(cmd="stats", frozen=frozen)
        merged = merge(list(got.values()), list(got))
        merged["sessions_by_worker"] = {n: r["sessions"] for n, r in got.items()}
        return merged

    async def seat(self, groups: list[list[str]]) -> list[dict]:
        where = {k: n for n, r in (await self.ask_all(cmd="sessions")).items() for k in r["keys"]}
        return list(await asyncio.gather(*(self._table(g, where) for g in groups)))

    async def _table(self, keys: list[str], where: dict[str, str]) -> dict:
        """One table: its first player's worker creates it (and owns it), the others join from theirs."""
        creator = where[keys[0]]
        t = (await self.ask(creator, cmd="create", key=keys[0], size=len(keys), name=f"bench {keys[0][-6:]}"))["t"]
        self.owner[t] = creator
        for k in keys[1:]:
            await self.ask(where[k], cmd="join", key=k, t=t)
        started = await self.ask(creator, cmd="start", key=keys[0], t=t)
        return {"id": t, "keys": started["keys"], "workers": [where[k] for k in started["keys"]]}

    def request_keys(self, table_id: str) -> None:
        self.conns[self.owner[table_id]][1].write((json.dumps({"cmd": "keys", "t": table_id}) + "\n").encode())

    def tree(self) -> dict[int, str]:
        """The server's processes: pid -> parent, nats, wK (a worker: its node id), or other."""
        assert self.proc is not None
        roles = {self.proc.pid: "parent"}
        for pid in descendants(self.proc.pid):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if any(b"nats-server" in c for c in cmd[:1]):
                roles[pid] = "nats"
            elif b"--config" in cmd:
                roles[pid] = Path(cmd[cmd.index(b"--config") + 1].decode()).parent.name  # <saves>/wK/worker.toml
            else:
                roles[pid] = "other"
        return roles

    def _sum(self, read: Callable[[int], float]) -> float:
        total = 0.0
        for pid in self.tree():
            try:
                total += read(pid)
            except OSError:  # gone meanwhile
                pass
        return total

    def rss(self) -> float:
        return self._sum(rss_mb)

    def cpu(self) -> float:
        return self._sum(cpu_seconds)

    def breakdown(self) -> dict:
        """RSS (MB) and CPU seconds so far of each of the server's processes, by role."""
        out: dict = {}
        for pid, role in self.tree().items():
            try:
                row = [round(rss_mb(pid), 1), round(cpu_seconds(pid), 1)]
            except OSError:
                continue
            if role in out:
                row = [round(a + b, 1) for a, b in zip(out[role], row)]
            out[role] = row
        return dict(sorted(out.items()))

    async def stop(self) -> None:
        if self.proc is None or self.errors.closed:
            return
        for _, writer in self.conns.values():
            writer.close()
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        await wait_or_kill(self.proc, 40)
        self.errors.close()
        logs = (self.tmp / "parent.err").read_text(errors="replace").splitlines()
        if "Stopping..." in logs:
            logs = logs[: logs.index("Stopping...")]  # what the stop itself logs is no news
        if logs:  # warnings and errors only (log_level WARNING): what went wrong, if anything
            print("the server's log (last 60 lines):", *logs[-60:], sep="\n  ", file=sys.stderr, flush=True)
        shutil.rmtree(self.tmp, ignore_errors=True)


def _die_with_us() -> None:
    """The server's parent is stopped by the kernel if the benchmark dies (its workers and its
    nats-server then stop with it, as they do when a parent dies)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def merge(replies: list[dict], names: list[str], longest: bool = False) -> dict:
    """The workers' replies as one: counts summed (lists of counts element by element), times in ms
    the longest, the pauses' lists joined (each pause marked with its worker)."""
    out: dict = {}
    for key in dict.fromkeys(k for r in replies for k in r):
        values = [r.get(key) for r in replies]
        if key == "pauses_over_10ms":
            out[key] = [[n, *p] for n, v in zip(names, values) for p in (v or [])]
            continue
        if all(v is None for v in values):
            out[key] = None
            continue
        first = next(v for v in values if v is not None)
        if isinstance(first, dict):
            out[key] = merge([v or {} for v in values], names, longest=key.endswith("_ms"))
        elif isinstance(first, list) and all(isinstance(x, int | float) for v in values for x in v or []):
            out[key] = [sum(x) for x in zip(*(v for v in values if v is not None))]
        elif isinstance(first, bool | str):
            out[key] = first
        elif isinstance(first, int | float):
            nums = [v for v in values if v is not None]
            if key.startswith("min_"):
                out[key] = min(nums)
            else:
                out[key] = max(nums) if longest or key.endswith("_ms") else sum(nums)
        else:
            out[key] = first
    return out
