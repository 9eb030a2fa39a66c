"""The server side of benchmarks/abuse.py (run by it, not by hand).

`python benchmarks/abuse_server.py '<json spec>'` with the repository as the working folder:
benchmarks/server_scale_server.py's server (`citadels serve`'s `serve()`, its control pipe, its
report of each watched table's moves), with the commands the attacks need. They act as a
session's lobby screen and table menu do: through the session's `PlayerSession` (the LobbyLink
and TableLink the screens call), found by key or by SSH user name. Each reply is one JSON line;
an exception is a reply too ({"ev": "error"}), so that an API that changed on a branch shows in
the benchmark's result instead of stopping it.
"""

import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import server_scale_server as base

from ui.lobby_link import TableSpec

state = base.state
lags: list = []  # the server loop's lateness (ms) waking a 10 ms sleep, since the last "admission"
long_lags: list = []  # [seconds since the last "admission", ms, CPU ms] of lags over 100 ms
slow_callbacks: list = []  # [ms, CPU ms, callback] of loop callbacks over 50 ms (ABUSE_SLOW_CALLBACKS=1)
lag_origin = [0.0]


async def lag_monitor():
    """How late the loop wakes a 10 ms sleep: what a key press waits for behind other work."""
    loop = asyncio.get_running_loop()
    while True:
        t0, cpu0 = loop.time(), time.thread_time()
        await asyncio.sleep(0.01)
        lag = (loop.time() - t0 - 0.01) * 1000
        lags.append(lag)
        if lag > 100 and len(long_lags) < 50:
            # the CPU this thread had meanwhile: far below the lag, the process was not running
            cpu = (time.thread_time() - cpu0) * 1000
            long_lags.append([round(t0 - lag_origin[0], 2), round(lag), round(cpu)])
        if len(lags) > 100_000:
            del lags[:50_000]


def lag_summary():
    values = sorted(lags)
    lags.clear()
    over = list(long_lags)
    long_lags.clear()
    lag_origin[0] = asyncio.get_running_loop().time()
    if not values:
        return {}
    at = lambda q: round(values[min(len(values) - 1, int(q * len(values)))], 1)
    return {
        "loop_lag_ms_p50": at(0.5),
        "loop_lag_ms_p95": at(0.95),
        "loop_lag_ms_max": round(values[-1], 1),
        "loop_lags_over_100ms": over,
        **({"slow_callbacks": _slow_callbacks()} if os.environ.get("ABUSE_SLOW_CALLBACKS") else {}),
    }


def _slow_callbacks():
    out = sorted(slow_callbacks, key=lambda c: c[1], reverse=True)[:25]  # by CPU: wall includes waits for the core
    slow_callbacks.clear()
    return out


def _what(handle, cb) -> str:
    """A slow callback: its task's coroutine and the Textual app (its SSH user) it ran for."""
    task = getattr(cb, "__self__", None)
    what = getattr(cb, "__qualname__", None) or repr(handle)[:80]
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        what = getattr(coro, "__qualname__", repr(coro))
    from textual._context import active_app

    app = handle._context.get(active_app) if handle._context is not None else None
    user = getattr(getattr(getattr(app, "session", None), "info", None), "username", None)
    return f"{what} app={user}"


def time_callbacks():
    """Diagnosis: record each loop callback over 50 ms (ABUSE_SLOW_CALLBACKS=1; a number above 1 is
    the threshold in ms) with its wall and this thread's CPU time, and what it ran."""
    run = asyncio.events.Handle._run
    threshold = float(os.environ.get("ABUSE_SLOW_CALLBACKS") or 1)
    threshold = threshold if threshold > 1 else 50.0

    def timed(handle):
        callback = handle._callback  # before it runs: a timer's handle forgets it once run
        t0, c0 = time.perf_counter(), time.thread_time()
        run(handle)
        ms = (time.perf_counter() - t0) * 1000
        if ms > threshold and len(slow_callbacks) < 500:
            cpu = (time.thread_time() - c0) * 1000
            slow_callbacks.append([round(ms), round(cpu), _what(handle, callback)])

    asyncio.events.Handle._run = timed


KEEP = (
    "resize_requests",
    "resizes_posted",
    "connection_holds",
    "input_holds",
    "input_deferrals",
    "keys_dropped",
    "input_cpu_charged_s",
)


def storm_sessions():
    """Input figures of the attackers' sessions (user names storm*)."""
    stats = state["server"].session_stats()
    return [{k: s.get(k) for k in KEEP} for s in stats if str(s.get("user", "")).startswith("storm")]


_seen_legit = set()


def legit_first_frames():
    """Server-side time to lobby (TCP accept to first frame, ms) of the legitimate players since the
    last call: the client's own delays (its CPU, its key exchange) left out."""
    out = []
    for s in [*state["server"].ended_session_stats, *state["server"].session_stats()]:
        legit = str(s.get("user", "")).startswith("legit") and s.get("session") not in _seen_legit
        if legit and s.get("first_frame_ms") is not None:
            _seen_legit.add(s.get("session"))
            out.append(s["first_frame_ms"])
    return out


def victim_sessions():
    """The victims' (user names v*) input figures, summed: are people ever held?"""
    stats = [s for s in state["server"].session_stats() if str(s.get("user", "")).startswith("v")]
    return {
        "sessions": len(stats),
        "input_holds": sum(s.get("input_holds", 0) for s in stats),
        "keys_dropped": sum(s.get("keys_dropped", 0) for s in stats),
        "input_cpu_charged_s_max": max((s.get("input_cpu_charged_s", 0) for s in stats), default=0),
    }


