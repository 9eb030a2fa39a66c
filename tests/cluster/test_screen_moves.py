"""A player's screen runs in the worker that runs their table (issue 23): with `citadels serve --workers 2`
a player accepted by one worker who joins a table of the other has their screen moved there, their SSH
connection staying where it was accepted; what they type reaches it, their window's size too; their
leaving ends it there; the host worker killed, their screen comes back from their own worker."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

import pytest

from server.transport import screen_wire as w
from server.transport.screen_host import ScreenServer

from .harness import Player
from .helpers import wait_until
from .test_workers import _serve_workers, ana_opens_a_table, seat_from_other_worker


def _log(folder: Path, worker: str) -> str:
    return (folder / "saves" / worker / "worker.log").read_text(errors="replace")


def _session_of(log: str, player: Player) -> str:
    found = re.search(rf"screen moved here session=(\S+) user={player.name}\b", log)
    assert found is not None, f"{player.name}'s screen did not move"
    return found.group(1)


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree, players until two land on the other worker, a worker killed (~40 s)
async def test_a_screen_runs_in_its_tables_worker(tmp_path: Path) -> None:
    parent, port, pids = await _serve_workers(tmp_path)
    players: list[Player] = []
    try:
        ana, owner = await ana_opens_a_table(tmp_path, port, players)
        front = "w2" if owner == "w1" else "w1"

        # p joins from the other worker: the table's worker runs p's screen from then on
        p = await seat_from_other_worker(tmp_path, port, owner, 0, players)
        await ana.wait_for(p.name)
        sid = _session_of(_log(tmp_path, owner), p)
        assert sid.startswith(f"{front}.")  # the session keeps the id its own worker gave it

        # what p types reaches the moved screen (the help and back), and so does a window change
        p.mark()
        p.send(b"?")
        await p.wait_for("The rules in short")
        p.send(b"\x1b")
        await p.quiet()
        p.mark()
        p.proc.change_terminal_size(80, 24)
        await p.wait_for(f"{p.name} (you)")  # the whole screen again, laid out for the new size

        # p leaves: the screen's session ends in the table's worker, the connection in p's own
        p.close()
        await wait_until(lambda: f"session ended session={sid}" in _log(tmp_path, owner), what="the moved screen's end")
        await wait_until(lambda: f"session ended session={sid}" in _log(tmp_path, front), what="the connection's end")

        # q joins from the other worker too; then the table's worker dies: q's connection stays, and
        # q's screen starts again from q's own worker
        q = await seat_from_other_worker(tmp_path, port, owner, 20, players)
        _session_of(_log(tmp_path, owner), q)
        q.mark()
        os.kill(pids[0 if owner == "w1" else 1], signal.SIGKILL)
        await wait_until(lambda: "moved screen lost" in _log(tmp_path, front), timeout=15, what="the lost screen")
        await q.wait_for(q.name, timeout=30)
        await q.quiet(0.5)
        assert q.connected
        front_log = _log(tmp_path, front)
        assert "app failed" not in front_log and "Traceback" not in front_log, front_log[-3000:]
    finally:
        for pl in players:
            pl.close()
        parent.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(parent.wait(), 60)
    assert status == 0


async def test_the_screens_socket_drops_what_is_not_a_front(tmp_path: Path) -> None:
    """Garbage, a frame before the hello, an unreadable hello: the socket is closed, no session starts."""

    class NoHost:  # nothing may reach the host: these never get as far as a session
        config = None

    server = ScreenServer(NoHost(), tmp_path / w.SOCKET_NAME)  # type: ignore[arg-type]
    await server.start()
    try:
        assert oct(os.stat(tmp_path / w.SOCKET_NAME).st_mode & 0o777) == "0o600"
        for data in (
            b"\x00garbage\xff" * 10,
            w.frame(w.INPUT, b"keys before the hello"),
            w.frame(w.HELLO, b"{not json"),
            w.frame(w.HELLO, b'{"session_id": 1}'),
            w.frame(w.OUTPUT, b"") + b"x" * 10,
            w.HEADER.pack(w.INPUT, w.MAX_FRAME + 1),
        ):
            reader, writer = await asyncio.open_unix_connection(str(tmp_path / w.SOCKET_NAME))
            writer.write(data)
            assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the host, nothing said
            writer.close()
    finally:
        server.close()
    assert not (tmp_path / w.SOCKET_NAME).exists()


def test_frames_are_cut_wherever_the_bytes_split() -> None:
    stream = w.frame(w.OUTPUT, b"abc") + w.message(w.EXIT, w.Exit(3)) + w.frame(w.INPUT, b"")
    for cut in range(len(stream) + 1):
        frames = w.Frames()
        got = frames.feed(stream[:cut]) + frames.feed(stream[cut:])
        assert got == [(w.OUTPUT, b"abc"), (w.EXIT, b'{"status":3}'), (w.INPUT, b"")]
    frames = w.Frames()
    one_by_one = [f for i in range(len(stream)) for f in frames.feed(stream[i : i + 1])]
    assert one_by_one == [(w.OUTPUT, b"abc"), (w.EXIT, b'{"status":3}'), (w.INPUT, b"")]
    with pytest.raises(w.FrameError):
        w.Frames().feed(b"Q\x00\x00\x00\x00")


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree, a worker drained (~30 s)
async def test_a_draining_worker_sends_its_moved_screens_home(tmp_path: Path) -> None:
    """SIGTERM to the worker that runs the table (and the moved screen): the table is handed over, the
    screen goes back to the worker holding the player's connection, and the player plays on."""
    parent, port, pids = await _serve_workers(tmp_path)
    players: list[Player] = []
    try:
        _, owner = await ana_opens_a_table(tmp_path, port, players)
        front = "w2" if owner == "w1" else "w1"
        r = await seat_from_other_worker(tmp_path, port, owner, 0, players)
        sid = _session_of(_log(tmp_path, owner), r)
        r.mark()
        r.send(b"\x1bOQ")  # F2: the moved screen in Spanish
        await r.wait_for("Dejar la mesa")

        r.mark()
        os.kill(pids[0 if owner == "w1" else 1], signal.SIGTERM)  # the owner drains (then starts again)
        started = f"session started session={sid}"
        await wait_until(lambda: _log(tmp_path, front).count(started) == 2, timeout=20, what="r's screen home")
        # r's seat, served from r's own worker now, in the language r chose on the screen that moved
        await r.wait_for(f"{r.name} (tú)", timeout=30)
        assert r.connected
        assert "moved screen lost" not in _log(tmp_path, front)
        assert "app failed" not in _log(tmp_path, front)
    finally:
        for pl in players:
            pl.close()
        parent.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(parent.wait(), 60)
    assert status == 0


