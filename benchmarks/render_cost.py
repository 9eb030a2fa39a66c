"""CPU cost of one table's fan-out: a view update drawn by every seat's app.

    python benchmarks/render_cost.py [--seats 6] [--moves 150] [--size 120x40]
                                     [--term xterm-256color] [--profile FILE]
                                     [--cpu-samples FILE]

Runs `--seats` game screens (`CitadelsApp` with the chat, as served) in this
process through the server's own SSH driver (`server.transport.driver.SSHDriver`, the
per-client colour conversion included) with a channel that counts the bytes
and drops them, replays a recorded bots-only game (each seat receives its own
view and events), and after each move waits until every app has sent its
frame. No SSH encryption, no network: this is the server's rendering work per
move, the part that grows with the seats (docs/server.md "Measured cost").

Prints ONE JSON line: CPU ms per move for the whole table and per seat,
bytes per seat per move, the time from posting a move to the last seat's
frame (wall, one move at a time, so the sum of the seats' work), and the
objects the cycle collector found unreachable per move (garbage in cycles).
`--profile FILE` writes a cProfile of the measured moves; `--cpu-samples FILE`
their stacks sampled in CPU time (benchmarks/cpu_sampler.py: folded stacks, one a line).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import functools
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.cpu_sampler import CpuSampler
from engine import GameConfig, apply, legal_commands, new_game, redact_events, view
from engine.bots.random_bot import RandomBot
from server.config import ServerConfig
from server.transport.app_setup import prepare_app
from server.transport.client_env import color_system_for
from server.transport.driver import SSHDriver
from server.transport.input_budget import InputBudget
from server.transport.session_info import SessionInfo
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.compat import direct_paint
from ui.compat.served_app import queued_messages

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox", "Gus", "Hal"]


class NullChannel:
    """What the driver needs from an SSH session; output counted and dropped."""

    def __init__(self, sent: asyncio.Event) -> None:
        self.bytes = 0
        self.frames = 0
        self._sent = sent

    def send_output(self, data: bytes) -> None:
        self.bytes += len(data)
        self.frames += 1
        self._sent.set()

    def output_backlog(self) -> int:
        return 0

    def transport_backlog(self) -> int:
        return 0

    def pause_input(self) -> None: ...

    def resume_input(self) -> None: ...

    def abort(self, reason: str) -> None:
        raise RuntimeError(reason)

    def driver_attached(self, driver: Any) -> bytes:
        return b""

    def first_frame_sent(self) -> None: ...


def record_game(players: int, seed: int) -> list[list[tuple[Any, list[Any]]]]:
    """Per command, every seat's (view, events)."""
    g, events = new_game(GameConfig(players=NAMES[:players], preset="first-game", seed=seed))
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    out = [[(view(g, s), redact_events(events, s)) for s in range(players)]]
    while g.phase != "over":
        s = g.pending.seat
        cmd = bots[s].choose(legal_commands(g, s), view(g, s))
        ev = apply(g, cmd)
        out.append([(view(g, t), redact_events(ev, t)) for t in range(players)])
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    w, h = (int(x) for x in args.size.split("x"))
    game = record_game(args.seats, args.seed)
    limits = ServerConfig()
    colours = color_system_for(args.term, None)
    apps: list[CitadelsApp] = []
    channels: list[NullChannel] = []
    tasks = []
    sent = asyncio.Event()
    for seat in range(args.seats):
        info = SessionInfo(
            session_id=f"s{seat}",
            username=NAMES[seat],
            key_fingerprint=None,
            is_guest=True,
            peer_host="127.0.0.1",
            peer_port=0,
            term=args.term,
            color_system=colours,
            size=(w, h),
        )
        app = CitadelsApp(None, UiOptions(name=NAMES[seat], show_chat=True, show_scores_at_end=False))
        ch = NullChannel(sent)
        prepare_app(
            app,
            info,
            functools.partial(SSHDriver, link=ch, limits=limits, budget=InputBudget(limits), color_system=colours),
        )
        tasks.append(
            asyncio.get_running_loop().create_task(
                app.run_async(size=(w, h), mouse=True), context=contextvars.Context()
            )
        )
        apps.append(app)
        channels.append(ch)
    while not all(a.is_running and a.screen is not None and a.table.is_mounted for a in apps):
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)

    async def settle(before: list[int]) -> None:
        # until every app sent a frame since `before` and nothing is pending
        while True:
            sent.clear()
            if all(c.frames > b for c, b in zip(channels, before)):
                if all(not queued_messages(a) for a in apps):
                    return
                await asyncio.sleep(0.001)
                continue
            await sent.wait()

    def post(move: list[tuple[Any, list[Any]]]) -> None:
        for app, (v, ev) in zip(apps, move):
            app.post_message(ViewUpdate(v, ev))

    # warm up: the first moves (first frames, caches)
    warm, measured = game[: args.warmup], game[args.warmup : args.warmup + args.moves]
    for move in warm:
        before = [c.frames for c in channels]
        post(move)
        await asyncio.wait_for(settle(before), 5)
    prof = cProfile.Profile() if args.profile else None
    sampler = CpuSampler() if args.cpu_samples else None
    collected = [0]  # objects the cycle collector found unreachable during the measured moves

    def count_collected(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collected[0] += info["collected"]

    gc.callbacks.append(count_collected)
    walls: list[float] = []
    bytes0 = sum(c.bytes for c in channels)
    frames0 = sum(c.frames for c in channels)
    paints0 = dict(direct_paint.STATS)
    cpu0 = time.process_time()
    if sampler:
        sampler.start()
    for move in measured:
        before = [c.frames for c in channels]
        t0 = time.perf_counter()
        if prof:
            prof.enable()
        post(move)
        try:
            await asyncio.wait_for(settle(before), 2)
        except TimeoutError:  # a move that changes nothing on some screen
            pass
        if prof:
            prof.disable()
        walls.append((time.perf_counter() - t0) * 1000)
        if args.slow and walls[-1] > args.slow:
            kinds = sorted({e.kind for e in move[0][1]})
            print(
                f"slow move {len(walls)}: {walls[-1]:.0f} ms, phase {move[0][0].phase}, events {kinds}", file=sys.stderr
            )
        await asyncio.sleep(0.02)  # let frame timers settle, as between real moves
    cpu = (time.process_time() - cpu0) * 1000
    if sampler:
        sampler.stop()
        sampler.dump(args.cpu_samples)
    gc.callbacks.remove(count_collected)
    paints = {k: v - paints0[k] for k, v in direct_paint.STATS.items()}
    sent = sum(c.bytes for c in channels) - bytes0
    frames = sum(c.frames for c in channels) - frames0
    # idle cost of the same sleeps
    cpu0 = time.process_time()
    for _ in measured:
        await asyncio.sleep(0.02)
    idle = (time.process_time() - cpu0) * 1000
    if prof:
        prof.dump_stats(args.profile)
    for app in apps:
        app.exit()
    await asyncio.gather(*tasks, return_exceptions=True)
    n = len(measured)
    per_move = max(cpu - idle, 0.0) / n
    walls.sort()
    return {
        "benchmark": "render_cost",
        "size": f"{w}x{h}",
        "term": args.term,
        "seats": args.seats,
        "moves": n,
        "cpu_ms_per_move": round(per_move, 2),
        "cpu_ms_per_seat_update": round(per_move / args.seats, 2),
        "bytes_per_seat_update": round(sent / n / args.seats),
        "frames_per_seat_update": round(frames / n / args.seats, 2),
        "wall_ms_to_last_frame_p50": round(statistics.median(walls), 1),
        "wall_ms_to_last_frame_p95": round(walls[int(0.95 * (n - 1))], 1),
        "gc_collected_per_move": round(collected[0] / n, 1),
        # seat updates whose changed lines were all painted directly (ui/compat/direct_paint.py)
        "painted_directly": round(paints["direct"] / (n * args.seats), 2),
        "fallback_widgets": paints["fallback_widgets"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seats", type=int, default=6)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", default="120x40")
    ap.add_argument("--term", default="xterm-256color")
    ap.add_argument("--profile", default="")
    ap.add_argument("--cpu-samples", default="", help="write the measured moves' stacks sampled in CPU time")
    ap.add_argument("--slow", type=float, default=0, help="print moves slower than this (ms) to stderr")
    args = ap.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
