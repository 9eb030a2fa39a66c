"""The command line of benchmarks/server_scale.py (its docstring says what each run does)."""

from __future__ import annotations

import argparse


def parse_args(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "sessions",
        nargs="*",
        type=int,
        default=[10, 50, 100, 200, 300],
        help="player counts to measure (growing in one server)",
    )
    parser.add_argument("--rate", type=float, default=0.2, help="background moves per second per table (mean)")
    parser.add_argument("--tries", type=int, default=100, help="key-to-screen tries per level")
    parser.add_argument("--min-window", type=float, default=20.0, help="shortest active window (s)")
    parser.add_argument("--max-window", type=float, default=120.0, help="longest active window (s)")
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="quiet window for idle CPU")
    parser.add_argument(
        "--gc-freeze-wait",
        type=float,
        default=3.0,
        help="wait after seating (the gc freeze comes 2 s after the last app start)",
    )
    parser.add_argument(
        "--gc-interval", type=float, default=3.0, help="server's gc_collect_interval_seconds (60 in production)"
    )
    parser.add_argument("--churn", type=int, default=1000, help="sessions that come and go after the levels (0: none)")
    parser.add_argument("--wave", type=int, default=100, help="sessions per churn wave")
    parser.add_argument(
        "--level-budget",
        type=float,
        default=280.0,
        help="a level is skipped unless this many seconds remain; connecting past half of it stops the run",
    )
    parser.add_argument("--timeout", type=float, default=1500.0, help="overall time limit (s)")
    parser.add_argument(
        "--server-config", default="{}", help="JSON object of ServerConfig fields for the server (experiments)"
    )
    parser.add_argument(
        "--garbage-types",
        type=int,
        default=0,
        help="list this many kinds of object in the cyclic garbage at the end (diagnosis)",
    )
    parser.add_argument(
        "--profile", default="", help="cProfile the server during the last level's window into this file"
    )
    parser.add_argument(
        "--cpu-samples",
        action="store_true",
        help="--profile: stacks sampled in the server's own CPU time (SIGPROF; folded text), not cProfile",
    )
    parser.add_argument(
        "--profile-idle",
        action="store_true",
        help="--profile: the last level's quiet window (idle CPU), not its active window",
    )
    parser.add_argument(
        "--hard-tables", type=int, default=0, help="instead: the hard-bot run, with this many bot tables"
    )
    parser.add_argument(
        "--baseline", default="", help="first the same levels against this git revision's server (e.g. main)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="the server is `citadels serve --workers N` (N processes on one port; 0: one process, the harness)",
    )
    parser.add_argument(
        "--cluster-config",
        default="{}",
        help="--workers: JSON object of the [cluster] table's settings (e.g. lease timings; experiments)",
    )
    parser.add_argument(
        "--local-tables",
        action="store_true",
        help="--workers experiment: seat each table's players from one worker (no seat through the cluster)",
    )
    parser.add_argument(
        "--seat-every",
        type=int,
        default=60,
        help="players connect this many at a time, each group seated before the next connects (0: all, then seat)",
    )
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="one process: do not pin the server and the clients apart (experiment: share the CPUs as --workers does)",
    )
    parser.add_argument("--human-tables", type=int, default=3, help="tables of 5 people measured in the hard-bot run")
    args = parser.parse_args()
    if args.workers == 1 or args.workers < 0:
        parser.error("--workers: 0 (one process, the harness) or 2 and more (`--workers 1` is one process too)")
    if 0 < args.seat_every < 20:
        parser.error("--seat-every: 0, or at least 20 (a group must split into tables of 5 and 6)")
    return args
