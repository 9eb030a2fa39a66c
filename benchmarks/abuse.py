"""Benchmark: the attacks of issue 18 against a real server on loopback; prints ONE JSON line.

    python benchmarks/abuse.py [--window 20] [--tries 60]          # ~5 minutes

The server (benchmarks/abuse_server.py: `citadels serve`'s server with its production limits, a
control pipe) runs in a subprocess pinned to CPU 0; the benchmark's players and the attackers
(their own processes, niced) share the other CPU. Each group of clients connects from its own
loopback addresses (127.0.x.y), so the server's per-address limits are its real ones.

Victims: six tables of five people (keys, 120x40) playing in the background (a move every 2 s
per table: each person moves every 10 s, faster than people play); each try is one
move's key press to the first bytes of the change at another seat's terminal (server_scale's
probes). A legitimate player (a new key, 127.0.0.1) connects now and then: "time to lobby" is
from connect to the lobby's first line. For each phase: those figures, the server's CPU and RSS,
and the refusals by cause (the server's admission counters).

Phases (each bounded in count and time):
- quiet: the baseline, no attack;
- silent: 1,000 TCP connections from 100 addresses (127.0.0.2-101) that send nothing, each
  renewed when the server closes or refuses it;
- resize: 5 sessions at a table changing their window (up to 500x200) as fast as they can;
- keys: 5 sessions at a table sending expensive keys (Tab, Ctrl+Q, arrows) as fast as they can;
  after each storm's window, the storm is held and resumed in turns (--slices pairs of --slice
  seconds): "interleaved" compares the victims' tries while it storms with tries while it is held,
  in the same minutes (the quiet phase is minutes away, and on a shared machine the others' load
  drifts over minutes);
- service-side (issue 18's other attacks, through the sessions' lobby and table calls):
  abandoned tables (looping guests from 10 addresses), loads by a stranger, same-name exports,
  control characters in chat (the bytes another player receives), a "*" name, and a flipped bit
  in a table's move log (the server stopped, one bit flipped, the server started again).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import time

import asyncssh
from abuse_clients import AbuseBench, Player, attack_line, open_player, start_attack
from server_scale_clients import machine, pct


class Abuse:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.bench = AbuseBench(args)
        self.players: list[Player] = []
        self.legit = 0
        self.victim_round = 0

    @property
    def port(self) -> int:
        return self.bench.port

    def spec(self) -> dict:
        return {
            "keys": str(self.bench.tmp / "keys"),
            "saves": str(self.bench.tmp / "saves"),
            "config": {"bot_delay_seconds": 0.05, **json.loads(self.args.server_config)},
        }

    # --- measures
    async def time_to_lobby(self) -> float | None:
        """A legitimate player (new key, 127.0.0.1): ms from connect to the lobby, None if refused."""
        self.legit += 1
        try:
            player, ms = await open_player(
                self.port, f"legit{self.legit}", "127.0.0.1", asyncssh.generate_private_key("ssh-ed25519")
            )
        except Exception:
            return None
        player.close()
        return round(ms, 1)

    async def lobby_times(self, offsets: list[float]) -> list[float | None]:
        t0 = time.monotonic()
        out: list[float | None] = []
        for offset in offsets:
            await asyncio.sleep(max(0.0, t0 + offset - time.monotonic()))
            out.append(await self.time_to_lobby())
        return out

    async def admission(self) -> dict:
        return await self.bench.call("admission", cmd="admission")

    async def victims(self) -> list:
        """Fresh tables of five people (each from its own address), their games started."""
        self.victim_round += 1
        clients = []
        for i in range(5 * self.args.victim_tables):
            player, _ = await open_player(
                self.port,
                f"v{self.victim_round}x{i}",
                f"127.0.{self.victim_round % 50 + 10}.{i + 1}",
                asyncssh.generate_private_key("ssh-ed25519"),
            )
            clients.append(player)
        self.players += clients
        return await self.bench.seat(clients)

    async def phase(self, name: str, attack=None, latency: bool = True, lobby_offsets=None) -> dict:
        """Measure a window (victims' latency, time to lobby, CPU, RSS, refusals) during ``attack``."""
        args = self.args
        before = await self.admission()
        crashes_before = self.bench.server_stderr().count("app failed")
        tables = await self.victims() if latency else []
        handle = await attack.start() if attack else None
        await self.admission()  # the server's loop lag is measured from here
        if args.profile and name in args.profile.split(","):
            await self.bench.call("profile", cmd="profile", on=True)
        cpu0, t0 = self.bench.cpu(), time.monotonic()
        lobby = asyncio.create_task(self.lobby_times(lobby_offsets or [1.0, args.window / 2, args.window - 2]))
        if latency:
            act = await self.bench.active(tables, args.tries, args.window, args.window * 2)
        else:
            await asyncio.sleep(args.window)
            act = {}
        times = await lobby
        elapsed = time.monotonic() - t0
        cpu = round((self.bench.cpu() - cpu0) / elapsed * 100, 1)
        rss = round(self.bench.rss(), 1)
        interleaved = await self.interleaved(tables, attack, handle) if latency and attack is not None else None
        if args.profile and name in args.profile.split(","):
            path = f"/tmp/abuse-{name}.prof"
            await self.bench.call("profile", cmd="profile", on=False, path=path)
        after = await self.admission()
        attacker = await attack.stop(handle) if attack else None
        for c in [c for t in tables for c in t.clients]:
            c.close()
        ok = [t for t in times if t is not None]
        out = {
            "time_to_lobby_ms": times,
            "time_to_lobby_max_ms": max(ok) if ok else None,
            "lobby_refused": sum(t is None for t in times),
            # the same, server-side: from the TCP accept to the lobby's first frame
            "server_time_to_lobby_ms": after.get("legit_first_frame_ms"),
            "server_cpu_percent": cpu,
            "server_rss_mb": rss,
            "refusals": _delta(before.get("refused", {}), after.get("refused", {})),
            "penalised_sources_at_end": after.get("penalised_sources"),
            "startups_at_end": after.get("startups"),
            "app_crashes": self.bench.server_stderr().count("app failed") - crashes_before,
            **{k: after.get(k) for k in ("loop_lag_ms_p50", "loop_lag_ms_p95", "loop_lag_ms_max")},
            "loop_lags_over_100ms": after.get("loop_lags_over_100ms"),
            **({"slow_callbacks": after["slow_callbacks"]} if "slow_callbacks" in after else {}),
            "gc_pauses_over_10ms": after.get("gc_pauses_over_10ms"),
        }
        if after.get("storm_sessions"):
            out["storm_sessions"] = after["storm_sessions"]
        if latency:
            out["victim_sessions"] = after.get("victim_sessions")
        if latency:
            out.update(
                tries=act["tries"],
                key_to_screen_ms_p50=act["key_to_screen_ms_p50"],
                key_to_screen_ms_p95=act["key_to_screen_ms_p95"],
                key_to_screen_ms_max=act["key_to_screen_ms_max"],
                probe_timeouts=act["probe_timeouts"],
                key_to_publish_ms_p50_p95=act["key_to_publish_ms_p50_p95"],
                publish_to_screen_ms_p50_p95=act["publish_to_screen_ms_p50_p95"],
                client_cpu_percent=act["client_cpu_percent"],
            )
        if interleaved is not None:
            out["interleaved"] = interleaved
        if attacker is not None:
            out["attacker"] = attacker
        print(json.dumps({"phase": name, **out}), file=sys.stderr, flush=True)
        return out

    async def interleaved(self, tables: list, attack, handle) -> dict | None:
        """The storm held and resumed in turns (``--slices`` slices of ``--slice`` seconds each way,
        a held slice first): the victims' tries while it storms against tries in the same minutes
        while it is held. On a shared machine the load of others drifts over minutes; this
        baseline shares it (the silent attack is held by closing every connection). Not for attacks that
        cannot be held."""
        args = self.args
        if not hasattr(attack, "hold") or args.slices <= 0:
            return None
        held: list[float] = []
        storming: list[float] = []
        for _ in range(args.slices):
            for storm in (False, True):
                await attack.hold(handle, not storm)
                await asyncio.sleep(0.5)  # what the last slice queued settles (both ways alike)
                act = await self.bench.active(tables, args.slice_tries, args.slice, args.slice * 3, keep=True)
                (storming if storm else held).extend(act["latencies_ms"])
        p95_held, p95_storm = pct(held, 95), pct(storming, 95)
        return {
            "slices": args.slices,
            "slice_s": args.slice,
            "held_tries": len(held),
            "held_key_to_screen_ms_p50_p95": [pct(held, 50), p95_held],
            "storm_tries": len(storming),
            "storm_key_to_screen_ms_p50_p95": [pct(storming, 50), p95_storm],
            "p95_minus_held_ms": round(p95_storm - p95_held, 1) if p95_held and p95_storm else None,
        }

    # --- the run
    async def run(self) -> dict:
        args = self.args
        started = time.monotonic()
        await self.bench.start_server(self.spec())
        result: dict = {"benchmark": "abuse", "pinning": self.bench.pinning, "window_s": args.window}
        try:
            only = set(args.only.split(",")) if args.only else None
            phases = result["phases"] = {}
            # Every phase has the same legitimate arrivals (each one's session start is ~25 ms of the
            # server's loop, in slices of ~12 ms): the victims' tries meet as many in each phase.
            offsets = [o for o in (0.5, 1.0, 2.0, 4.0, 7.0, 10.0, 13.0) if o < args.window - 2] + [args.window - 2]
            plan = [
                ("quiet", None, offsets),
                ("silent", SilentAttack(self), offsets),
                ("resize", StormAttack(self, "resize"), offsets),
                ("keys", StormAttack(self, "keys"), offsets),
            ]
            for name, attack, offsets in plan:
                if only is None or name in only:
                    phases[name] = await self.phase(name, attack, lobby_offsets=offsets)
            quiet = phases.get("quiet", {}).get("key_to_screen_ms_p95")
            for name in ("silent", "resize", "keys"):
                p95 = phases.get(name, {}).get("key_to_screen_ms_p95")
                if name in phases:
                    phases[name]["p95_minus_quiet_ms"] = round(p95 - quiet, 1) if p95 is not None and quiet else None
            service: dict = {"_phases": []}
            if only is None or "service" in only:
                from abuse_service import service_attacks

                service = result["service"] = await service_attacks(self)
            result["worst_time_to_lobby_ms"] = max(
                (p["time_to_lobby_max_ms"] or 0 for p in [*phases.values(), *service["_phases"]]), default=None
            )
            service.pop("_phases", None)
        finally:
            for p in self.players:
                p.close()
            await self.bench.stop_server()
            if args.keep:
                print(f"kept: {self.bench.tmp}", file=sys.stderr)
            else:
                shutil.rmtree(self.bench.tmp, ignore_errors=True)
        result.update(machine(), seconds=round(time.monotonic() - started, 1))
        return result


def _delta(before: dict, after: dict) -> dict:
    return {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0)}


