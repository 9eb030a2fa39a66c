"""Real cluster nodes for the tests and the benchmark: `citadels serve --cluster` processes on
loopback, players as asyncssh PTY clients, and a follower that reads a table's game from the
cluster's log (the harness is omniscient; the nodes are not).

    node = await NodeProcess.start(nats_url, namespace, "n1", folder, keys_dir, settings)
    ana = Player("ana"); await ana.connect(node.port)
    follower = await GameFollower.start(conn, table_id)      # the state after each logged command
    keys, command = follower.keys_for(seat, rng)               # what the seat's screen would need pressed
    node.kill()                                                # SIGKILL; node.terminate(): SIGTERM (drain)
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import asyncssh
import msgspec

from engine import view as engine_view
from engine.apply import apply
from engine.savefile import Save, Seat, dumps, loads, new_save
from engine.setup import new_game
from engine.view import redact_events
from tests.saves.games import T0, first_game
from tests.server.game_helpers import key_path
from tests.ssh_terminal import plain
from tests.ui.term_screen import TermScreen
from ui.i18n import Catalogue
from ui.prompt_keys import Numbering

REPO = Path(__file__).resolve().parents[2]
DOWN, ENTER, ESC = b"\x1b[B", b"\r", b"\x1b"
CONNECT_LINE = re.compile(rb"Connect with: ssh (?:-p (\d+) )?")

# Fast settings for tests: a node's end is heard ~1.3 s after its last heartbeat.
FAST_CLUSTER = dict(
    lease_margin_seconds=0.25,
    heartbeat_seconds=0.25,
    node_ttl_seconds=1.0,
    drain_grace_seconds=5.0,
)
NODE_SETTINGS = dict(
    bot_delay_seconds=0.05,
    idle_wait_seconds=120.0,
    gc_tuning=False,
    max_concurrent_app_starts=8,
    admin_socket=False,
    accounts=False,  # no players database unless a test gives one (test_node_play.py: a shared one)
    # whole games at machine speed charge a session far past a person's input budget (as game_helpers.py)
    input_cpu_share=1.0,
    # and their keys come faster than a person's key rate (dropped past it, with a notice)
    key_rate_per_second=1e6,
    key_burst=1_000_000,
)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def _term_with_parent() -> None:
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)


class NodeProcess:
    """One `citadels serve --cluster` process."""

    def __init__(self, node_id: str, folder: Path, proc: asyncio.subprocess.Process, port: int) -> None:
        self.node_id = node_id
        self.folder = folder
        self.proc = proc
        self.port = port
        self.pid = proc.pid

    @classmethod
    async def start(
        cls,
        nats_url: str,
        namespace: str,
        node_id: str,
        folder: Path,
        keys_dir: Path,
        *,
        cluster: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        load: list[Path] = (),  # type: ignore[assignment]
        timeout: float = 30.0,
    ) -> NodeProcess:
        folder.mkdir(parents=True, exist_ok=True)
        server = {**NODE_SETTINGS, **(settings or {}), "port": 0, "keys_dir": str(keys_dir)}
        server["saves_dir"] = str(folder / "saves")
        lines = [f"{k} = {_toml(v)}" for k, v in server.items()]
        lines += ["", "[cluster]", f"namespace = {_toml(namespace)}"]
        lines += [f"{k} = {_toml(v)}" for k, v in {**FAST_CLUSTER, **(cluster or {})}.items()]
        config = folder / "citadels.toml"
        config.write_text("\n".join(lines) + "\n")
        args = [sys.executable, "-m", "cli.main", "serve", "--config", str(config)]
        args += ["--cluster", nats_url, "--node-id", node_id]
        for path in load:
            args += ["--load", str(path)]
        log = open(folder / "node.log", "ab")
        proc = await asyncio.create_subprocess_exec(
            *args,
            cwd=str(REPO),
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
            stdin=asyncio.subprocess.DEVNULL,
            preexec_fn=_term_with_parent,  # a killed test run leaves no node behind
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        log.close()
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        seen = b""
        while True:
            left = deadline - time.monotonic()
            try:
                line = await asyncio.wait_for(proc.stdout.readline(), max(left, 0.01))
            except TimeoutError:
                line = b""
            seen += line
            m = CONNECT_LINE.search(line)
            if m:
                port = int(m.group(1) or 22)
                break
            if not line or left <= 0:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                tail = (folder / "node.log").read_text(errors="replace")[-2000:]
                raise AssertionError(f"node {node_id} did not start: {seen!r}\n{tail}")
        node = cls(node_id, folder, proc, port)
        node._drain = asyncio.ensure_future(node._read_stdout())
        return node

    async def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        with contextlib.suppress(Exception):
            while await self.proc.stdout.read(65536):
                pass

    @property
    def log(self) -> str:
        return (self.folder / "node.log").read_text(errors="replace")

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    def terminate(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()

    async def wait(self, timeout: float = 30.0) -> int | None:
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
            return await self.proc.wait()

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.terminate()
            await self.wait(15)


class Player:
    """A person with an SSH key, on one connection at a time (reading all its output)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.fingerprint = self.key.get_fingerprint("sha256")
        self.conn: Any = None
        self.proc: Any = None
        self.numbers = Numbering()  # the prompt's numbering, as this player's screen keeps it
        self.raw = bytearray()
        self.last_output = time.monotonic()
        self.arrivals: list[float] | None = None  # when each chunk of output came (a benchmark's timing)
        self._reader: asyncio.Task[None] | None = None
        self._mark = 0
        self.size = (120, 40)

    async def connect(
        self, port: int, size: tuple[int, int] = (120, 40), source: str | None = None, **session_options: Any
    ) -> Player:
        """Connect (from the loopback address `source`, when given: each node counts sessions per address;
        `session_options`: asyncssh's for the channel, e.g. a small window)."""
        self.close()
        self.raw = bytearray()
        self._mark = 0
        self.size = size
        self.numbers = Numbering()  # a new screen numbers its prompt afresh
        self.conn = await asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1",
                port,
                username=self.name,
                client_keys=[self.key],
                known_hosts=None,
                agent_path=None,
                config=None,
                password=None,
                local_addr=(source, 0) if source else None,
            ),
            20,
        )
        self.proc = await self.conn.create_process(
            term_type="xterm-256color", term_size=size, encoding=None, **session_options
        )
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                chunk = await self.proc.stdout.read(65536)
                if not chunk:
                    return
                self.raw.extend(chunk)
                self.last_output = time.monotonic()
                if self.arrivals is not None:
                    self.arrivals.append(self.last_output)

    @property
    def connected(self) -> bool:
        return self._reader is not None and not self._reader.done()

    def mark(self) -> None:
        self._mark = len(self.raw)

    def text(self, since_mark: bool = True) -> str:
        return plain(bytes(self.raw[self._mark :] if since_mark else self.raw))

    def screen(self) -> str:
        """What a terminal shows after all the output so far (a failure's message says it)."""
        term = TermScreen(*self.size)
        try:
            term.feed(bytes(self.raw).decode("utf-8", "replace"))
        except AssertionError as error:  # a sequence the model does not know: the text alone
            return f"(not modelled: {error})\n{self.text(False)[-2000:]}"
        return "\n".join(row.rstrip() for row in term.text().split("\n"))

    def _missed(self, what: str) -> str:
        quiet = time.monotonic() - self.last_output
        return (
            f"{self.name}: {what}; {len(self.raw) - self._mark} bytes since the mark, the last {quiet:.1f} s ago;"
            f" the screen:\n{self.screen()}"
        )

    async def wait_for(self, text: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(self._missed(f"{text!r} not seen in {timeout} s"))
            if not self.connected and text not in self.text():
                raise AssertionError(self._missed(f"output ended before {text!r}"))
            await asyncio.sleep(0.02)

    async def quiet(self, seconds: float = 0.15, timeout: float = 10.0) -> None:
        """Until no output came for `seconds` (the screen finished drawing)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last_output < seconds and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.02)

    async def first_output_after(self, moment: float, timeout: float = 3.0) -> float | None:
        """When the first output after `moment` came (needs `arrivals`); None if none in `timeout`."""
        assert self.arrivals is not None
        if not await self.output_since(moment, timeout):
            return None
        i = bisect.bisect_right(self.arrivals, moment)
        return self.arrivals[i] if i < len(self.arrivals) else None

    async def output_since(self, moment: float, timeout: float = 5.0) -> bool:
        """Until some output came after `moment` (time.monotonic()); False if none in `timeout`."""
        deadline = time.monotonic() + timeout
        while self.last_output <= moment:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def send(self, data: bytes | str) -> None:
        self.proc.stdin.write(data.encode() if isinstance(data, str) else data)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None


async def _wait_until(predicate: Any, timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout} s")
        await asyncio.sleep(0.01)


def saved_game(table_id: str, players: list[Player | None], seed: int = 7) -> Save:
    """A new game whose seats are bound to these players' keys (None: a bot's seat)."""
    cfg = first_game(len(players), seed=seed)
    seats = [
        Seat(name=p.name, key=p.fingerprint) if p is not None else Seat(name=f"Bot {i}", bot="normal")
        for i, p in enumerate(players)
    ]
    cfg = msgspec.structs.replace(cfg, players=[s.name for s in seats])
    g, _ = new_game(cfg)
    return new_save(table_id, cfg, seats, g, created=T0)


def write_save(path: Path, save: Save) -> Path:
    path.write_bytes(dumps(save))
    return path


async def loaded_table(c: Any, tmp_path: Path, players: list, node_ids: Any = ("n1", "n2"), **node_kwargs: Any) -> Any:
    """Nodes (the first loads a new game whose seats are `players`' keys), the harness's connection, the
    table's listing and a follower of its game."""
    path = write_save(tmp_path / "game.save", saved_game("t0", players))
    first = await c.node(node_ids[0], load=[path], **node_kwargs)
    others = await asyncio.gather(*(c.node(n, **node_kwargs) for n in node_ids[1:]))
    conn = await c.conn()
    from server.cluster.directory import TableDirectory

    directory = await TableDirectory(conn).start()
    await _wait_until(lambda: any(x.owner == node_ids[0] for x in directory.tables.values()), what="the loaded table")
    (listing,) = directory.tables.values()
    follower = await GameFollower.start(conn, listing.id)
    return [first, *others], conn, directory, listing, follower


# --- choosing a command on the screen, from a seat's view ---------------------------------------------
# tests/server/game_helpers.py's `key_path`: the screen's own keys (ui.prompt_keys), with the seat's
# numbering kept across its decisions as its prompt keeps it (a fresh one for a new connection).


class GameFollower:
    """A table's game as its log has it, kept current from the log's subject (every record its owners
    publish): the state after each command, and each command's arrival time."""

    def __init__(self, conn: Any, table_id: str) -> None:
        self.conn = conn
        self.table_id = table_id
        self.save: Save | None = None
        self.commands: list[Any] = []  # every command, in order
        self.arrived: dict[int, float] = {}  # seq -> time.monotonic() it was heard
        self.changed = asyncio.Event()
        self.events: dict[int, list[Any]] = {}  # seq -> the events it caused (for checking views)
        self.states: dict[int, Any] | None = None  # seq -> the state then (keep_states)
        self._early: list[Any] = []
        self._sub: Any = None

    @classmethod
    async def start(cls, conn: Any, table_id: str, timeout: float = 10.0, keep_states: bool = False) -> GameFollower:
        from server.cluster.connection import barrier
        from server.cluster.table_log import TableLog

        follower = cls(conn, table_id)
        if keep_states:
            follower.states = {}
        follower._sub = await conn.nc.subscribe(conn.names.log_subject(table_id), cb=follower._heard)
        await barrier(conn.nc)
        deadline = time.monotonic() + timeout
        while True:
            try:
                save = await TableLog.read(conn, table_id)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05)
        follower.save = save
        follower.commands = list(save.log)
        follower._keep()
        for record in follower._early:
            follower._take(record)
        follower._early.clear()
        return follower

    @property
    def state(self) -> Any:
        assert self.save is not None
        return self.save.state

    @property
    def seq(self) -> int:
        return self.state.seq

    async def _heard(self, msg: Any) -> None:
        from server.cluster.table_log import _record

        try:
            record = _record.decode(msg.data)
        except Exception:
            return
        if self.save is None:
            self._early.append(record)
        else:
            self._take(record)

    def _take(self, record: Any) -> None:
        from server.cluster.table_log import LogSnapshot

        assert self.save is not None
        if isinstance(record, LogSnapshot):
            snap = loads(record.save)
            if snap.state.seq > self.state.seq:
                self.save = snap
                self.commands = list(snap.log)
                self.arrived.setdefault(snap.state.seq, time.monotonic())
                self._keep()
                self.changed.set()
            return
        if record.seq != self.state.seq + 1:
            return
        self.events[record.seq] = apply(self.state, record.cmd)
        self.save.log.append(record.cmd)
        self.commands.append(record.cmd)
        self.arrived[record.seq] = time.monotonic()
        self._keep()
        self.changed.set()

    def _keep(self) -> None:
        if self.states is not None:
            from engine.state import copy_state

            self.states[self.state.seq] = copy_state(self.state)

    async def wait(self, predicate: Any, timeout: float, what: str = "condition") -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{what} not reached in {timeout} s (seq {self.seq})")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    def view(self, seat: int | None) -> Any:
        return engine_view(self.state, seat)

    def keys_for(self, seat: int, rng: Any, cat: Catalogue | None = None, numbers: Any = None) -> tuple[bytes, Any]:
        """The keys for the seat's decision now, on a screen numbered as `numbers` (the player's)."""
        return key_path(self.view(seat), cat or Catalogue("en"), rng, numbers)

    def redacted(self, seq: int, seat: int | None) -> list[Any]:
        return redact_events(self.events.get(seq, []), seat)

    async def stop(self) -> None:
        if self._sub is not None:
            with contextlib.suppress(Exception):
                await self._sub.unsubscribe()
