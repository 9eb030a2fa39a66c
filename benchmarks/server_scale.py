"""Benchmark the game server at scale: N asyncssh PTY players seated at tables of 5 and 6, the real UI.

    python benchmarks/server_scale.py 10 50 100 200 300 [--rate 0.2] [--tries 100] [--churn 1000]
    python benchmarks/server_scale.py --hard-tables 4 --human-tables 3 [--tries 100]
    python benchmarks/server_scale.py 300 1000 --baseline main --level-budget 900 --timeout 2400
    python benchmarks/server_scale.py 300 1000 --workers 2 --churn 0 --baseline ae6c508 --level-budget 900 --timeout 3000

The server (`server.serve.serve`: lobby, table actors, saves, the real `ServerApp`) runs in a
subprocess on 127.0.0.1 (a free port, fresh keys and saves folders), pinned to CPU 0; the clients
run here, pinned to the other CPUs, so the server's CPU (read from /proc) is its own. Each client
has its own key (its identity). Tables are set up through the `Lobby` object inside the server
process (create, join, start: the code the lobby screen calls), a benchmark-only control pipe on the
server's stdin/stdout; every key press that plays a move goes through SSH into the real game screen.
The control pipe also reports each table's publishes (sequence number, the seat to move and the
keys that choose a command on its menu, computed from that seat's view as the screen does); the time
the server spends on that report is measured and left out of "CPU per move".

--workers N: the server is `citadels serve --workers N` itself (the parent, its nats-server, N
workers on one port), with the same hooks in each worker (benchmarks/server_scale_workers.py says
how, and how the clients and the server share the CPUs); CPU and RSS are the whole process tree's.

Levels grow in one server: for each N the clients joining arrive --seat-every at a time (connected,
10 at once; then seated at tables of 5 and 6 and the games started; then the next group: a lobby of
hundreds of idle sessions at once is not what is measured); then: RSS and MB per session (above the server's RSS with no
session), idle CPU over a quiet window (everyone connected, nobody moving), and an active window:
at every table the seat to move presses its keys after a think time (exponential, mean 1/rate s,
at least 0.3 s), and one table at a time (round-robin over the tables) is a probe: its mover
presses 0.3 s after the previous move arrived, and the time from the key press to the first bytes
of the change at another seat's terminal (a seat that was quiet for 0.1 s) is one try. CPU per move
is the server's CPU over the window divided by the moves made in it (all tables).

Then --churn sessions connect (to the lobby, with the N players still seated) and leave in waves of
--wave, and RSS is read before, after each wave, and once the server's quiet-time collection ran.

--hard-tables K: a separate run with `--bots hard` (2 worker processes, not pinned: they may use
both CPUs): --human-tables tables of people are measured as above, first with no bot table, then
with K tables of 5 hard bots playing (each decision searched in the pool, 300 ms budget).

--baseline REV: the same levels first against REV's server (a git worktree of it, this harness;
benchmarks/server_scale_baseline.py), then this tree's; a third JSON line compares them per level.
REV's side is always one process (a revision before --workers has none), this tree's has --workers.

Prints one JSON line per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from server_scale_baseline import checkout, compare, this_tree
from server_scale_churn import churn
from server_scale_clients import ESC, Client, TableState, cpu_seconds, machine, pct
from server_scale_hard import hard_run
from server_scale_link import SingleLink
from server_scale_options import parse_args
from server_scale_players import Players
from server_scale_workers import WorkersLink

REPO = Path(__file__).resolve().parents[1]


class Bench(Players):
    def __init__(self, args: argparse.Namespace, repo: Path = REPO) -> None:
        self.args = args
        self.repo = repo  # the server's code: this tree, or a baseline's checkout
        self.link: SingleLink | WorkersLink | None = None
        self.port = 0
        self.tables: dict[str, TableState] = {}
        self.moves = 0
        self.remote_seats = 0
        self.split_screens = 0
        self.early: dict[str, dict] = {}  # the last report of a table not yet seated here
        self.rng = random.Random(11)
        self.tmp = Path(tempfile.mkdtemp(prefix="server-scale-"))

    # --- the server (one process, or `citadels serve --workers N`) and its control link
    async def start_server(self, bots: str) -> None:
        kind = WorkersLink if self.args.workers else SingleLink
        self.link = kind(self.args, self.repo, self.tmp, self._on_pub)
        await self.link.start(bots)
        self.port, self.pinning = self.link.port, self.link.pinning

    @property
    def proc(self) -> asyncio.subprocess.Process | None:
        return self.link.proc

    def _on_pub(self, msg: dict) -> None:
        tb = self.tables.get(msg["t"])
        if tb is None:  # --workers: a table of the batch being seated published first
            self.early[msg["t"]] = msg
            return
        if msg["seq"] != tb.seq:
            self.moves += 1
        tb.seq, tb.over = msg["seq"], msg["over"]
        tb.seat = msg.get("seat")
        tb.keys = bytes.fromhex(msg.get("keys", ""))
        tb.pub_t = time.perf_counter()
        tb.changed.set()

    async def request(self, ev: str, **req) -> dict:
        return await self.link.request(ev, **req)

    async def stats(self, frozen: bool = False) -> dict:
        """The server's counters; `frozen` adds the frozen-object count (it blocks the server ~0.3 s at 300 players)."""
        return await self.link.stats(frozen)

    def rss(self) -> float:
        return self.link.rss()

    def cpu(self) -> float:
        return self.link.cpu()

    async def stop_server(self) -> None:
        if self.link is not None:
            await self.link.stop()

    # --- playing
    async def drive(self, tb: TableState, run: dict) -> None:
        """The table's players: the seat to move presses its keys after a think time."""
        last = None
        while not run["stop"]:
            if tb.seq == last or tb.seat is None:
                tb.changed.clear()
                try:
                    await asyncio.wait_for(tb.changed.wait(), 10)
                except TimeoutError:
                    if tb.seq == last and not run["stop"]:  # the keys did not make a move: start over
                        run["stalls"] += 1
                        tb.clients[tb.seat].send(ESC + ESC)
                        await asyncio.sleep(0.5)
                        await self.request_keys(tb)
                        last = None
                    continue
                continue
            if tb.over:
                return
            last = tb.seq
            # Think time counts from the last move, or from the window's start: the tables were quiet
            # before it (idle CPU), and all of them moving at once would be a burst no game makes.
            pub_t = max(tb.pub_t, run["t0"])
            think = max(0.3, self.rng.expovariate(self.args.rate))
            tb.pointed.clear()
            if run["pointer"] is not tb:
                try:
                    await asyncio.wait_for(tb.pointed.wait(), max(0.0, pub_t + think - time.perf_counter()))
                except TimeoutError:
                    pass
            probe = run["pointer"] is tb and not run["probe_busy"]
            await asyncio.sleep(max(0.0, pub_t + 0.3 - time.perf_counter()))
            if run["stop"] or tb.seq != last:
                continue
            mover = tb.clients[tb.seat]
            await mover.quiet(0.05, 2)
            if probe and run["pointer"] is tb and not run["probe_busy"]:
                run["probe_busy"] = True
                try:
                    others = [c for i, c in enumerate(tb.clients) if i != tb.seat]
                    watcher = self.rng.choice(others)
                    await watcher.quiet(0.1, 3)
                    fut = asyncio.get_running_loop().create_future()
                    watcher.next_chunk = fut
                    pressed = time.perf_counter()
                    run["next_probe_at"] = pressed + run["probe_interval"]
                    mover.send(tb.keys)
                    try:
                        arrived = await asyncio.wait_for(fut, 10)
                        run["latency"].append((arrived - pressed) * 1000)
                        split = [None, None]
                        if tb.seq != last and pressed <= tb.pub_t <= arrived:  # the table published the move
                            split = [(tb.pub_t - pressed) * 1000, (arrived - tb.pub_t) * 1000]
                            run["to_publish"].append(split[0])
                            run["from_publish"].append(split[1])
                        run["slowest"].append(
                            [
                                round(run["latency"][-1], 1),
                                *(None if x is None else round(x, 1) for x in split),
                                round(pressed - run["t0"], 1),
                            ]
                        )
                    except TimeoutError:
                        run["probe_timeouts"] += 1
                    watcher.next_chunk = None
                finally:
                    run["probe_busy"] = False
                    self.advance_pointer(run)
            else:
                mover.send(tb.keys)

    async def request_keys(self, tb: TableState) -> None:
        self.link.request_keys(tb.id)

    def advance_pointer(self, run: dict) -> None:
        """Point the next probe at the next table, once the probe interval since the last try has passed."""
        live = [t for t in run["tables"] if not t.over]
        if not live or self.tries_done(run):
            run["pointer"] = None
            return
        run["index"] = (run["index"] + 1) % len(live)
        table = live[run["index"]]
        delay = run["next_probe_at"] - time.perf_counter()
        if delay > 0:
            run["pointer"] = "waiting"  # no table: none probes, none is hurried
            asyncio.get_running_loop().call_later(delay, self._point, run, table)
        else:
            self._point(run, table)

    @staticmethod
    def tries_done(run: dict) -> bool:
        """`--tries` measured tries (a move that changed nothing at the watched seat within 10 s is
        not one; as many of those end the window too)."""
        return len(run["latency"]) >= run["tries"] or run["probe_timeouts"] >= run["tries"]

    @staticmethod
    def _point(run: dict, table: TableState) -> None:
        if run["stop"]:
            return
        run["pointer"] = table
        table.pointed.set()

    async def active(
        self, tables: list[TableState], tries: int, min_seconds: float, max_seconds: float, keep: bool = False
    ) -> dict:
        """Play at every table; probe key-to-screen latency round-robin; CPU per move over the window.
        ``keep``: the tries' latencies too (``latencies_ms``), for callers that pool windows."""
        run = {
            "stop": False,
            "pointer": None,
            "index": -1,
            "probe_busy": False,
            "latency": [],
            "to_publish": [],
            "from_publish": [],
            "slowest": [],
            "t0": time.perf_counter(),
            # Tries spread over the window (one every min_window / tries seconds at most): back to
            # back, the probes' own moves raised the load while latency was measured.
            "next_probe_at": 0.0,
            "probe_interval": 0.9 * min_seconds / max(1, tries),
            "probe_timeouts": 0,
            "stalls": 0,
            "tries": tries,
            "tables": tables,
        }
        st0 = await self.stats()
        tree0 = self.link.breakdown()
        cpu0, moves0, t0 = self.cpu(), self.moves, time.perf_counter()
        ccpu0 = cpu_seconds(os.getpid())
        tasks = [asyncio.create_task(self.drive(tb, run)) for tb in tables if not tb.over]
        self.advance_pointer(run)
        while True:
            await asyncio.sleep(0.25)
            elapsed = time.perf_counter() - t0
            done = self.tries_done(run)
            if (done and elapsed >= min_seconds) or elapsed >= max_seconds:
                break
            if run["pointer"] is None and not done:
                self.advance_pointer(run)
        elapsed = time.perf_counter() - t0
        cpu1, moves1 = self.cpu(), self.moves
        ccpu1 = cpu_seconds(os.getpid())
        tree1 = self.link.breakdown()
        st1 = await self.stats()
        run["stop"] = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        moves = moves1 - moves0
        hook = st1["hook_s"] - st0["hook_s"]
        lat = run["latency"]
        return {
            **({"latencies_ms": [round(x, 1) for x in lat]} if keep else {}),
            "tries": len(lat),
            "probe_timeouts": run["probe_timeouts"],
            "stalls": run["stalls"],
            "key_to_screen_ms_p50": pct(lat, 50),
            "key_to_screen_ms_p95": pct(lat, 95),
            "key_to_screen_ms_max": round(max(lat), 1) if lat else None,
            # [ms, key to publish, publish to screen, seconds into the window] of the slowest tries
            "slowest_tries": sorted(run["slowest"], key=lambda t: t[0], reverse=True)[:5],
            "probe_interval_s": round(run["probe_interval"], 2),
            # the same tries split where the table published the move (its view sent to every seat's app)
            "key_to_publish_ms_p50_p95": [pct(run["to_publish"], 50), pct(run["to_publish"], 95)],
            "publish_to_screen_ms_p50_p95": [pct(run["from_publish"], 50), pct(run["from_publish"], 95)],
            "window_s": round(elapsed, 1),
            "moves": moves,
            "moves_per_s": round(moves / elapsed, 2),
            "server_cpu_percent": round((cpu1 - cpu0) / elapsed * 100, 1),
            "cpu_per_move_ms": round((cpu1 - cpu0 - hook) / moves * 1000, 1) if moves else None,
            "bench_hook_ms_per_move": round(hook / moves * 1000, 2) if moves else None,
            # what a move made the server do (view updates taken in by screens, frames and KB sent)
            **(
                {
                    name: round((st1["work"][k] - st0["work"][k]) / moves / scale, 2)
                    for name, k, scale in (
                        ("view_updates_per_move", "view_updates", 1),
                        ("view_updates_called_directly_per_move", "view_updates_called_directly", 1),
                        ("frames_per_move", "frames", 1),
                        ("kb_sent_per_move", "bytes", 1000),
                    )
                }
                if moves and "work" in st0
                else {}
            ),
            "client_cpu_percent": round((ccpu1 - ccpu0) / elapsed * 100, 1),
            # --workers: each of the server's processes' share of a CPU over the window
            **(
                {
                    "server_cpu_percent_by_process": {
                        r: round((v[1] - tree0.get(r, v)[1]) / elapsed * 100, 1) for r, v in tree1.items()
                    }
                }
                if tree1
                else {}
            ),
            "frames_dropped": st1["dropped_frames"],
            "gc_collections_by_generation": [b - a for a, b in zip(st0["gc"]["gen_stats"], st1["gc"]["gen_stats"])],
            "gc_pauses_over_10ms_in_window": st1["gc"]["pauses_over_10ms"],
            "key_to_screen_ms_slowest": sorted(round(x) for x in lat)[-5:],
            "pool": st1["pool"] and {k: st1["pool"][k] - st0["pool"][k] for k in st1["pool"]},
            "bot_moves": st1["bot_moves"] - st0["bot_moves"],
        }

    async def idle_cpu(self, seconds: float) -> float:
        # the harness's loop-lateness probe (20 wakes a second in each server process) is paused:
        # the quiet window measures the server's own wakes
        await self.request("probe", cmd="probe", on=False)
        c0, tree0 = self.cpu(), self.link.breakdown()
        await asyncio.sleep(seconds)
        c1, tree1 = self.cpu(), self.link.breakdown()
        await self.request("probe", cmd="probe", on=True)
        # --workers: each process's share of a CPU in the quiet window
        self.idle_by_process = {r: round((v[1] - tree0.get(r, v)[1]) / seconds * 100, 1) for r, v in tree1.items()}
        return round((c1 - c0) / seconds * 100, 1)

    # --- runs
    async def scale(self, levels: list[int], deadline: float) -> dict:
        args = self.args
        result: dict = {"benchmark": "server_scale", "rate_per_table": args.rate, "levels": []}
        result["server"] = f"citadels serve --workers {args.workers}" if args.workers else "one process"
        await self.start_server("normal")
        result["pinning"] = self.pinning
        await asyncio.sleep(1.0)
        baseline = self.rss()
        result["baseline_rss_mb"] = round(baseline, 1)
        players: list[Client] = []
        prev_rss, prev_n = baseline, 0
        try:
            for level in levels:
                started = time.monotonic()
                if started + args.level_budget > deadline:
                    result.setdefault("skipped", []).append(f"{level}: not enough time left in --timeout")
                    continue
                lobby0 = (await self.stats()).get("lobby_broadcasts") or {}
                try:
                    new, first_ms, arrival = await self.arrive(level - len(players), f"p{len(players)}-", started)
                except RuntimeError as e:  # a table that never started (its screen): the run stops, reported
                    result["failed"] = f"{level}: {e}"[:2000]
                    break
                players += new
                if arrival is None:
                    result.setdefault("skipped", []).append(f"{level}: connecting took over half of --level-budget")
                    break
                connected_s, seated_s, connect_cpu_ms = arrival
                await asyncio.sleep(args.gc_freeze_wait)
                await self.quiet_all(players)
                # a mark for whoever watches the run (a sampling profiler attached to the workers)
                print(
                    json.dumps({"phase": "idle", "sessions": level, "seconds": args.idle_seconds}),
                    file=sys.stderr,
                    flush=True,
                )
                profiling = bool(args.profile) and level == levels[-1]
                if profiling and args.profile_idle:
                    await self.request("profile", cmd="profile", on=True, cpu=args.cpu_samples)
                idle = await self.idle_cpu(args.idle_seconds)
                if profiling and args.profile_idle:
                    await self.request("profile", cmd="profile", on=False, path=str(Path(args.profile).resolve()))
                    profiling = False
                rss = self.rss()
                st = await self.stats(frozen=True)
                live = [t for t in self.tables.values() if not t.over]
                if profiling:
                    await self.request("profile", cmd="profile", on=True, cpu=args.cpu_samples)
                act = await self.active(live, args.tries, args.min_window, args.max_window)
                if profiling:
                    await self.request("profile", cmd="profile", on=False, path=str(Path(args.profile).resolve()))
                await self.quiet_all(players)
                level_result = {
                    "sessions": level,
                    "tables": len(live),
                    "server_sessions": st["sessions"],
                    **({"sessions_by_worker": st["sessions_by_worker"]} if "sessions_by_worker" in st else {}),
                    # --workers: seats whose player is served by another worker than the table's owner
                    **(
                        {"seats_on_another_worker": self.remote_seats, "screens_on_another_worker": self.split_screens}
                        if args.workers
                        else {}
                    ),
                    # --workers: [RSS MB, CPU s so far] of each of the server's processes
                    **({"tree": self.link.breakdown()} if args.workers else {}),
                    "rss_mb": round(rss, 1),
                    "mb_per_session": round((rss - baseline) / level, 2),
                    "mb_per_added_session": round((rss - prev_rss) / (level - prev_n), 2),
                    "idle_cpu_percent": idle,
                    **({"idle_cpu_percent_by_process": self.idle_by_process} if args.workers else {}),
                    "first_screen_ms_p50": pct(first_ms, 50),
                    "first_screen_ms_max": round(max(first_ms), 1),
                    "connect_s": round(connected_s, 1),
                    "connect_cpu_ms_per_session_server_clients": connect_cpu_ms,
                    "seat_and_start_s": round(seated_s, 1),
                    # the lobby's broadcasts while they arrived: how many, snapshots sent, seconds (all
                    # workers), the longest one (ms, over the whole run)
                    # the server's event loop woken late since the start (the longest; how often over 250 ms
                    # and 1 s); --workers: leases lost (a worker stalled past its lease's deadline)
                    "loop_lag_so_far": st.get("loop_lag"),
                    "lobby_broadcasts_arriving": {
                        k: round(v - (0 if k == "max_ms" else lobby0.get(k, 0)), 2)
                        for k, v in (st.get("lobby_broadcasts") or {}).items()
                    },
                    **act,
                    "level_s": round(time.monotonic() - started, 1),
                }
                prev_rss, prev_n = rss, level
                result["levels"].append(level_result)
                print(json.dumps({"progress": level_result}), file=sys.stderr, flush=True)
            if args.churn and time.monotonic() + 60 < deadline:
                result["churn"] = await churn(self, len(players), deadline)
            elif args.churn:
                result["churn"] = "skipped: not enough time left in --timeout"
            # The pauses above never scanned the frozen heap; this one does (not part of any figure
            # above): garbage cycles that only a full collection would free, over the whole run.
            # With --workers only if asked (--garbage-types): at 1,000 sessions it pauses each worker
            # ~5 s, past its table leases (they lapse and the tables move: the log fills with it).
            if args.workers and not args.garbage_types:
                result["cyclic_garbage_at_end"] = "skipped with --workers (--garbage-types N runs it)"
            else:
                garbage = await self.request("garbage", cmd="garbage")
                result["cyclic_garbage_at_end"] = {
                    k: garbage[k] for k in ("objects", "frozen_before", "ms", "types") if k in garbage
                }
            result["moves_total"] = self.moves
        finally:
            for c in players:
                c.close()
            await self.stop_server()
        return result


