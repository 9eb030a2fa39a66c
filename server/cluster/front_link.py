"""How a node's sessions reach the owners of their tables, and how the owners' messages reach them.

    link = FrontLink(node)            # one per node; `link.front` is the node's FrontLobby
    await link.start()                # subscribes to this node's inbox
    outcome = await link.call(table_id, Join(...))     # a call to the table's owner, wherever it is
    link.play(table, session, command)                 # a seat's command (server/tables/remote.py)
    link.listen(table, session, seat)                  # subscribe to the seat's updates, then Ready

A table this node owns is reached by function calls into its desk (server/cluster/owner_desk.py):
no NATS in between, the single-process path. Any other table through NATS: calls on its
control subject, commands on the seat's command subject, each tried again while the table has
no owner (between a lapse and a takeover: the players see a short pause) until `patience` runs
out. The owner's messages arrive on this node's inbox (`ToFront`) and on each seat's update
subject, which this node subscribes to only while one of its sessions plays that seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from server.cluster import wire
from server.cluster.bus import Unreachable, request
from server.cluster.connection import barrier
from server.cluster.subjects import seat_token
from server.logging_setup import log_event
from server.tables import messages as tm
from server.tables.remote import RemoteTable

if TYPE_CHECKING:
    from server.cluster.front_lobby import FrontLobby
    from server.cluster.node import ClusterNode

log = logging.getLogger("citadels.cluster.front")

UNREACHABLE = "The table cannot be reached right now; try again in a moment."
MOVING_TOO_LONG = "The table is moving to another server; try again in a moment."
RETRY_WAIT = 0.05


@dataclass
class Feed:
    """One seat's update subject, subscribed for the sessions of this node that play it."""

    subject: str
    sub: Any = None
    sessions: set[Any] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class FrontLink:
    """This node's sessions' side of every table."""

    def __init__(self, node: ClusterNode) -> None:
        self.node = node
        self.names = node.names
        self.front: FrontLobby | None = None
        cfg = node.conn.config
        self.timeout = cfg.request_timeout_seconds
        # How long a session's call or command keeps trying while its table changes owner: a lapse
        # (node_ttl + ~0.25 s), a takeover (~20 ms), and a margin.
        self.patience = cfg.node_ttl_seconds + 4.0
        self._feeds: dict[str, Feed] = {}
        self._feed_of: dict[Any, str] = {}  # session -> the subject it listens on
        self._inbox: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        nc = self.node.conn.nc
        self._inbox = await nc.subscribe(self.names.node_inbox(self.node.node_id), cb=self._on_inbox)
        await barrier(nc)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for feed in list(self._feeds.values()):
            if feed.sub is not None:
                with contextlib.suppress(Exception):
                    await feed.sub.unsubscribe()
        self._feeds.clear()
        if self._inbox is not None:
            with contextlib.suppress(Exception):
                await self._inbox.unsubscribe()

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- calls to owners ------------------------------------------------------------------------------
    def local(self, table_id: str) -> bool:
        """This node runs the table."""
        return table_id in self.node.desk.lobby.tables

    def call_now(self, table_id: str, call: wire.ToOwner) -> wire.Outcome:
        """A call to a table of this node (a function call: its answer at once)."""
        return self.node.desk.handle(table_id, call)

    async def call(self, table_id: str, call: wire.ToOwner, patience: float | None = None) -> wire.Outcome:
        """A call to the table's owner, wherever it runs, tried again while the table moves."""
        deadline = time.monotonic() + (self.patience if patience is None else patience)
        data = wire.encode(call)
        while True:
            if self.local(table_id):
                if isinstance(call, wire.Export):
                    outcome = await self.node.desk.export(table_id, call, self.node.export_folder)
                else:
                    outcome = self.node.desk.handle(table_id, call)
            else:
                try:
                    answer = await request(
                        self.node.conn.nc,
                        self.names.table_control(table_id),
                        data,
                        timeout=self.timeout,
                        deadline=deadline,
                    )
                    outcome = wire.outcome.decode(answer)
                except Unreachable:
                    return wire.Outcome(error=UNREACHABLE, cause="unreachable")
                except (msgspec.DecodeError, msgspec.ValidationError):
                    return wire.Outcome(error=UNREACHABLE, cause="unreachable")
            if outcome.cause != "moving" or time.monotonic() > deadline:
                return outcome
            await asyncio.sleep(RETRY_WAIT)

    # --- a seat's updates -------------------------------------------------------------------------------
    def _member(self, session: Any) -> wire.Member:
        assert self.front is not None
        return self.front.member(session)

    def listen(self, table: RemoteTable, session: Any, seat: int | None) -> None:
        """The session is on the table's screen at `seat`: make sure its updates reach it, then tell
        the owner it may send them (`Ready`)."""
        self.unlisten(session)
        if seat is None or self.local(table.id):
            self._ready(table.id, session, seat)
            return
        feed = self._feed(table, session, seat)
        self.spawn(self._ready_when(feed, table.id, session, seat))

    async def follow(self, table: RemoteTable, session: Any, seat: int) -> None:
        """Listen on the seat's subject if its (new) owner is another node; no `Ready` (a `Resume`
        follows, which says as much)."""
        self.unlisten(session)
        if not self.local(table.id):
            await self._feed(table, session, seat).ready.wait()

    def _feed(self, table: RemoteTable, session: Any, seat: int) -> Feed:
        token = seat_token(self.node.conn.subject_secret, table.id, seat, session.key)
        subject = self.names.seat_updates(table.id, token)
        feed = self._feeds.get(subject)
        if feed is None:
            feed = self._feeds[subject] = Feed(subject)
            self.spawn(self._subscribe(feed))
        feed.sessions.add(session)
        self._feed_of[session] = subject
        return feed

    async def _subscribe(self, feed: Feed) -> None:
        nc = self.node.conn.nc
        try:
            feed.sub = await nc.subscribe(feed.subject, cb=self._on_seat)
            await barrier(nc)  # nats-py: a flush alone does not mean the server has the SUB
        except Exception as error:
            log_event(log, logging.WARNING, "cannot subscribe to a seat", error=repr(error))
        feed.ready.set()
        if not feed.sessions:
            await self._unsubscribe(feed)

    async def _ready_when(self, feed: Feed, table_id: str, session: Any, seat: int | None) -> None:
        await feed.ready.wait()
        if self._feed_of.get(session) == feed.subject:
            await self.call(table_id, wire.Ready(member=self._member(session), seat=seat))

    def _ready(self, table_id: str, session: Any, seat: int | None) -> None:
        call = wire.Ready(member=self._member(session), seat=seat)
        if self.local(table_id):
            self.call_now(table_id, call)
        else:
            self.spawn(self.call(table_id, call))

    def unlisten(self, session: Any) -> None:
        subject = self._feed_of.pop(session, None)
        feed = None if subject is None else self._feeds.get(subject)
        if feed is None:
            return
        feed.sessions.discard(session)
        if not feed.sessions and feed.ready.is_set():
            self.spawn(self._unsubscribe(feed))

    async def _unsubscribe(self, feed: Feed) -> None:
        if feed.sessions or self._feeds.get(feed.subject) is not feed:
            return
        del self._feeds[feed.subject]
        if feed.sub is not None:
            with contextlib.suppress(Exception):
                await feed.sub.unsubscribe()

    def listening(self, session: Any) -> bool:
        return session in self._feed_of

    async def _on_seat(self, msg: Any) -> None:
        feed = self._feeds.get(msg.subject)
        if feed is None or not feed.sessions:
            return
        try:
            message = wire.to_session.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "unreadable seat update", error=str(error))
            return
        for session in list(feed.sessions):
            session.post(message)

    # --- commands and chat (server/tables/remote.py's route) -------------------------------------------
    def play(self, table: RemoteTable, session: Any, command: Any) -> None:
        if self.local(table.id):
            received = self.node.desk.play(table.id, None, self._play(session, command, False))
            if received.ok:
                return
        self.spawn(self._play_remote(table, session, command))

    def _play(self, session: Any, command: Any, retry: bool) -> wire.Play:
        return wire.Play(node=self.node.node_id, session=session.info.session_id, command=command, retry=retry)

    async def _play_remote(self, table: RemoteTable, session: Any, command: Any) -> None:
        deadline = time.monotonic() + self.patience
        owner = table.owner
        while time.monotonic() < deadline:
            if session.table is not table or session.seat is None:
                return  # the session left the seat meanwhile
            retry = table.owner != owner
            if self.local(table.id):
                received = self.node.desk.play(table.id, None, self._play(session, command, retry))
            else:
                token = seat_token(self.node.conn.subject_secret, table.id, session.seat, session.key)
                try:
                    answer = await request(
                        self.node.conn.nc,
                        self.names.seat_commands(table.id, token),
                        wire.encode(self._play(session, command, retry)),
                        timeout=self.timeout,
                        deadline=deadline,
                    )
                    received = wire.received.decode(answer)
                except Unreachable:
                    break
            if received.ok:
                return
            log_event(log, logging.DEBUG, "command not taken yet", table=table.id, error=received.error)
            await asyncio.sleep(RETRY_WAIT)  # the owner does not know the session yet (a move): again
        log_event(log, logging.WARNING, "command not delivered", table=table.id, session=session.info.session_id)
        session.post(tm.Refused(MOVING_TOO_LONG))

    def say(self, table: RemoteTable, session: Any, author: str, text: str, watching: bool) -> None:
        call = wire.Say(member=self._member(session), author=author, text=text, watching=watching)
        if self.local(table.id):
            self.call_now(table.id, call)
        else:
            self.spawn(self.call(table.id, call))

    def export(self, table: RemoteTable, session: Any, path: str) -> asyncio.Future[str | None]:
        return asyncio.ensure_future(self._export(table, session, path))

    async def _export(self, table: RemoteTable, session: Any, path: str) -> str | None:
        outcome = await self.call(table.id, wire.Export(member=self._member(session)))
        if outcome.error is not None:
            return outcome.error
        from pathlib import Path

        from server.storage.savelog import atomic_write

        try:
            await asyncio.to_thread(atomic_write, Path(path), outcome.data, True)
        except OSError as error:
            return f"Cannot save to {path}: {error.strerror or error}"
        return None

    async def game_of(self, table_id: str) -> Any:
        """A table's game as the cluster has it (this node's table: its live save; else its log)."""
        t = self.node.desk.lobby.tables.get(table_id)
        if t is not None and t.save is not None:
            return t.save.save
        from server.cluster.table_log import TableLog

        return await TableLog.read(self.node.conn, table_id)

    # --- the owners' messages -------------------------------------------------------------------------
    async def _on_inbox(self, msg: Any) -> None:
        try:
            message = wire.to_front.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "unreadable inbox message", error=str(error))
            return
        self.deliver(message)

    def deliver(self, message: wire.ToFront) -> None:
        if self.front is not None:
            self.front.heard(message)

    def deliver_seat(self, session_id: str, message: Any) -> None:
        """A seat message from this node's own desk (no subject in between)."""
        if self.front is not None:
            session = self.front.by_id.get(session_id)
            if session is not None:
                session.post(message)
