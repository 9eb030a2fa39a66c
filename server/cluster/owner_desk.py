"""The owner's side of the tables a node runs: it answers the fronts' calls and plays, keeps the
members that stand in for their sessions, sends those members' messages, and lists its tables.

    desk = OwnerDesk(node, lobby)
    outcome = desk.handle(table_id, Join(member=..., seat=None))   # a call (sync: the lobby's code)
    received = desk.play(table_id, token, Play(...))                # a seat's command
    await desk.own(table, lease)                                     # answer for a table from now on
    await desk.drop(table_id, reason, release=True)                  # stop answering (hand-over, loss)

Calls from sessions of this node are function calls (server/cluster/front_link.py); calls from
other nodes arrive on the table's control subject and commands on its seats' command subjects
(both subscribed while this node owns the table). A member's messages go back the same way:
to a session of this node at once, to another node on its inbox or its seat's update subject.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import msgspec

from server.cluster import wire
from server.cluster.connection import barrier
from server.cluster.leases import Lease
from server.cluster.members import MemberSession
from server.cluster.owner_lobby import ClusterLobby, listing_of
from server.cluster.records import TableListing
from server.cluster.subjects import seat_token
from server.lobby.errors import LobbyError
from server.logging_setup import log_event
from server.tables.table import Table

if TYPE_CHECKING:
    from server.cluster.node import ClusterNode

log = logging.getLogger("citadels.cluster.owner")

MOVING = "The table is moving to another server; try again in a moment."
PUBLISH_DELAY = 0.01  # listing changes within this are written once
TOKENS_KEPT = 4096


class OwnerDesk:
    """The tables this node owns, as the cluster reaches them."""

    def __init__(self, node: ClusterNode, lobby: ClusterLobby) -> None:
        self.node = node
        self.lobby = lobby
        self.members: dict[tuple[str, str], MemberSession] = {}
        self.listings: dict[str, TableListing] = {}  # the last listing made of each owned table
        self._made: dict[str, bytes] = {}  # ... and its bytes without the version (to see changes)
        self._subs: dict[str, list[Any]] = {}
        self._tokens: dict[tuple[str, int, str], str] = {}
        self._publish: asyncio.TimerHandle | None = None
        self._writes: dict[str, TableListing | None] = {}  # listings to write (None: remove), latest wins
        self._writer: asyncio.Task[None] | None = None

    # --- members --------------------------------------------------------------------------------------
    def member(self, m: wire.Member) -> MemberSession:
        ghost = self.members.get((m.node, m.session))
        if ghost is None:
            ghost = self.members[(m.node, m.session)] = MemberSession(m, self)
        else:
            ghost.update(m)
        players = self.lobby.players
        if players is not None and m.player is not None:  # its node's word on whose keys these are
            players.directory.learn_some_keys(m.player, (m.key, *m.keys))
        self.lobby.sessions.add(ghost)
        return ghost

    def _sweep(self, ghost: MemberSession) -> None:
        """Forget a member that is at none of this node's tables any more."""
        t = ghost.table
        if t is None or self.lobby.tables.get(t.id) is not t:
            self.lobby.sessions.discard(ghost)
            if self.members.get(ghost.ident) is ghost:
                del self.members[ghost.ident]

    def node_gone(self, node: str) -> None:
        """A node died: its sessions left (their seats wait for their players, who reconnect elsewhere)."""
        for ghost in [g for g in self.members.values() if g.member.node == node]:
            self.lobby.disconnect(ghost)
            ghost.table = None
            self._sweep(ghost)

    # --- calls ----------------------------------------------------------------------------------------
    def handle(self, table_id: str, call: wire.ToOwner) -> wire.Outcome:
        """Answer a front's call about `table_id` (one of this node's tables)."""
        t = self.lobby.tables.get(table_id)
        if t is None:
            return wire.Outcome(error=MOVING, cause="moving")
        ghost = self.member(call.member)
        error: LobbyError | None = None
        before = set(self.lobby.tables)
        try:
            self._dispatch(t, ghost, call)
        except LobbyError as e:
            error = e
        for table_id in set(self.lobby.tables) - before:  # a new game with the same seats (play again)
            self.node.adopt(self.lobby.tables[table_id])
        at = ghost.table
        outcome = wire.Outcome(
            error=None if error is None else str(error),
            cause=None if error is None else error.cause,
            table=None if at is None else at.id,
            seat=ghost.seat if at is not None else None,
            at_table=ghost.at_table and at is not None,
            listing=self.refresh(at if at is not None and at.id in self.lobby.tables else t),
        )
        self._sweep(ghost)
        return outcome

    def _dispatch(self, t: Table, g: MemberSession, call: wire.ToOwner) -> None:
        lobby = self.lobby
        match call:
            case wire.Arrive():
                lobby.connect(g)
            case wire.Join(seat=seat, code=code):
                lobby.join(g, t.id, seat, code)
            case wire.Watch(code=code):
                lobby.watch(g, t.id, code)
            case wire.BackToTable():
                lobby.back_to_table(g)
            case wire.ToLobby():
                if g.table is None:  # not known here (a new owner): nothing to leave
                    return
                lobby.to_lobby(g)
            case wire.Leave():
                lobby.leave(g)
            case wire.Start():
                lobby.start(g)
            case wire.AddBot(seat=seat):
                lobby.add_bot(g, seat)
            case wire.Remove(seat=seat):
                lobby.remove(g, seat)
            case wire.ReplaceWithBot(seat=seat):
                lobby.replace_with_bot(g, seat)
            case wire.SpectatorChat(allowed=allowed):
                lobby.set_spectator_chat(g, allowed)
            case wire.Rename(name=name):
                lobby.rename(g, name)
            case wire.Depart():
                lobby.disconnect(g)
                g.table = None
            case wire.Resume(seat=seat, at_table=at_table):
                self._resume(t, g, seat, at_table)
            case wire.Ready(seat=seat):
                if g.table is t:
                    g.listening(seat)
            case wire.Say(author=author, text=text, watching=watching):
                if g.table is t and g.at_table:
                    t.chat(author, text, watching)
            case wire.PlayAgain():
                if g.table is None:  # not known here (a new owner, a call that crossed a move)
                    g.table, g.seat = t, t.seat_of(g.key)
                lobby.play_again(g)
            case wire.Export():
                raise LobbyError("Saving is asked of the table's owner directly.", "refused")

    def _resume(self, t: Table, g: MemberSession, seat: int | None, at_table: bool) -> None:
        if seat is not None:
            if t.phase not in ("waiting", "playing", "over") or t.seat_of(g.key) != seat:
                g.table, g.seat, g.at_table = None, None, False
                raise LobbyError("Your seat at this table is no longer yours.", "no_seat")
        elif t.phase == "waiting":
            g.table = None
            raise LobbyError("This game has not started yet.", "not_started")
        if g.table is t and (g.at_table or not at_table):
            return  # already here (a call that crossed the move)
        g.resume(t, seat, at_table and t.phase != "waiting")

    async def export(self, table_id: str, call: wire.Export, folder: Any) -> wire.Outcome:
        """The game as save-file bytes (the table menu's "save" of a session on another node)."""
        t = self.lobby.tables.get(table_id)
        if t is None:
            return wire.Outcome(error=MOVING, cause="moving")
        if t.meta.creator != call.member.key:
            return wire.Outcome(error="Only the table's creator can save the game.", cause="not_creator")
        import tempfile
        from pathlib import Path

        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            path = Path(tmp) / "export.save"
            error = await t.export(str(path))
            if error is not None:
                return wire.Outcome(error=error, cause="export")
            data = await asyncio.to_thread(path.read_bytes)
        return wire.Outcome(table=t.id, data=data)

    def create(self, m: wire.Member, spec: Any) -> wire.Outcome:
        """A new table of this node, created by a session of this node (its creator's seat 0)."""
        return self._opened(m, lambda g: self.lobby.create(g, spec))

    def load(self, m: wire.Member, name: str) -> wire.Outcome:
        """One of the session's saved games, loaded into a new table of this node (its room)."""
        return self._opened(m, lambda g: self.lobby.load_saved(g, name))

    def _opened(self, m: wire.Member, open_table: Any) -> wire.Outcome:
        g = self.member(m)
        before = set(self.lobby.tables)
        try:
            open_table(g)
        except LobbyError as error:
            self._sweep(g)
            return wire.Outcome(error=str(error), cause=error.cause)
        for table_id in set(self.lobby.tables) - before:
            self.node.adopt(self.lobby.tables[table_id])
        t = g.table
        outcome = wire.Outcome(
            table=None if t is None else t.id,
            seat=g.seat if t is not None else None,
            at_table=g.at_table,
            listing=None if t is None else self.refresh(t),
        )
        self._sweep(g)
        return outcome

    # --- plays ----------------------------------------------------------------------------------------
    def token(self, table_id: str, seat: int, key: str) -> str:
        k = (table_id, seat, key)
        token = self._tokens.get(k)
        if token is None:
            if len(self._tokens) >= TOKENS_KEPT:
                self._tokens.clear()
            token = self._tokens[k] = seat_token(self.node.conn.subject_secret, table_id, seat, key)
        return token

    def play(self, table_id: str, token: str | None, play: wire.Play) -> wire.Received:
        t = self.lobby.tables.get(table_id)
        if t is None:
            return wire.Received(ok=False, error="moving")
        g = self.members.get((play.node, play.session))
        if g is None or g.table is not t or g.seat is None or not g.at_table:
            return wire.Received(ok=False, error="not seated here")
        if token is not None and token != self.token(t.id, g.seat, g.key):
            return wire.Received(ok=False, error="not this seat")
        if play.retry:
            g.quiet_refusal = True
        t.submit(g, play.command)
        return wire.Received()

    # --- the outbox of members (server/cluster/members.py) ---------------------------------------------
    def _to_front(self, g: MemberSession, message: wire.ToFront) -> None:
        if g.member.node == self.node.node_id:
            self.node.link.deliver(message)
        else:
            self.node.sender.send(self.node.names.node_inbox(g.member.node), wire.encode(message))

    def entered(self, g: MemberSession) -> None:
        t = g.table
        self._to_front(g, wire.Entered(session=g.member.session, table=t.id, seat=g.seat, listing=self.refresh(t)))

    def moved(
        self,
        g: MemberSession,
        about: str,
        displaced: str | None = None,
        notice: str | None = None,
        displaced_key: str = "",
    ) -> None:
        t = g.table
        message = wire.Moved(
            session=g.member.session,
            about=about,
            table=None if t is None else t.id,
            seat=g.seat if t is not None else None,
            at_table=g.at_table and t is not None,
            displaced=displaced,
            displaced_key=displaced_key,
            notice=notice,
        )
        self._to_front(g, message)
        if t is None:
            asyncio.get_running_loop().call_soon(self._sweep, g)

    def seat_message(self, g: MemberSession, message: Any) -> None:
        if g.member.node == self.node.node_id:
            self.node.link.deliver_seat(g.member.session, message)
            return
        t, seat = g.table, g.seat
        if t is None or seat is None:
            return
        subject = self.node.names.seat_updates(t.id, self.token(t.id, seat, g.key))
        self.node.sender.send(subject, wire.encode(message))

    def watched(self, g: MemberSession, message: Any) -> None:
        self._to_front(g, wire.Watched(session=g.member.session, message=message))

    def closed(self, g: MemberSession, text: str | None) -> None:
        self._to_front(g, wire.Closed(session=g.member.session, text=text))

    # --- owning tables --------------------------------------------------------------------------------
    async def own(self, t: Table, lease: Lease) -> None:
        """Answer for table `t` from now on (its lease is held): subscribe, list it."""
        nc, names = self.node.conn.nc, self.node.names
        subs = [
            await nc.subscribe(names.table_control(t.id), cb=self._on_control),
            await nc.subscribe(names.seat_commands_all(t.id), cb=self._on_play),
        ]
        await barrier(nc)
        self._subs[t.id] = subs
        self._made.pop(t.id, None)  # written now that the lease is held
        self.refresh(t)
        log_event(log, logging.INFO, "table owned", table=t.id, node=self.node.node_id, revision=lease.revision)

    def owns(self, table_id: str) -> bool:
        return table_id in self._subs

    async def _unsubscribe(self, table_id: str) -> None:
        for sub in self._subs.pop(table_id, []):
            with contextlib.suppress(Exception):
                await sub.unsubscribe()

    async def drop(self, table_id: str, reason: str, *, release: bool) -> Table | None:
        """Stop running table `table_id` here, silently (another node takes it over from its log):
        its members are forgotten, not told; their nodes find the new owner."""
        lobby = self.lobby
        t = lobby.tables.pop(table_id, None)
        await self._unsubscribe(table_id)
        for store in (lobby.origins, lobby.loaded, lobby.games):
            store.pop(table_id, None)  # type: ignore[attr-defined]
        handle = lobby._abandon_timers.pop(table_id, None)
        if handle is not None:
            handle.cancel()
        if t is not None:
            for g in [g for g in self.members.values() if g.table is t]:
                g.table = None
                self._sweep(g)
            await t.stop()
        self.listings.pop(table_id, None)
        self._made.pop(table_id, None)
        self._writes.pop(table_id, None)
        lease = self.node.leases.held.get(table_id)
        if release and lease is not None:
            with contextlib.suppress(Exception):
                await self.node.leases.release(lease)
        log_event(log, logging.INFO, "table dropped", table=table_id, node=self.node.node_id, reason=reason)
        return t

    # --- listings -------------------------------------------------------------------------------------
    def listings_changed(self) -> None:
        if self._publish is None:
            loop = asyncio.get_running_loop()
            self._publish = loop.call_later(PUBLISH_DELAY, self._refresh_all)

    def _refresh_all(self) -> None:
        self._publish = None
        for t in list(self.lobby.tables.values()):
            self.refresh(t)

    def refresh(self, t: Table) -> TableListing | None:
        """Table `t`'s listing now; written to the directory (and this node's copy) if it changed."""
        if t.id not in self.lobby.tables:
            return self.listings.get(t.id)
        lease = self.node.leases.held.get(t.id)  # none yet for a new table: listed here, written once held
        listing = listing_of(self.lobby, t, self.node.node_id, 0 if lease is None else lease.revision, 0)
        made = wire.encode(listing)
        if self._made.get(t.id) == made:
            return self.listings[t.id]
        version = (self.listings[t.id].version + 1) if t.id in self.listings else 1
        listing = msgspec.structs.replace(listing, version=version)
        self._made[t.id] = made
        self.listings[t.id] = listing
        self.node.directory.heard_locally(listing)
        self._write(t.id, listing)
        return listing

    def unlist(self, table_id: str) -> None:
        self.listings.pop(table_id, None)
        self._made.pop(table_id, None)
        self.node.directory.heard_locally_gone(table_id)
        self._write(table_id, None)

    def _write(self, table_id: str, listing: TableListing | None) -> None:
        self._writes[table_id] = listing
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_all(), name="citadels-listings")

    async def _write_all(self) -> None:
        directory, leases = self.node.directory, self.node.leases
        while self._writes:
            table_id = next(iter(self._writes))
            listing = self._writes.pop(table_id)
            try:
                if listing is None:
                    await directory.remove(table_id)
                else:
                    lease = leases.held.get(table_id)
                    if lease is not None and lease.valid():
                        await directory.publish(listing, lease)
            except Exception as error:  # NATS away: the next change writes it again
                log_event(log, logging.WARNING, "listing not written", table=table_id, error=repr(error))

    # --- NATS callbacks -------------------------------------------------------------------------------
    async def _on_control(self, msg: Any) -> None:
        table_id = msg.subject.split(".")[2]
        try:
            call = wire.to_owner.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "bad call", table=table_id, error=str(error))
            return
        try:
            if isinstance(call, wire.Export):
                outcome = await self.export(table_id, call, self.node.export_folder)
            else:
                outcome = self.handle(table_id, call)
        except Exception as error:  # a bug must not leave the caller waiting for its timeout
            log.exception("call %s on table %s failed", type(call).__name__, table_id)
            outcome = wire.Outcome(error=f"The server failed to do that ({type(error).__name__}).", cause="error")
        if msg.reply:
            with contextlib.suppress(Exception):
                await msg.respond(wire.encode(outcome))

    async def _on_play(self, msg: Any) -> None:
        parts = msg.subject.split(".")
        table_id, token = parts[2], parts[4]
        try:
            play = wire.play.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "bad play", table=table_id, error=str(error))
            received = wire.Received(ok=False, error="unreadable")
        else:
            received = self.play(table_id, token, play)
        if msg.reply:
            with contextlib.suppress(Exception):
                await msg.respond(wire.encode(received))

    async def stop(self) -> None:
        if self._publish is not None:
            self._publish.cancel()
        for table_id in list(self._subs):
            await self._unsubscribe(table_id)
        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer, 2.0)