def main() -> int:
    args = parse_args(__doc__.splitlines()[0])
    if args.hard_tables:
        started = time.monotonic()
        result = asyncio.run(hard_run(Bench(args), started + args.timeout))
        result.update(machine(), seconds=round(time.monotonic() - started, 1))
        print(json.dumps(result))
        return 0
    base = None
    if args.baseline:
        with checkout(REPO, args.baseline) as (folder, commit):
            single = argparse.Namespace(**{**vars(args), "workers": 0})  # the baseline: one process
            base = scale_run(single, folder, f"baseline {args.baseline} ({commit})")
        print(json.dumps(base), flush=True)
    result = scale_run(args, REPO, f"this tree ({this_tree(REPO)})")
    print(json.dumps(result), flush=True)
    if base is not None:
        print(json.dumps(compare(base, result)))
    return 0


def scale_run(args: argparse.Namespace, repo: Path, code: str) -> dict:
    """The levels against the server whose code is in `repo` (within --timeout of its start)."""
    started = time.monotonic()
    result = asyncio.run(Bench(args, repo).scale(sorted(set(args.sessions)), started + args.timeout))
    result.update(machine(), code=code, seconds=round(time.monotonic() - started, 1))
    return result


if __name__ == "__main__":
    raise SystemExit(main())