class SilentAttack:
    def __init__(self, abuse: Abuse) -> None:
        self.abuse = abuse

    async def start(self):
        args = self.abuse.args
        return await start_attack(
            "silent",
            str(self.abuse.port),
            "--addresses",
            str(args.silent_addresses),
            "--per-address",
            str(args.silent_per_address),
            "--seconds",
            str(args.window * 2 + 30 + args.slices * 2 * (args.slice * 3 + 1)),
        )

    async def hold(self, proc, held: bool) -> None:
        """Hold (every silent connection closed) or resume the attack."""
        proc.stdin.write(b"pause\n" if held else b"go\n")
        await proc.stdin.drain()

    async def stop(self, proc):
        return await _finish(proc, self.abuse.args.window + 30)


async def _finish(proc, timeout: float) -> dict:
    """Stop the attacker (its window is over) and read its closing counts; one that hangs is killed."""
    try:
        proc.stdin.write(b"stop\n")
        await proc.stdin.drain()
    except (OSError, RuntimeError):
        pass
    try:
        done = await attack_line(proc, "done", timeout)
    except (TimeoutError, RuntimeError) as e:
        proc.kill()
        done = {"error": f"attacker did not finish: {type(e).__name__}"}
    await proc.wait()
    return done


class StormAttack:
    def __init__(self, abuse: Abuse, kind: str) -> None:
        self.abuse = abuse
        self.kind = kind

    async def start(self):
        args = self.abuse.args
        proc = await start_attack(
            "storm",
            str(self.abuse.port),
            "--kind",
            self.kind,
            "--sessions",
            "5",
            "--seconds",
            str(args.window * 2 + 30 + args.slices * 2 * (args.slice * 3 + 1)),
        )
        fingerprints = await attack_line(proc, "ready", 60)
        await self.abuse.bench.call("seated", cmd="seat", groups=[fingerprints])
        await asyncio.sleep(1.0)
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
        return proc

    async def hold(self, proc, held: bool) -> None:
        """Hold (or resume) the storm: its sessions stay, idle."""
        assert proc.stdin is not None
        proc.stdin.write(b"pause\n" if held else b"go\n")
        await proc.stdin.drain()

    async def stop(self, proc):
        return await _finish(proc, self.abuse.args.window + 60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=float, default=30.0, help="seconds each attack phase is measured")
    parser.add_argument("--tries", type=int, default=60, help="key-to-screen tries per phase")
    parser.add_argument("--victim-tables", type=int, default=6, help="tables of five people playing")
    parser.add_argument("--rate", type=float, default=0.5, help="victims' moves per second per table (mean)")
    parser.add_argument("--silent-addresses", type=int, default=100)
    parser.add_argument("--silent-per-address", type=int, default=10)
    parser.add_argument(
        "--abandon-wait", type=float, default=35.0, help="seconds to wait for abandoned tables (the grace is 30 s)"
    )
    parser.add_argument("--only", default="", help="comma-separated phases: quiet,silent,resize,keys,service")
    parser.add_argument("--keep", action="store_true", help="keep the server's folders (its stderr) at the end")
    parser.add_argument("--profile", default="", help="phases to cProfile the server in (/tmp/abuse-PHASE.prof)")
    parser.add_argument("--server-config", default="{}", help="JSON object of ServerConfig fields (experiments)")
    parser.add_argument("--slices", type=int, default=4, help="storms: held/storming slice pairs after the window")
    parser.add_argument("--slice", type=float, default=5.0, help="seconds of each interleaved slice")
    parser.add_argument("--slice-tries", type=int, default=20, help="key-to-screen tries per slice")
    parser.add_argument("--gc-interval", type=float, default=60.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    result = asyncio.run(Abuse(args).run())
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