@pytest.mark.slow  # end to end: a 'serve --workers 2' process tree, a moved screen's client stops reading (~30 s)
async def test_a_moved_screen_whose_client_stops_reading_is_dropped(tmp_path: Path) -> None:
    """The client of a moved screen stops reading: its worker stops reading the host's output, the
    host's driver sees its output blocked and drops the session as a slow client, and the worker
    holding the connection drops it too (rather than starting a screen again); the table plays on."""
    parent, port, _ = await _serve_workers(tmp_path, config="output_stall_timeout_seconds = 1.5\n")
    players: list[Player] = []
    try:
        ana, owner = await ana_opens_a_table(tmp_path, port, players)
        front = "w2" if owner == "w1" else "w1"
        small_window = {"window": 16384, "max_pktsize": 8192}  # asyncssh's flow control bites after a few frames
        slow = await seat_from_other_worker(tmp_path, port, owner, 0, players, **small_window)
        sid = _session_of(_log(tmp_path, owner), slow)
        assert slow._reader is not None
        slow._reader.cancel()  # never reads again; whole repaints (window changes) fill its channel
        for i in range(60):
            if f"dropping session session={sid}" in _log(tmp_path, front):
                break
            slow.proc.change_terminal_size(*((120, 40) if i % 2 else (100, 30)))
            await asyncio.sleep(0.25)
        await wait_until(
            lambda: f"dropping session session={sid}" in _log(tmp_path, front), timeout=15, what="the drop"
        )
        host_log, front_log = _log(tmp_path, owner), _log(tmp_path, front)
        assert re.search(rf"dropping session session={sid} reason=\"?client stopped reading", host_log), host_log[
            -2000:
        ]
        assert "moved screen lost" not in front_log
        assert front_log.count(f"session started session={sid}") == 1  # no screen started again for it
        ana.mark()
        ana.send(b"?")
        await ana.wait_for("The rules in short")  # the table's worker serves its other players on
    finally:
        for pl in players:
            pl.close()
        parent.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(parent.wait(), 60)
    assert status == 0
