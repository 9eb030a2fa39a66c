"""The server side of benchmarks/server_scale.py (run by it, not by hand).

`python benchmarks/server_scale_server.py '<json spec>'` with the repository as the working
folder: `citadels serve`'s `serve()` with a control pipe on stdin/stdout (one JSON object a line:
seat players at tables, stats, key paths of the seat to move, hard-bot tables, profiling, a full
collection at the end). Table._publish is wrapped to report each move of the watched tables.
"""

import asyncio
import cProfile
import functools
import gc
import json
import os
import random
import sys
import time

sys.path.insert(0, os.getcwd())  # run with the repository as the working folder
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "server"))
# An editable install's finder would resolve a module this revision lacks from the installed tree (a
# baseline's `server.tables` from the main checkout): only the working folder's code is imported.
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
from cpu_sampler import CpuSampler  # noqa: E402
from game_helpers import key_path  # noqa: E402

from engine import view as engine_view  # noqa: E402
from server.config import ServerConfig  # noqa: E402
from server.serve import serve  # noqa: E402
from ui import CitadelsApp  # noqa: E402
from ui.i18n import Catalogue  # noqa: E402
from ui.lobby_link import TableSpec  # noqa: E402

try:
    from server.tables import table as table_mod
except ImportError:  # a revision before server/tables/ (e.g. ae6c508)
    from server import table as table_mod  # type: ignore[no-redef]
try:
    from ui.prompt_keys import Numbering
except ImportError:  # a revision whose menus number their entries from 1 each time
    Numbering = None

args: dict = {}  # the spec, read when run as the main script
cat = Catalogue("en")
rng = random.Random(7)
watched = set()
key_numbers: dict = {}  # (table, seat) -> ui.prompt_keys.Numbering
hard = set()
state = {"hook_s": 0.0, "server": None, "lobby": None, "profile": None, "hard_started": 0, "lag": None}


def _to_stdout(line: str) -> None:
    sys.stdout.write(line)
    sys.stdout.flush()


sink = [_to_stdout]  # where the reports go: stdout here; a worker's control socket (server_scale_worker.py)


def out(obj):
    sink[0](json.dumps(obj) + "\n")


def report(t):
    t0 = time.perf_counter()
    st = t.state
    msg = {"ev": "pub", "t": t.id, "seq": st.seq, "over": st.phase == "over"}
    seat = st.pending.seat
    if st.phase != "over" and 0 <= seat < len(t.seats):
        if Numbering is None:
            keys, _ = key_path(engine_view(st, seat), cat, rng)
        else:
            numbers = key_numbers.setdefault((t.id, seat), Numbering())  # as the seat's screen numbers its entries
            keys, _ = key_path(engine_view(st, seat), cat, rng, numbers)
        msg["seat"], msg["keys"] = seat, keys.hex()
    out(msg)
    state["hook_s"] += time.perf_counter() - t0


_publish = table_mod.Table._publish


def publish(self, events, *args, **kw):
    # The move is published when its messages are built (before they are posted, one session per
    # loop iteration on branches that yield: that spread counts in publish-to-screen).
    out = _publish(self, events, *args, **kw)
    if self.id in watched:
        report(self)
    elif self.id in hard and self.state.phase == "over":
        hard.discard(self.id)
        asyncio.get_running_loop().call_soon(new_hard_table)
    return out


table_mod.Table._publish = publish

views_taken = [0]  # view updates taken in by the screens (CitadelsApp.on_view_update), all sessions
_on_view_update = CitadelsApp.on_view_update


@functools.wraps(_on_view_update)  # its signature (self, message) -> None: the server's direct call of
def on_view_update(self, msg) -> None:  # the handler stays as without the harness (ui/compat/direct_messages.py)
    views_taken[0] += 1
    _on_view_update(self, msg)


CitadelsApp.on_view_update = on_view_update

loop_lag = {"max_ms": 0.0, "over_250ms": 0, "over_1s": 0}  # the event loop's lateness, whole run


async def watch_loop(period: float = 0.05) -> None:
    """How late the loop wakes a sleeper: a stall (one long step, or the process not scheduled)."""
    loop = asyncio.get_running_loop()
    while True:
        t0 = loop.time()
        await asyncio.sleep(period)
        late = loop.time() - t0 - period
        loop_lag["max_ms"] = max(loop_lag["max_ms"], late * 1000)
        loop_lag["over_250ms"] += late > 0.25
        loop_lag["over_1s"] += late > 1.0


lobby_sends = {"broadcasts": 0, "updates": 0, "s": 0.0, "max_ms": 0.0}  # the lobby's coalesced broadcasts