def session(req):
    lobby = state["lobby"]
    for s in list(lobby.sessions):
        if ("key" in req and s.key == req["key"]) or ("user" in req and s.info.username == req["user"]):
            return s
    raise LookupError(f"no session for {req}")


def _gc_pauses():
    """Garbage collections over 10 ms since the last call: [generation, ms, objects freed]."""
    recent = list(base.gc_recent)
    base.gc_recent.clear()
    return recent


def tables_summary():
    lobby = state["lobby"]
    phases = {}
    for t in lobby.tables.values():
        phases[t.phase] = phases.get(t.phase, 0) + 1
    return {"tables": len(lobby.tables), "phases": phases}


class BotCreator:  # the creator of an all-bot table: never connected
    guest = False

    def __init__(self, n):
        self.key, self.name, self.table, self.seat, self.at_table = f"abuse-bots-{n}", f"bots{n}", None, None, False

    def post(self, message):
        pass

    def enter_table(self, table, seat):
        pass


async def handle(req):
    lobby = state["lobby"]
    server = state["server"]
    cmd = req["cmd"]
    if cmd == "admission":
        return {
            "ev": "admission",
            **server.admission_stats(),
            **tables_summary(),
            **lag_summary(),
            "gc_pauses_over_10ms": _gc_pauses(),
            "storm_sessions": storm_sessions(),
            "victim_sessions": victim_sessions(),
            "legit_first_frame_ms": legit_first_frames(),
        }
    if cmd == "profile":  # cProfile the server between two requests (diagnosis)
        import cProfile

        if req["on"]:
            state["profile"] = cProfile.Profile()
            state["profile"].enable()
        else:
            state["profile"].disable()
            state["profile"].dump_stats(req["path"])
        return {"ev": "profile"}
    if cmd == "tables":
        return {"ev": "tables", **tables_summary()}
    if cmd == "create":
        s = session(req)
        spec = TableSpec(name=req.get("name", ""), players=req.get("players", 4), bots=req.get("bots", 0))
        error = s.create(spec)
        return {"ev": "created", "error": error, "t": s.table.id if s.table is not None else None}
    if cmd == "join":
        return {"ev": "joined", "error": session(req).join(req["t"])}
    if cmd == "start":
        return {"ev": "started", "error": session(req).start()}
    if cmd == "export":
        s = session(req)
        error = await s.save_as(req["name"])
        folder = Path(lobby.config.saves_dir) / "exports"
        files = sorted(p.name for p in folder.glob("*")) if folder.exists() else []
        return {"ev": "exported", "error": error, "files": files}
    if cmd == "saved":
        return {"ev": "saved", "names": list(session(req).saved_games())}
    if cmd == "load":
        s = session(req)
        before = len(lobby.tables)
        error = s.load_saved(req["name"])
        return {"ev": "loaded", "error": error, "new_tables": len(lobby.tables) - before, **tables_summary()}
    if cmd == "rename":
        s = session(req)
        error = s.rename(req["name"])
        return {"ev": "renamed", "error": error, "name": s.name}
    if cmd == "notice":
        lobby.tables[req["t"]].notice(req["text"])
        return {"ev": "noticed"}
    if cmd == "seq":
        t = lobby.tables.get(req["t"])
        return {"ev": "seq", "seq": None if t is None or t.state is None else t.state.seq, "phase": t and t.phase}
    if cmd == "botgame":
        creator = BotCreator(req.get("n", 0))
        t = lobby.create(creator, TableSpec(name="bit flip", players=4, bots=3, bot_kind="normal"))
        lobby.start(creator)
        t.replace_with_bot(0, "normal")
        return {"ev": "botgame", "t": t.id}
    if cmd == "resumed":
        return {
            "ev": "resumed",
            "tables": {t.id: (t.state.seq if t.state is not None else None) for t in lobby.tables.values()},
            "problems": [str(p) for p in getattr(lobby, "problems", [])],
        }
    raise ValueError(f"unknown command {cmd!r}")


async def control(stop):
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            stop.set()
            return
        req = json.loads(line)
        cmd = req["cmd"]
        try:
            if cmd == "seat":
                base.out({"ev": "seated", "tables": base.seat(req["groups"])})
            elif cmd == "stats":
                base.out({**base.stats(), "admission": state["server"].admission_stats()})
            elif cmd == "keys":
                t = state["lobby"].tables.get(req["t"])
                if t is not None and t.state is not None:
                    base.report(t)
            else:
                base.out(await handle(req))
        except Exception as e:
            base.out({"ev": "error", "cmd": cmd, "error": repr(e)})


async def main(spec):
    from server.config import ServerConfig
    from server.serve import serve

    config = ServerConfig(port=0, keys_dir=spec["keys"], saves_dir=spec["saves"], log_level="WARNING", **spec["config"])
    stop = asyncio.Event()

    def ready(server, lobby):
        state["server"], state["lobby"] = server, lobby
        base.out({"ev": "ready", "port": server.port})
        asyncio.get_running_loop().create_task(control(stop))
        asyncio.get_running_loop().create_task(lag_monitor())

    await serve(config, [], ready=ready, stop=stop)


if __name__ == "__main__":
    import gc

    gc.callbacks.append(base._gc_timer)
    if os.environ.get("ABUSE_SLOW_CALLBACKS"):
        time_callbacks()
    asyncio.run(main(json.loads(sys.argv[1])))
