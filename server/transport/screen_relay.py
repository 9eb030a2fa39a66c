"""The front's side of a moved screen: the SSH connection stays here, the app runs in another
process of the host (server/transport/screen_wire.py says why; screen_host.py is the other side).

    outcome = await run_elsewhere(session, move, socket_of)   # until that screen ends or comes back

While it runs, the session's SSH input goes to the host (`Relay.send_input`, `send_size`), the
host's output to the terminal; each side's flow control holds the other (the host's socket full:
the client's input waits in the network; the client not reading: the host's output waits in its
process, where its driver's limits see it). It ends in one of three ways:

- the host's app exits: the status, and the connection ends here (`Outcome.exited`);
- the host moves the screen on: to a third process (relayed again) or back here (`Outcome.action`:
  the local app starts with it);
- the socket ends without either (the host process died, or could not be reached): the local app
  starts again (the player's seat is found again as after a reconnection), unless the client is
  the one not reading (its channel full when the socket ended: the host dropped it as a slow
  client): then the connection is dropped here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

import msgspec

from server.logging_setup import log_event
from server.transport import screen_wire as w

if TYPE_CHECKING:
    from server.transport.session import SSHSession

log = logging.getLogger("citadels.server.transport.screens")

CONNECT_TIMEOUT = 5.0
# A host that could not be reached is not tried again for this long by this session (its requests go
# through the cluster meanwhile, as a screen that never moved).
RETRY_AFTER = 30.0


@dataclass
class Outcome:
    exited: bool = False
    status: int = 0
    action: w.ScreenAction | None = None
    carried: w.Carried | None = None
    dropped: bool = False  # the client stopped reading: the connection is dropped


class Relay(asyncio.Protocol):
    """The socket to the host: its frames to the terminal, the terminal's to it."""

    def __init__(self, session: SSHSession) -> None:
        self._session = session
        self._frames = w.Frames()
        self._transport: asyncio.Transport | None = None
        self.ended: asyncio.Future[tuple[str, object]] = asyncio.get_running_loop().create_future()
        self.held = False  # the client's channel is full: the host's output waits

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio.Transport subclasses
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            frames = self._frames.feed(data)
            if len(frames) > 1 and all(kind == w.OUTPUT for kind, _ in frames):
                frames = [(w.OUTPUT, b"".join(payload for _, payload in frames))]  # one SSH write for all
            for kind, payload in frames:
                if kind == w.OUTPUT:
                    self._session.send_output(payload)
                elif kind == w.STDERR:
                    self._session.send_stderr(payload)
                elif kind == w.EXIT:
                    self._end("exit", w.exit_decoder.decode(payload))
                elif kind == w.MOVE:
                    self._end("move", w.move_decoder.decode(payload))
                else:
                    raise w.FrameError(f"{kind!r} from a host")
        except (w.FrameError, msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "unreadable screen frame", error=str(error))
            self.close()
            self._end("lost", None)

    def _end(self, how: str, what: object) -> None:
        if not self.ended.done():
            self.ended.set_result((how, what))

    def connection_lost(self, exc: Exception | None) -> None:
        self._end("lost", None)

    # the host's socket full: the client's input waits in the network meanwhile
    def pause_writing(self) -> None:
        self._session.pause_input()

    def resume_writing(self) -> None:
        self._session.resume_input()

    # the terminal's side
    def send(self, data: bytes) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(data)

    def send_input(self, data: bytes) -> None:
        self.send(w.frame(w.INPUT, data))

    def send_size(self, size: tuple[int, int]) -> None:
        self.send(w.message(w.RESIZE, w.Size(*size)))

    def hold_output(self, hold: bool) -> None:
        """The client is not reading (its channel paused us): stop reading the host's output."""
        self.held = hold
        if self._transport is not None and not self._transport.is_closing():
            if hold:
                self._transport.pause_reading()
            else:
                self._transport.resume_reading()

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


async def run_elsewhere(session: SSHSession, move: w.MoveTo, socket_of: Callable[[str], Path]) -> Outcome:
    """Serve the session's screen from `move.worker` (and wherever it moves next) until it ends or
    comes back to this process."""
    while True:
        if move.worker == session.node_id:
            return Outcome(action=move.action, carried=move.carried)
        how, what, held = await _relay_once(session, move, socket_of(move.worker))
        if how == "exit":
            assert isinstance(what, w.Exit)
            return Outcome(exited=True, status=what.status)
        if how == "move":
            assert isinstance(what, w.MoveTo)
            move = what
            continue
        if session.closing:
            return Outcome()  # closed here (the client left, the server stops): nothing more to do
        if held:  # the host dropped a client that stopped reading (the driver's verdict there)
            return Outcome(dropped=True)
        # Not moved again for a while: the host is away (its tables are taken over meanwhile).
        session.no_moves_until = time.monotonic() + RETRY_AFTER
        if how == "unreachable":
            return Outcome(action=move.action, carried=move.carried)  # done here instead, as if never moved
        log_event(log, logging.WARNING, "moved screen lost", session=session.session_id, worker=move.worker)
        return Outcome(carried=move.carried)  # the host went away: the player's screen starts again here


async def _relay_once(session: SSHSession, move: w.MoveTo, path: Path) -> tuple[str, object, bool]:
    loop = asyncio.get_running_loop()
    try:
        _, relay = await asyncio.wait_for(
            loop.create_unix_connection(lambda: Relay(session), str(path)), timeout=CONNECT_TIMEOUT
        )
    except (OSError, TimeoutError) as error:
        log_event(log, logging.WARNING, "cannot move a screen", worker=move.worker, error=str(error))
        return "unreachable", None, False
    relay.send(w.message(w.HELLO, session.hello(move)))
    session.relay = relay
    try:
        how, what = await relay.ended
        return how, what, relay.held
    finally:
        session.relay = None
        relay.close()
        with contextlib.suppress(Exception):
            session.resume_input()
