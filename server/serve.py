"""`citadels serve`: the SSH server with its lobby, tables, saves and bots, until SIGINT/SIGTERM.

    run(config, load=[...])       # blocking; returns an exit status

At start: the saves folder is locked (a second server on it is refused),
every unfinished game in it is reloaded (players find their seats when they
reconnect with their keys), each `--load FILE` becomes a table, then the
host key's fingerprint and the ssh command to connect are printed. The players
database (accounts, ratings, history: server/players/) is opened first: a new
one is created, one whose schema is behind is refused with one line (run
`citadels db migrate`); one that cannot be reached lets the server start (the
games go on; records wait in the outbox). Bans are
read from `bans.json` in the saves folder; `citadels admin` reaches the server
through `admin.sock` there (server/admin/). On SIGINT
or SIGTERM every session is told the server is stopping and closed, the
tables stop, and the process exits within a few seconds.

What stops it from starting (a busy port, an unreadable or invalid host key, a
saves folder in use, an unreadable bans file) is one line on stderr and exit
status 1, not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from server import event_loop
from server.admin.bans import BanError, Bans
from server.admin.socket_server import start_admin
from server.app import make_app_factory
from server.config import ServerConfig
from server.event_loop import EventLoopUnavailable
from server.lobby.lobby import Lobby
from server.logging_setup import configure_logging, log_event
from server.players.migrate import SchemaError
from server.players.service import PlayersService
from server.players.url import DatabaseURLError
from server.serving import on_stop_signals, print_connect
from server.storage.folder_sweep import report_sweep
from server.storage.persistence import PersistenceError, SaveStore
from server.transport.ssh import Prepared, StartError, prepare_start, start_server

log = logging.getLogger("citadels.server")


def run(config: ServerConfig, load: list[str] | None = None) -> int:
    configure_logging(json_lines=config.json_logs, level=config.log_level, asyncssh_level=config.asyncssh_log_level)
    try:
        return event_loop.run(serve(config, load or []), config.event_loop)
    except (PersistenceError, BanError, DatabaseURLError, SchemaError, StartError, EventLoopUnavailable) as e:
        print(f"citadels serve: {e}", file=sys.stderr)
        return 1


async def serve(config: ServerConfig, load: list[str], ready: Any = None, stop: asyncio.Event | None = None) -> int:
    store = SaveStore(config.saves_dir)
    store.lock()
    report_sweep(Path(config.saves_dir), workers=1)
    pool = None
    lobby: Lobby | None = None
    players: PlayersService | None = None
    prepared: Prepared | None = None
    started = False
    try:
        bans = Bans(Path(config.saves_dir) / "bans.json")  # read only: nothing made yet
        # The host key and the port next: a server that cannot start makes nothing (no database).
        prepared = await prepare_start(config)
        players = PlayersService.open(config) if config.accounts else None
        if config.bot_kind in ("hard", "expert") and config.bot_workers > 0:
            from server.tables.bot_pool import BotPool

            pool = BotPool(workers=config.bot_workers)
        lobby = Lobby(config, store, pool, bans=bans, players=players)
        if players is not None:
            await players.start()  # games recorded while the database was away, from an earlier run
        resumed = lobby.resume_saved()
        for problem in lobby.problems:
            print(f"warning: a saved game cannot be resumed: {problem}", file=sys.stderr, flush=True)
        for path in load:
            try:
                lobby.load_file(path)
            except Exception as e:  # a bad file is reported, the server runs anyway
                print(f"warning: cannot load {path}: {e}", file=sys.stderr, flush=True)
        for warning in lobby.warnings:  # damaged saves recovered, saves without owners loaded
            print(f"warning: {warning}", file=sys.stderr, flush=True)
        started = True  # start_server frees the port itself if it fails
        server = await start_server(config, make_app_factory(lobby), login_check=bans.banned, prepared=prepared)
        admin = None
        if config.admin_socket:
            try:
                admin = await start_admin(config.saves_dir, lobby, server)
            except OSError as e:
                print(f"warning: no admin socket (citadels admin will not work): {e}", file=sys.stderr, flush=True)
        print_connect(server, config.host)
        if admin is not None:
            print(f"Host tools: citadels admin --saves-dir {config.saves_dir} --help", flush=True)
        if players is not None:
            print(f"Players database: {players.where}", flush=True)
        if resumed:
            print(f"Resumed {len(resumed)} unfinished game(s) from {config.saves_dir}", flush=True)
        log_event(log, logging.INFO, "serving", port=server.port, resumed=len(resumed), saves=config.saves_dir)
        try:
            await _run_until_stopped(server, lobby, ready, stop)
        finally:
            if admin is not None:
                admin.close()
    finally:
        if prepared is not None and not started:
            prepared.close()
        if lobby is not None:
            await lobby.close()
        if players is not None:
            await players.close()
        if pool is not None:
            await pool.close()
        store.unlock()
    return 0


async def _run_until_stopped(server: Any, lobby: Lobby, ready: Any, stop: asyncio.Event | None) -> None:
    stop = stop or asyncio.Event()
    with on_stop_signals(stop.set):
        if ready is not None:
            ready(server, lobby)
        await stop.wait()
        print("Stopping...", file=sys.stderr, flush=True)
        await server.close()
