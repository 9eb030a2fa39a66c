"""What the players database costs a login. ONE JSON line.

    python benchmarks/players_login.py [--rounds 15] [--preload 10000] [--dir DIR]

A real SSH server in this process (lobby, tables, saves) and real asyncssh clients, each
timed from the start of its connection to the first frame of the lobby on its screen
("Citadels · lobby"), in four cases measured in turn (interleaved, so that the shared
machine's load falls on all of them alike):

- `no_database`: `accounts = false` (keys are identities, as before the players database);
- `known_key`: the key has played here before (its player is in memory);
- `new_key`: a key's first connection (its player is made in the database after the lobby shows);
- `locked_new_key`: the same while another process holds SQLite's write lock (every database
  call waits 5 s and fails: the session goes on without its account).

The database holds `--preload` players with a key each, read into memory at start as a
server does. Also: the in-memory part of a login (`Lobby.account_arrives` with that many keys
known), timed alone. Median and 95th percentile in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncssh
from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.app import make_app_factory
from server.config import ServerConfig
from server.lobby.lobby import Lobby
from server.players.schema import player_keys, players
from server.players.service import PlayersService
from server.storage.persistence import SaveStore
from server.transport.ssh import start_server

ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78NOMDEHc]")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def ms(xs: list[float]) -> dict:
    return {"median_ms": round(statistics.median(xs) * 1000, 2), "p95_ms": round(pct(xs, 0.95) * 1000, 2), "n": len(xs)}


def fill(db_path: Path, n: int) -> None:
    """n people with one key each, as if they had played here."""
    from server.players.migrate import upgrade
    from server.players.url import make_engine

    engine = make_engine(f"sqlite:///{db_path}")
    upgrade(engine)
    now = datetime.now(UTC)
    with engine.begin() as c:
        c.execute(insert(players), [{"kind": "person", "created_at": now, "last_seen_at": now} for _ in range(n)])
        c.execute(
            insert(player_keys),
            [
                {"fingerprint": f"SHA256:preloaded{i}", "player_id": i + 1, "added_at": now, "last_used_at": now}
                for i in range(n)
            ],
        )
    engine.dispose()


async def start(folder: Path, accounts: bool) -> tuple[Any, Lobby, SaveStore, PlayersService | None]:
    config = ServerConfig(
        port=0,
        keys_dir=str(folder / "keys"),
        saves_dir=str(folder / "saves"),
        gc_tuning=False,
        accounts=accounts,
        max_concurrent_app_starts=8,
    )
    store = SaveStore(config.saves_dir)
    store.lock()
    service = PlayersService.open(config) if accounts else None
    if service is not None:
        await service.start()
    lobby = Lobby(config, store, players=service)
    server = await start_server(config, make_app_factory(lobby))
    return server, lobby, store, service


async def to_lobby(port: int, key: asyncssh.SSHKey) -> float:
    t0 = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username="bench", client_keys=[key], known_hosts=None, agent_path=None, config=None
    )
    try:
        proc = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        seen = b""
        while b"Citadels \xc2\xb7 lobby" not in ANSI.sub(b"", seen):
            chunk = await asyncio.wait_for(proc.stdout.read(65536), 20)
            if not chunk:
                raise RuntimeError("output ended before the lobby")
            seen += chunk
        return time.perf_counter() - t0
    finally:
        conn.close()
        await conn.wait_closed()


async def main(args: argparse.Namespace) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="players-login-", dir=args.dir))
    (folder / "db" / "saves").mkdir(parents=True)
    fill(folder / "db" / "saves" / "players.sqlite3", args.preload)
    plain = await start(folder / "plain", accounts=False)
    withdb = await start(folder / "db", accounts=True)
    known = asyncssh.generate_private_key("ssh-ed25519")
    await to_lobby(withdb[0].port, known)  # its player made now; later connections find it in memory
    await asyncio.sleep(0.5)
    times: dict[str, list[float]] = {"no_database": [], "known_key": [], "new_key": [], "locked_new_key": []}
    for _ in range(args.rounds):
        times["no_database"].append(await to_lobby(plain[0].port, asyncssh.generate_private_key("ssh-ed25519")))
        times["known_key"].append(await to_lobby(withdb[0].port, known))
        times["new_key"].append(await to_lobby(withdb[0].port, asyncssh.generate_private_key("ssh-ed25519")))
        holder = sqlite3.connect(folder / "db" / "saves" / "players.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            times["locked_new_key"].append(await to_lobby(withdb[0].port, asyncssh.generate_private_key("ssh-ed25519")))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    # The in-memory part alone: what `connect` adds with that many keys known.
    lobby = withdb[1]

    class Session:
        guest = False
        key = "SHA256:preloaded77"
        name = "bench"
        table = None
        seat = None

    lobby.sessions.add(s := Session())
    lobby._spawn = lambda coro: coro.close()  # type: ignore[method-assign]  # time the memory part only
    arrive = []
    for _ in range(2000):
        t0 = time.perf_counter()
        lobby.account_arrives(s)
        arrive.append(time.perf_counter() - t0)
    lobby.sessions.discard(s)
    for server, lob, store, service in (plain, withdb):
        await server.close()
        await lob.close()
        if service is not None:
            await service.close()
        store.unlock()
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "benchmark": "players_login",
        "preloaded_keys": args.preload,
        "to_lobby": {k: ms(v) for k, v in times.items()},
        "account_arrives_us": round(statistics.median(arrive) * 1e6, 2),
    }


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--preload", type=int, default=10_000)
    p.add_argument("--dir", default=None, help="where the temporary folders go (default: the system's)")
    print(json.dumps(asyncio.run(main(p.parse_args()))))