def _time_broadcasts():
    """Time the lobby's broadcasts (a snapshot for each session in the lobby; a revision without
    server/lobby/snapshots.py is left as it is)."""
    try:
        from server.lobby.snapshots import LobbyViews
    except ImportError:
        return
    original = LobbyViews._broadcast

    def timed(self):
        t0 = time.perf_counter()
        original(self)
        dt = time.perf_counter() - t0
        lobby_sends["broadcasts"] += 1
        lobby_sends["updates"] += sum(1 for x in self.sessions if not x.at_table)
        lobby_sends["s"] += dt
        lobby_sends["max_ms"] = max(lobby_sends["max_ms"], dt * 1000)

    LobbyViews._broadcast = timed


_time_broadcasts()


class Dummy:  # the creator of a bot table: never connected
    guest = False

    def __init__(self, n):
        self.key, self.name, self.table, self.seat, self.at_table = f"bench-hard-{n}", f"hard{n}", None, None, False

    def post(self, message):
        pass

    def enter_table(self, table, seat):
        pass


def new_hard_table():
    lobby = state["lobby"]
    n = state["hard_started"] = state["hard_started"] + 1
    d = Dummy(n)
    t = lobby.create(d, TableSpec(name=f"hard {n}", players=5, bots=4, bot_kind="hard"))
    lobby.start(d)
    t.replace_with_bot(0, "hard")
    hard.add(t.id)


def seat(groups):
    lobby = state["lobby"]
    by_key = {s.key: s for s in lobby.sessions}
    tables = []
    for g in groups:
        players = [by_key[k] for k in g]
        t = lobby.create(players[0], TableSpec(name=f"bench {len(watched)}", players=len(g)))
        for p in players[1:]:
            lobby.join(p, t.id)
        watched.add(t.id)
        lobby.start(players[0])
        tables.append({"id": t.id, "keys": [s.key for s in t.seats]})
    return tables


gc_pauses: dict = {}  # generation -> longest pause (ms) of any collection, automatic ones included
gc_recent: list = []  # collections over 10 ms since the last stats request: [generation, ms, freed]
_gc_started = [0.0]


def _gc_timer(phase, info):
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    else:
        ms = (time.perf_counter() - _gc_started[0]) * 1000
        gen = info["generation"]
        gc_pauses[gen] = max(gc_pauses.get(gen, 0.0), ms)
        if ms > 10:
            gc_recent.append([gen, round(ms, 1), info.get("collected", 0)])


def _called_directly() -> int:
    """View updates whose handlers the server called directly (ui/compat/direct_messages.py; 0 on a
    revision without it): with the harness's hook above they must be as many as on a plain server."""
    try:
        from ui.compat.direct_messages import STATS
    except ImportError:
        return 0
    return STATS["called"]


def stats(frozen=False):
    server, lobby = state["server"], state["lobby"]
    sessions = server.session_stats()
    pool = lobby.pool
    recent = list(gc_recent)
    gc_recent.clear()
    return {
        "ev": "stats",
        "sessions": server.session_count,
        "hook_s": state["hook_s"],
        "gc": {
            "collections": server.gc.collections,
            "last_collect_ms": round(server.gc.last_collect_ms, 1),
            "young_collections": server.gc.young_collections,
            "max_young_ms": round(server.gc.max_young_ms, 1),
            "paced_collections": server.gc.paced_collections,
            "max_paced_ms": round(server.gc.max_paced_ms, 1),
            # the pacer's shortest wait so far (adaptive on branches that have it; absent on older ones)
            "min_pace_ms": round(getattr(server.gc, "min_pace_seconds", 0.0) * 1000, 1) or None,
            "max_pause_ms": {str(g): round(ms, 1) for g, ms in gc_pauses.items()},
            "pauses_over_10ms": recent,
            "freezes": server.gc.freezes,
            "frozen_objects": gc.get_freeze_count() if frozen else None,  # O(n): 0.3 s at 2 M objects
            "counts": gc.get_count(),
            "gen_stats": [s["collections"] for s in gc.get_stats()],
        },
        "commands": sum(t.commands for t in lobby.tables.values() if t.id in watched),
        "bot_moves": sum(t.bot_moves for t in lobby.tables.values()),
        "hard_tables": len(hard),
        "hard_games_started": state["hard_started"],
        "pool": None if pool is None else {"decisions": pool.decisions, "fallbacks": pool.fallbacks},
        "lobby_broadcasts": {k: round(v, 3) for k, v in lobby_sends.items()},
        "loop_lag": {k: round(v, 1) for k, v in loop_lag.items()},
        # the work a move makes, counted (each window's difference over its moves): screens' view
        # updates, frames and bytes sent, loop steps; so two servers' CPU per move can be told apart
        # by how much they did and by how much each piece cost
        "work": {
            "view_updates": views_taken[0],
            "view_updates_called_directly": _called_directly(),
            "frames": sum(s.get("frames_sent", 0) for s in sessions),
            "bytes": sum(s.get("bytes_sent", 0) for s in sessions),
        },
        "dropped_frames": sum(s.get("frames_dropped", 0) for s in sessions),
    }


