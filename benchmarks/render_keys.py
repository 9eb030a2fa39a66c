"""CPU cost of one table's moves made with the keys: the acting seat's key presses, then every seat's view.

    python benchmarks/render_keys.py [--seats 6] [--moves 150] [--size 120x40] [--cpu-samples FILE]

As benchmarks/render_cost.py (the seats' `CitadelsApp`s in this process through the server's SSH
driver, output counted and dropped), but the game is played live: before each move the acting
seat's app is fed, through its driver's input as an SSH channel would, the keys that choose a
command on its prompt (`tests/server/game_helpers.key_path`, random choices, the screen's own
numbering); the command it sends is applied and every seat is posted its new view. So the CPU per
move includes what render_cost leaves out and the server pays on every move: the key presses
(Textual's key handling, the prompt's menus, their repaints). `key_ms_per_move` is the CPU from
the first key to the app's command; `cpu_ms_per_move` the whole move.

Prints ONE JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.cpu_sampler import CpuSampler
from benchmarks.render_cost import NAMES, NullChannel
from engine import GameConfig, apply, new_game, redact_events, view
from server.config import ServerConfig
from server.transport.app_setup import prepare_app
from server.transport.client_env import color_system_for
from server.transport.driver import SSHDriver
from server.transport.input_budget import InputBudget
from server.transport.session_info import SessionInfo
from tests.server.game_helpers import key_path
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.compat.served_app import queued_messages
from ui.widgets.prompt import PromptPanel


class Sent:
    """The table link of a seat's app: keeps the command it sends."""

    def __init__(self, arrived: asyncio.Event) -> None:
        self.commands: list[Any] = []
        self._arrived = arrived

    def send(self, command: Any) -> None:
        self.commands.append(command)
        self._arrived.set()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    w, h = (int(x) for x in args.size.split("x"))
    limits = ServerConfig()
    colours = color_system_for(args.term, None)
    sent, arrived = asyncio.Event(), asyncio.Event()
    apps: list[CitadelsApp] = []
    channels: list[NullChannel] = []
    links: list[Sent] = []
    drivers: list[SSHDriver] = []
    tasks = []

    def driver_factory(ch: NullChannel, *a: Any, **kw: Any) -> SSHDriver:
        d = SSHDriver(*a, link=ch, limits=limits, budget=InputBudget(limits), color_system=colours, **kw)
        drivers.append(d)
        return d

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
        link = Sent(arrived)
        app = CitadelsApp(link, UiOptions(name=NAMES[seat], show_chat=True, show_scores_at_end=False))
        ch = NullChannel(sent)
        prepare_app(app, info, lambda *a, _ch=ch, **kw: driver_factory(_ch, *a, **kw))
        ctx = contextvars.Context()
        tasks.append(asyncio.get_running_loop().create_task(app.run_async(size=(w, h), mouse=True), context=ctx))
        apps.append(app)
        channels.append(ch)
        links.append(link)
    while not all(a.is_running and a.screen is not None and a.table.is_mounted for a in apps):
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)
    driver_of = {id(d._app): d for d in drivers}  # noqa: SLF001 - the benchmark's own wiring

    async def settle(before: list[int]) -> None:
        while True:
            sent.clear()
            if all(c.frames > b for c, b in zip(channels, before)):
                if all(not queued_messages(a) for a in apps):
                    return
                await asyncio.sleep(0.001)
                continue
            await sent.wait()

    g, events = new_game(GameConfig(players=NAMES[: args.seats], preset="first-game", seed=args.seed))
    rng = random.Random(args.seed)
    stuck = [0]
    used = [0] * args.seats  # commands of each seat's link applied

    async def post_views(ev: list[Any]) -> None:
        before = [c.frames for c in channels]
        for s, app in enumerate(apps):
            app.post_message(ViewUpdate(view(g, s), redact_events(ev, s)))
        try:
            await asyncio.wait_for(settle(before), 2)
        except TimeoutError:
            pass

    async def one_move() -> float:
        """The acting seat's keys, its command applied, every seat's view; the keys' CPU (ms)."""
        s = g.pending.seat
        app = apps[s]
        if len(links[s].commands) > used[s]:  # a plan's next step (the Magician's cards), sent by the app itself
            command = links[s].commands[used[s]]
            used[s] += 1
            await post_views(apply(g, command))
            return 0.0
        keys, intended = key_path(app.view, app.cat, rng, app.table.query_one(PromptPanel).numbers)
        arrived.clear()
        count = len(links[s].commands)
        k0 = time.process_time()
        driver = driver_of[id(app)]
        for i in range(len(keys)):  # a key at a time, as typed (a burst would meet the input's rate limit)
            driver.feed_input(keys[i : i + 1])
            await asyncio.sleep(0)
        try:
            while len(links[s].commands) == count:
                await asyncio.wait_for(arrived.wait(), 0.5)
                arrived.clear()
            command = links[s].commands[-1]
        except TimeoutError:  # the harness's keys missed (counted): the intended command is applied
            stuck[0] += 1
            if args.debug:
                prompt = app.table.query_one(PromptPanel)
                print("missed:", keys, "intended", intended, "sent", links[s].commands[count:], "prompt depth", prompt.depth, "sent", prompt.sent, "view seq", app.view.seq, g.seq if hasattr(g, "seq") else None, file=sys.stderr)
            command = intended
        key_ms = (time.process_time() - k0) * 1000
        used[s] = len(links[s].commands)
        ev = apply(g, command)
        await post_views(ev)
        return key_ms

    await post_views(events)
    for _ in range(args.warmup):
        await one_move()
        await asyncio.sleep(0.02)
    sampler = CpuSampler() if args.cpu_samples else None
    moves = 0
    key_ms = 0.0
    bytes0 = sum(c.bytes for c in channels)
    frames0 = sum(c.frames for c in channels)
    cpu0 = time.process_time()
    if sampler:
        sampler.start()
    while moves < args.moves and g.phase != "over":
        key_ms += await one_move()
        moves += 1
        await asyncio.sleep(0.02)
    cpu = (time.process_time() - cpu0) * 1000
    if sampler:
        sampler.stop()
        sampler.dump(args.cpu_samples)
    nbytes = sum(c.bytes for c in channels) - bytes0
    frames = sum(c.frames for c in channels) - frames0
    cpu0 = time.process_time()
    for _ in range(moves):
        await asyncio.sleep(0.02)
    idle = (time.process_time() - cpu0) * 1000
    for app in apps:
        app.exit()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "benchmark": "render_keys",
        "size": f"{w}x{h}",
        "seats": args.seats,
        "moves": moves,
        "cpu_ms_per_move": round(max(cpu - idle, 0.0) / moves, 2),
        "key_ms_per_move": round(key_ms / moves, 2),
        "bytes_per_move": round(nbytes / moves),
        "frames_per_move": round(frames / moves, 2),
        "keys_missed": stuck[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seats", type=int, default=6)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", default="120x40")
    ap.add_argument("--term", default="xterm-256color")
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("--cpu-samples", default="", help="write the measured moves' stacks sampled in CPU time")
    args = ap.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
