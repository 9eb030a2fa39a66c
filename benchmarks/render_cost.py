"""CPU cost of one table's fan-out: a view update drawn by every seat's app.

    python benchmarks/render_cost.py [--seats 6] [--moves 150] [--size 120x40]
                                     [--term xterm-256color] [--profile FILE]
                                     [--cpu-samples FILE] [--keys]

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

`--keys`: each move is made as the server receives it, by the acting seat's keys: its bytes fed
to that seat's driver (`SSHDriver.feed_input`, as the SSH session does: Textual's parser and key
handling, the screen's bindings, the prompt's redraws), the command the app sends (`link.send`)
applied to the game, then every seat's new view posted. The keys are those of
benchmarks/server_scale_server.py (tests/server/game_helpers.key_path, each seat's entries numbered
as its screen numbers them), so the game differs from the default mode's bots. The harness's own
work (choosing the keys, applying the command, every seat's view) is not counted
(`harness_cpu_ms_per_move`); the input budget's limits are a machine-speed game's (as the tests').
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import functools
import gc
import json
import random
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
KEY_LIMITS = {"input_cpu_share": 1.0, "key_rate_per_second": 1e6, "key_burst": 1_000_000}


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
        self.driver = driver
        return b""

    def first_frame_sent(self) -> None: ...

    def keys_dropped(self, count: int) -> None:
        raise RuntimeError(f"{count} keys dropped for their rate")


class KeyLink:
    """A seat's table link in `--keys`: the commands its app sends, waiting to be applied."""

    def __init__(self) -> None:
        self.commands: list[Any] = []
        self.sent = asyncio.Event()
        self.wake: asyncio.Event | None = None

    def send(self, command: Any) -> None:
        self.commands.append(command)
        self.sent.set()
        if self.wake is not None:
            self.wake.set()


def record_game(players: int, seed: int) -> list[list[tuple[Any, list[Any]]]]:
    """Per command, every seat's (view, events)."""
    g, events = new_game(GameConfig(players=NAMES[:players], preset="first-game", seed=seed))
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    others: dict = {}  # each state's views share the other players, as a table's (server/tables/table.py)
    out = [[(view(g, s, others), redact_events(events, s)) for s in range(players)]]
    while g.phase != "over":
        s = g.pending.seat
        cmd = bots[s].choose(legal_commands(g, s), view(g, s))
        ev = apply(g, cmd)
        others = {}
        out.append([(view(g, t, others), redact_events(ev, t)) for t in range(players)])
    return out


