"""What countdowns cost an idle table: the server's CPU and the bytes its players receive.

    python benchmarks/countdown_cost.py [--players 5] [--seconds 20] [--step 1]

The game server (lobby, tables, SSH) runs in this process; the players are asyncssh PTY
clients at 80x24 in a subprocess (so that this process's CPU is the server's alone). One table
of `players` people, nobody moving (no turn timer, a long idle wait). Three windows of
`seconds` each, measured one after the other in the same run:

- idle: everyone connected, the game waiting for a decision;
- away_countdown: one player disconnected, every other screen counting down to the bot
  (the idle wait is longer than the window: the countdown runs throughout);
- turn_clock: another server and table, everyone connected, with the relaxed turn timer (made
  longer than the window): the deciding player's prompt counts down.

Prints ONE JSON line: per window the server's CPU in percent of one core, the frames drawn
the server sent per second (all sessions) and the bytes per second all clients received. `--step 1` redraws a
countdown every second (what the modest rate avoids), for comparison. The machine is shared
and noisy: compare the windows of one run with each other, not with another run's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.getcwd())  # run with the repository as the working folder
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "server"))


# --- the clients' process ---------------------------------------------------------------------------
async def clients_main(port: int, players: int) -> None:
    import asyncssh

    procs: dict[int, tuple] = {}
    received = [0] * players

    async def reader(i: int, proc) -> None:
        while True:
            data = await proc.stdout.read(65536)
            if not data:
                return
            received[i] += len(data)

    async def connect(i: int) -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username=f"p{i}",
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
            config=None,
            password=None,
        )
        proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        procs[i] = (conn, proc, asyncio.ensure_future(reader(i, proc)))

    for i in range(players):
        await connect(i)
    print(json.dumps({"ready": players}), flush=True)
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    while True:
        line = (await stdin.readline()).decode().strip()
        if not line or line == "quit":
            break
        cmd, _, arg = line.partition(" ")
        if cmd == "close":
            conn, _proc, task = procs.pop(int(arg))
            conn.close()
            task.cancel()
            print(json.dumps({"closed": int(arg)}), flush=True)
        elif cmd == "bytes":
            print(json.dumps({"bytes": sum(received)}), flush=True)
    for conn, _proc, task in procs.values():
        conn.close()
        task.cancel()


# --- the server's process (this one) -----------------------------------------------------------------
async def server_main(players: int, seconds: float, timed: bool) -> dict:
    from game_helpers import start_game_server

    from ui.lobby_link import TableSpec

    tmp = tempfile.TemporaryDirectory(prefix="countdown-cost-")
    from pathlib import Path

    gs = await start_game_server(Path(tmp.name), idle_wait_seconds=10 * seconds + 60, turn_timer_relaxed_seconds=600)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--clients",
        str(gs.server.port),
        "--players",
        str(players),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )

    async def ask(line: str) -> dict:
        child.stdin.write((line + "\n").encode())
        await child.stdin.drain()
        return json.loads(await child.stdout.readline())

    async def until(pred, what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise SystemExit(f"countdown_cost: {what} not reached")
            await asyncio.sleep(0.05)

    try:
        assert json.loads(await child.stdout.readline())["ready"] == players
        await until(lambda: len(gs.lobby.sessions) == players, "every session in the lobby")
        people = sorted(gs.lobby.sessions, key=lambda s: s.name)

        async def table_of(timer: str):
            creator = people[0]
            t = gs.lobby.create(creator, TableSpec(players=players, bots=0, timer=timer))
            for p in people[1:]:
                gs.lobby.join(p, t.id)
            gs.lobby.start(creator)
            await until(lambda: t.phase == "playing", "the game's start")
            await until(lambda: all(p.app is not None and p.app.view is not None for p in people if p.app), "views")
            return t

        def sent() -> tuple[int, int]:
            stats = [x for x in gs.server.session_stats() if x.get("open")]
            return sum(x.get("frames_sent", 0) for x in stats), sum(x.get("bytes_sent", 0) for x in stats)

        async def window(name: str) -> dict:
            await asyncio.sleep(2.0)  # let the last changes settle
            b0 = (await ask("bytes"))["bytes"]
            (f0, _), c0, t0 = sent(), time.process_time(), time.monotonic()
            await asyncio.sleep(seconds)
            c1, t1, (f1, _) = time.process_time(), time.monotonic(), sent()
            b1 = (await ask("bytes"))["bytes"]
            wall = t1 - t0
            return {
                "cpu_pct": round(100 * (c1 - c0) / wall, 2),
                "frames_per_s": round((f1 - f0) / wall, 2),
                "bytes_per_s": round((b1 - b0) / wall, 1),
            }

        if timed:  # the relaxed turn timer: the deciding player's prompt counts down
            await table_of("relaxed")
            return {"turn_clock": await window("turn")}
        table = await table_of("off")
        result = {"idle": await window("idle")}
        leaver = people[-1]
        seat = table.seat_of(leaver.key)
        await ask(f"close {people.index(leaver)}")
        await until(lambda: table.seats[seat].client is None, "the player away")
        result["away_countdown"] = await window("away")
        return result
    finally:
        try:
            child.stdin.write(b"quit\n")
            await child.stdin.drain()
            await asyncio.wait_for(child.wait(), 10)
        except Exception:
            child.kill()
        await gs.close()
        tmp.cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument(
        "--step",
        type=int,
        default=None,
        help="a countdown label's step above 10 s (default ui.feedback's; 1: every second)",
    )
    ap.add_argument("--clients", type=int, default=None, help=argparse.SUPPRESS)  # the clients' process: the port
    args = ap.parse_args()
    if args.clients is not None:
        asyncio.run(clients_main(args.clients, args.players))
        return
    if args.step is not None:
        from ui import feedback

        feedback.COARSE_STEP = args.step
    result = asyncio.run(server_main(args.players, args.seconds, timed=False))
    result.update(asyncio.run(server_main(args.players, args.seconds, timed=True)))
    from ui import feedback

    step = feedback.COARSE_STEP
    print(json.dumps({"players": args.players, "seconds": args.seconds, "label_step_s": step, **result}))


if __name__ == "__main__":
    main()
