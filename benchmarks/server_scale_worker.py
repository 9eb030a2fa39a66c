"""`server_scale.py --workers N`: the benchmark's hooks inside each worker of `citadels serve --workers N`.

Not run by hand: benchmarks/server_scale_site/sitecustomize.py imports this module into a process
started as a cluster node (`citadels serve --cluster ...`, the command the --workers parent starts
for each worker) when CITADELS_BENCH_CONTROL names a folder. The worker then runs as it always does
(server/cluster/serve_node.py), with what the single-process harness (server_scale_server.py) adds:
Table._publish reports the watched tables' moves, the GC pauses are timed, and a control socket
`<CITADELS_BENCH_CONTROL>/<node>.sock` answers the same requests as the harness's stdin pipe (stats,
keys, garbage, profile; one JSON object a line, each request's `rid` echoed in its reply), plus the
seating a table of players needs when they are spread over the workers, done through this worker's
lobby as a session's screen does it:

- `sessions`: the keys of the sessions connected to this worker;
- `create` {key, size, name}: that session creates a table (the creator's worker owns it);
- `join` {key, t}: that session joins table t (a table of another worker: a call through the cluster);
- `start` {key, t}: once every seat of t is taken (the owner's table), its creator starts it;
  the reply lists the seats' keys in seat order.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import server_scale_server as harness  # Table._publish is wrapped on import

from server.cluster import serve_node as serve_node_mod
from ui.lobby_link import TableSpec

CONTROL = os.environ.get("CITADELS_BENCH_CONTROL", "")
_run_until_stopped = serve_node_mod._run_until_stopped


async def _run_with_control(node, server, ready, stop):  # type: ignore[no-untyped-def]
    """serve_node's own wait for a signal, with the control socket open meanwhile."""
    harness.state["server"], harness.state["lobby"], harness.state["node"] = server, node.desk.lobby, node
    harness.state["lag"] = asyncio.get_running_loop().create_task(harness.watch_loop())
    lost = node.leases.on_lost

    def lease_lost(table_id: str, reason: str) -> None:
        harness.loop_lag["leases_lost"] = harness.loop_lag.get("leases_lost", 0) + 1
        if lost is not None:
            lost(table_id, reason)

    node.leases.on_lost = lease_lost
    path = Path(CONTROL) / f"{node.node_id}.sock"
    path.unlink(missing_ok=True)
    listener = await asyncio.start_unix_server(_client, path=str(path), limit=1 << 20)
    try:
        await _run_until_stopped(node, server, ready, stop)
    finally:
        listener.close()


async def _client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    harness.sink[0] = lambda line: writer.write(line.encode())  # the reports (`pub`) go to the benchmark
    tasks = set()
    while line := await reader.readline():
        task = asyncio.ensure_future(_answer(json.loads(line), writer))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    harness.sink[0] = lambda line: None


async def _answer(req: dict, writer: asyncio.StreamWriter) -> None:
    try:
        reply = await (_seating(req) if req["cmd"] in SEATING else harness.handle(req))
    except Exception as e:
        reply = {"ev": "error", "cmd": req["cmd"], "error": repr(e)}
    if reply is not None:
        reply["rid"] = req.get("rid")
        writer.write((json.dumps(reply) + "\n").encode())


SEATING = ("sessions", "create", "join", "start")


async def _seating(req: dict) -> dict:
    node = harness.state["node"]
    front = node.front
    cmd = req["cmd"]
    if cmd == "sessions":
        return {"ev": "sessions", "node": node.node_id, "keys": [s.key for s in front.sessions]}
    s = next(x for x in front.sessions if x.key == req["key"])
    if cmd == "create":
        front.create(s, TableSpec(name=req["name"], players=req["size"]))
        harness.watched.add(s.table.id)
        return {"ev": "created", "t": s.table.id}
    if cmd == "join":
        # A player sees another worker's table once its listing reached this worker (the directory).
        await _until(lambda: req["t"] in front.listings, f"table {req['t']} listed on {node.node_id}")
        front.join(s, req["t"])  # another worker's table: sent, answered later (as from a screen)
        return {"ev": "joined"}
    t = node.desk.lobby.tables[req["t"]]
    await _until(lambda: all(x.key is not None for x in t.seats), f"table {t.id}: every seat taken")
    front.start(s)
    return {"ev": "started", "t": t.id, "keys": [seat.key for seat in t.seats]}


async def _until(done, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.05)


def install() -> None:
    serve_node_mod._run_until_stopped = _run_with_control
    gc.callbacks.append(harness._gc_timer)
    harness.sink[0] = lambda line: None  # no benchmark connected yet


install()