class KeyGame:
    """`--keys`: the game played live by the acting seat's keys (see the module's docstring)."""

    def __init__(self, players: int, seed: int) -> None:
        from tests.server.game_helpers import key_path  # the tests' and server_scale's keys
        from ui.i18n import Catalogue
        from ui.prompt_keys import Numbering

        self._key_path = key_path
        self.players = players
        self.game, events = new_game(GameConfig(players=NAMES[:players], preset="first-game", seed=seed))
        others: dict = {}  # as a table's views (server/tables/table.py)
        self.first = [(view(self.game, s, others), redact_events(events, s)) for s in range(players)]
        self.cat = Catalogue("en")
        self.rng = random.Random(seed)
        self.numbers = [Numbering() for _ in range(players)]  # as each seat's screen numbers its entries
        self.links = [KeyLink() for _ in range(players)]
        self.harness_cpu = 0.0  # seconds of CPU the harness spent (keys chosen, commands applied, views)
        self.keys_pressed = 0
        self.key_bytes = 0
        self.key_cpu = 0.0  # seconds of CPU from the keys fed to the command sent (in cpu_ms_per_move)
        self.acted: int | None = None  # the seat that made the last move

    @property
    def over(self) -> bool:
        return self.game.phase == "over"

    async def move(self, channels: list[NullChannel]) -> list[tuple[Any, list[Any]]]:
        """The acting seat's keys fed to its driver; its command applied: every seat's (view, events)."""
        t0 = time.process_time()
        g = self.game
        seat = g.pending.seat
        link = self.links[seat]
        self.acted = seat
        keys, expected = b"", None
        if not link.commands:  # (else the next command of a plan, sent by the app as its view came)
            keys, expected = self._key_path(view(g, seat), self.cat, self.rng, self.numbers[seat])
        self.harness_cpu += time.process_time() - t0
        if keys:
            link.sent.clear()
            self.keys_pressed += 1
            self.key_bytes += len(keys)
            t0 = time.process_time()
            channels[seat].driver.feed_input(keys)
            await asyncio.wait_for(link.sent.wait(), 5)
            self.key_cpu += time.process_time() - t0
        command = link.commands.pop(0)
        if expected is not None and command != expected:
            raise RuntimeError(f"seat {seat}: keys {keys!r} chose {command}, not {expected}")
        t0 = time.process_time()
        events = apply(g, command)
        others: dict = {}
        out = [(view(g, s, others), redact_events(events, s)) for s in range(self.players)]
        self.harness_cpu += time.process_time() - t0
        return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    w, h = (int(x) for x in args.size.split("x"))
    keyed = KeyGame(args.seats, args.seed) if args.keys else None
    game = record_game(args.seats, args.seed) if keyed is None else [keyed.first]
    # keys at machine speed: past a person's rate and input budget (as tests/server/game_helpers sets)
    limits = ServerConfig() if keyed is None else ServerConfig(**KEY_LIMITS)
    colours = color_system_for(args.term, None)
    apps: list[CitadelsApp] = []
    channels: list[NullChannel] = []
    tasks = []
    sent = asyncio.Event()
    links = keyed.links if keyed is not None else []
    for link in links:
        link.wake = sent  # a command sent ends a wait for frames (`settle`)
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
        app = CitadelsApp(
            None if keyed is None else keyed.links[seat],
            UiOptions(name=NAMES[seat], show_chat=True, show_scores_at_end=False),
        )
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

    def drew(seat: int, before: int, drawing: list[bool] | None) -> bool:
        if channels[seat].frames > before:
            return True
        # `--keys`: a screen that changes nothing, or one that answered with a plan's next command
        return drawing is not None and (not drawing[seat] or bool(links[seat].commands))

    async def settle(before: list[int], drawing: list[bool] | None = None) -> None:
        # until every app sent a frame since `before` (`drawing`: see `drew`) and nothing is pending
        while True:
            sent.clear()
            if all(drew(seat, b, drawing) for seat, b in enumerate(before)):
                if all(not queued_messages(a) for a in apps):
                    return
                await asyncio.sleep(0.001)
                continue
            await sent.wait()

    def drawing(move: list[tuple[Any, list[Any]]]) -> list[bool] | None:
        """`--keys`: the seats whose screens change: the acting seat's, and those told of events (a
        card marked among those to discard changes no other screen: no frame to wait for there)."""
        if keyed is None:
            return None
        acted = keyed.acted
        return [seat == acted or bool(events) for seat, (_, events) in enumerate(move)]

    def post(move: list[tuple[Any, list[Any]]]) -> None:
        for app, (v, ev) in zip(apps, move):
            app.post_message(ViewUpdate(v, ev))

    # warm up: the first moves (first frames, caches)
    warm, measured = game[: args.warmup], game[args.warmup : args.warmup + args.moves]
    if keyed is not None:  # the first view, then moves made by keys (None: `KeyGame.move` makes it)
        warm, measured = [*game, *[None] * (args.warmup - 1)], [None] * args.moves
    for move in warm:
        if move is None:
            if keyed is None or keyed.over:
                break
            move = await keyed.move(channels)
        before = [c.frames for c in channels]
        post(move)
        await asyncio.wait_for(settle(before, drawing(move)), 5)
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
    harness0 = keyed.harness_cpu if keyed is not None else 0.0
    pressed0 = keyed.keys_pressed if keyed is not None else 0
    bytes0_keys = keyed.key_bytes if keyed is not None else 0
    key_cpu0 = keyed.key_cpu if keyed is not None else 0.0
    cpu0 = time.process_time()
    if sampler:
        sampler.start()
    n = 0
    for move in measured:
        t0 = time.perf_counter()
        if prof:
            prof.enable()
        if move is None:
            if keyed is None or keyed.over:
                break
            move = await keyed.move(channels)
        before = [c.frames for c in channels]
        post(move)
        try:
            await asyncio.wait_for(settle(before, drawing(move)), 2)
        except TimeoutError:  # a move that changes nothing on some screen
            pass
        if prof:
            prof.disable()
        n += 1
        walls.append((time.perf_counter() - t0) * 1000)
        if args.slow and walls[-1] > args.slow:
            kinds = sorted({e.kind for e in move[0][1]})
            print(
                f"slow move {len(walls)}: {walls[-1]:.0f} ms, phase {move[0][0].phase}, events {kinds}", file=sys.stderr
            )
        await asyncio.sleep(0.02)  # let frame timers settle, as between real moves
    cpu = (time.process_time() - cpu0) * 1000
    harness = (keyed.harness_cpu - harness0) * 1000 if keyed is not None else 0.0
    if sampler:
        sampler.stop()
        sampler.dump(args.cpu_samples)
    gc.callbacks.remove(count_collected)
    paints = {k: v - paints0[k] for k, v in direct_paint.STATS.items()}
    sent = sum(c.bytes for c in channels) - bytes0
    frames = sum(c.frames for c in channels) - frames0
    # idle cost of the same sleeps
    cpu0 = time.process_time()
    for _ in range(n):
        await asyncio.sleep(0.02)
    idle = (time.process_time() - cpu0) * 1000
    if prof:
        prof.dump_stats(args.profile)
    for app in apps:
        app.exit()
    await asyncio.gather(*tasks, return_exceptions=True)
    per_move = max(cpu - idle - harness, 0.0) / n
    walls.sort()
    out = {
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
    if keyed is not None:
        out["keys"] = True
        out["keyed_moves"] = round((keyed.keys_pressed - pressed0) / n, 2)  # moves chosen by keys (else a plan's)
        out["key_bytes_per_move"] = round((keyed.key_bytes - bytes0_keys) / n, 2)
        # of cpu_ms_per_move: from the acting seat's keys fed to its command sent (their paints included)
        out["key_cpu_ms_per_move"] = round((keyed.key_cpu - key_cpu0) * 1000 / n, 3)
        out["harness_cpu_ms_per_move"] = round(harness / n, 2)  # not counted in cpu_ms_per_move
    return out


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
    ap.add_argument("--keys", action="store_true", help="make each move by the acting seat's keys (see above)")
    ap.add_argument("--slow", type=float, default=0, help="print moves slower than this (ms) to stderr")
    args = ap.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