async def control(stop):
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            stop.set()
            return
        req = json.loads(line)
        reply = await handle(req)
        if reply is not None:
            out(reply)


async def handle(req):
    """One control request: its reply (None for `keys`, whose answer is a `pub` report)."""
    cmd = req["cmd"]
    try:
        if cmd == "seat":
            return {"ev": "seated", "tables": seat(req["groups"])}
        if cmd == "stats":
            return stats(req.get("frozen", False))
        if cmd == "garbage":
            return garbage()
        if cmd == "keys":
            t = state["lobby"].tables.get(req["t"])
            if t is not None and t.state is not None:
                report(t)
            return None
        if cmd == "hard":
            if state["lobby"].pool is not None:
                await state["lobby"].pool.warm_up()
            for _ in range(req["k"]):
                new_hard_table()
            return {"ev": "hard", "tables": len(hard), "pids": [p.pid for p in multiprocessing_children()]}
        if (
            cmd == "probe"
        ):  # the loop-lateness probe off for the quiet window: its 20 wakes a second are not the server's
            if state["lag"] is not None:
                state["lag"].cancel()
                state["lag"] = None
            if req["on"]:
                state["lag"] = asyncio.get_running_loop().create_task(watch_loop())
            return {"ev": "probe"}
        if cmd == "profile":
            if req["on"]:
                if req.get("cpu"):  # CPU-time samples (benchmarks/cpu_sampler.py), not cProfile's wall time
                    state["profile"] = CpuSampler()
                    state["profile"].start()
                else:
                    state["profile"] = cProfile.Profile()
                    state["profile"].enable()
            elif isinstance(state["profile"], cProfile.Profile):
                state["profile"].disable()
                state["profile"].dump_stats(req["path"])
            else:
                state["profile"].stop()
                state["profile"].dump(req["path"])
            return {"ev": "profile"}
        return {"ev": "error", "cmd": cmd, "error": "unknown command"}
    except Exception as e:
        return {"ev": "error", "cmd": cmd, "error": repr(e)}


def garbage():
    """What a full collection would find: cycles left among frozen objects."""
    t0 = time.perf_counter()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    if args.get("garbage_types"):
        gc.set_debug(gc.DEBUG_SAVEALL)
    found = gc.collect()
    kinds = {}
    if args.get("garbage_types"):
        gc.set_debug(0)
        for obj in gc.garbage:
            kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
            kinds[kind] = kinds.get(kind, 0) + 1
        gc.garbage.clear()
    gc.freeze()
    top = dict(sorted(kinds.items(), key=lambda kv: -kv[1])[: args.get("garbage_types", 0)])
    return {
        "ev": "garbage",
        "objects": found,
        "frozen_before": frozen,
        "ms": round((time.perf_counter() - t0) * 1000, 1),
        **({"types": top} if top else {}),
    }


def multiprocessing_children():
    import multiprocessing

    return multiprocessing.active_children()


def known(settings: dict) -> dict:
    """The settings this revision's ServerConfig has (a baseline from before a limit or the admission
    gate has fewer: its server has no such limit to lift)."""
    return {k: v for k, v in settings.items() if k in ServerConfig.__struct_fields__}


async def main():
    config = ServerConfig(
        **known(
            dict(
                port=0,
                keys_dir=args["keys"],
                saves_dir=args["saves"],
                max_sessions_per_address=100000,
                max_sessions=100000,
                max_tables=10000,
                max_tables_per_address=100000,  # every simulated player connects from 127.0.0.1
                log_level="WARNING",
                bot_kind=args["bots"],
                gc_collect_interval_seconds=args["gc_interval"],
                gc_quiet_seconds=1.0,
                # every simulated player connects from 127.0.0.1, 10 at a time: exempt from the admission gate's
                # per-source limits
                admission_exempt=["127.0.0.0/8"],
            )
        ),
        **args.get("overrides", {}),
    )
    stop = asyncio.Event()

    def ready(server, lobby):
        state["server"], state["lobby"] = server, lobby
        out({"ev": "ready", "port": server.port})
        state["lag"] = asyncio.get_running_loop().create_task(watch_loop())
        asyncio.get_running_loop().create_task(control(stop))

    await serve(config, [], ready=ready, stop=stop)


# Only as the main script: the bot pool's workers (forkserver) import this file again as
# __mp_main__, where reading argv and serving would kill them (BrokenProcessPool).
if __name__ == "__main__":
    args.update(json.loads(sys.argv[1]))
    gc.callbacks.append(_gc_timer)
    asyncio.run(main())
