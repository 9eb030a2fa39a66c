"""The players' side of benchmarks/server_scale.py's `Bench`: connecting them (10 at a time, a fresh
key each) and seating them at tables of 5 and 6, a group at a time (`--seat-every`)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import asyncssh
from server_scale_clients import Client, TableState, cpu_seconds, open_client, split_tables

CONNECT_BATCH = 10
SEAT_BATCH = 6  # tables started at once


class Players:
    """Mixed into `Bench` (its server link, its args, its tables)."""

    args: Any
    link: Any
    port: int
    tables: dict[str, TableState]
    early: dict[str, dict]
    remote_seats: int
    split_screens: int

    def _on_pub(self, msg: dict) -> None: ...

    def cpu(self) -> float: ...

    async def connect(self, count: int, prefix: str) -> tuple[list[Client], list[float]]:
        clients, ms = [], []
        while len(clients) < count:
            batch = min(CONNECT_BATCH, count - len(clients))
            keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(batch)]
            opened = await asyncio.gather(
                *(open_client(self.port, f"{prefix}{len(clients) + i}", k) for i, k in enumerate(keys))
            )
            for c, t in opened:
                clients.append(c)
                ms.append(t)
        return clients, ms

    async def arrive(self, count: int, prefix: str, started: float) -> tuple[list[Client], list[float], tuple | None]:
        """`count` players connect and are seated, `--seat-every` at a time (0: all connect, then all
        are seated). (clients, first-screen ms, (connect s, seat s, [server, clients] CPU ms per
        session while connecting)); None for the last if connecting passed half of --level-budget."""
        every = self.args.seat_every or count
        chunks = [every] * (count // every) + ([count % every] if count % every else [])
        if len(chunks) > 1 and chunks[-1] < 20:  # 20 and up can always be split into tables of 5 and 6
            chunks[-2:] = [chunks[-2] + chunks[-1]]
        clients: list[Client] = []
        first_ms: list[float] = []
        connect_s = seat_s = server_cpu = client_cpu = 0.0
        for n in chunks:
            t0, cpu0, ccpu0 = time.monotonic(), self.cpu(), cpu_seconds(os.getpid())
            new, ms = await self.connect(n, f"{prefix}{len(clients)}-")
            clients += new
            first_ms += ms
            connect_s += time.monotonic() - t0
            server_cpu += self.cpu() - cpu0
            client_cpu += cpu_seconds(os.getpid()) - ccpu0
            if time.monotonic() - started > self.args.level_budget / 2:
                return clients, first_ms, None
            t1 = time.monotonic()
            await self.seat(new)
            seat_s += time.monotonic() - t1
            print(f"{prefix}: {len(clients)} of {count} connected and seated", file=sys.stderr, flush=True)
        per = [round(server_cpu / count * 1000, 1), round(client_cpu / count * 1000, 1)]
        return clients, first_ms, (connect_s, seat_s, per)

    async def seat(self, clients: list[Client]) -> list[TableState]:
        by_key = {c.key: c for c in clients}
        groups = await self._local_groups(clients) if self.args.local_tables else None
        if groups is None:
            groups, i = [], 0
            for size in split_tables(len(clients)):
                groups.append([c.key for c in clients[i : i + size]])
                i += size
        made = []
        for b in range(0, len(groups), SEAT_BATCH):
            batch = groups[b : b + SEAT_BATCH]
            for g in batch:
                for k in g:
                    by_key[k].want = b"Round"  # the table screen is up
                    by_key[k].arrived.clear()
            for t in await self.link.seat(batch):
                tb = TableState(t["id"], [by_key[k] for k in t["keys"]])
                self.tables[tb.id] = tb
                made.append(tb)
                if tb.id in self.early:
                    self._on_pub(self.early.pop(tb.id))
                tb.workers = t.get("workers")
                if "workers" in t:  # --workers: the seats served by another worker than the table's
                    self.remote_seats += sum(w != t["workers"][0] for w in t["workers"])
            for g in batch:
                waits = await asyncio.gather(*(by_key[k].wait_text(b"Round", 60) for k in g), return_exceptions=True)
                late = [by_key[k] for k, w in zip(g, waits) if isinstance(w, BaseException)]
                if late:
                    tb = next(t for t in made if late[0] in t.clients)
                    seat = tb.clients.index(late[0])
                    where = f" (worker {tb.workers[seat]}, the table's {tb.workers[0]})" if tb.workers else ""
                    lag = (await self.link.stats()).get("loop_lag")
                    raise RuntimeError(
                        f"no table screen after 60 s: {len(late)} of table {tb.id}; seat {seat}{where}; "
                        f"the server's loop lag so far {lag}: {late[0].screen()!r}"
                    )
        await asyncio.gather(*(c.quiet(0.3, 30) for c in clients))
        if made and made[0].workers:  # --workers: the seats whose screen runs in another worker than the table
            now = {k: n for n, r in (await self.link.ask_all(cmd="sessions")).items() for k in r["keys"]}
            for tb in made:
                assert tb.workers is not None
                self.split_screens += sum(now.get(c.key) != tb.workers[0] for c in tb.clients)
        return made

    async def _local_groups(self, clients: list[Client]) -> list[list[str]] | None:
        """--local-tables (an experiment): each table's players all on one worker, if each worker's
        share of the group splits into tables of 5 and 6 (else None: seated as they came)."""
        where = {k: n for n, r in (await self.link.ask_all(cmd="sessions")).items() for k in r["keys"]}
        groups = []
        for worker in sorted(set(where.values())):
            mine = [c.key for c in clients if where.get(c.key) == worker]
            try:
                sizes = split_tables(len(mine)) if mine else []
            except SystemExit:
                return None
            i = 0
            for size in sizes:
                groups.append(mine[i : i + size])
                i += size
        return groups

    async def quiet_all(self, clients: list[Client]) -> None:
        await asyncio.gather(*(c.quiet(0.3, 20) for c in clients))
