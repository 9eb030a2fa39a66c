"""The lobby of a cluster node as its own sessions see it: every table of the cluster, from the
directory; each request about a table passed to that table's owner.

A session (server/app.py's `PlayerSession`) talks to its lobby as in one process: the same
methods, the same answers. Here they mean:

- **Lists, rooms, seats** come from the directory's listings (server/cluster/records.py),
  which each owner rewrites after every change: this node draws every lobby screen itself.
- **Requests about a table** (join, watch, start, add a bot, leave...) become a call to the
  table's owner (server/cluster/wire.py), which runs the single-process lobby's code for the
  session's member there (server/cluster/owner_lobby.py). On this node's own tables the call
  is a function call and its answer (or refusal) comes at once, as in one process; on another
  node's it is a NATS request: the method returns at once ("accepted") and a refusal comes as
  the lobby screen's notice (a toast at the table) when the owner has answered.
- **New tables** (created, loaded from a saved game) are this node's: the owner is where the
  creator connected.
- **Where a session is** (its table, seat, whether on the table screen) follows the owner's
  word: each answer, and the owner's messages (`Entered`, `Moved`) on this node's inbox
  (server/cluster/front_events.py). When a table changes owner (a failover, a hand-over) each
  session there is resumed with the new owner (`Resume`): its seat subject stays the same.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from server.admin.bans import Bans
from server.cluster import wire
from server.cluster.front_accounts import FrontAccounts
from server.cluster.front_events import FrontEvents
from server.cluster.front_moves import FrontMoves
from server.cluster.front_views import FrontViews
from server.cluster.front_views import seat_in as _seat_of
from server.cluster.records import TableListing
from server.lobby.errors import LobbyError
from server.lobby.exports import ExportIndex, Exports
from server.lobby.join_codes import Attempts, normal_code
from server.lobby.lifetimes import OPEN_PHASES, TableOrigin, address_of, check_origins, first_seat
from server.lobby.saved_games import NO_SUCH_SAVE
from server.lobby.snapshots import LobbyViews
from server.logging_setup import log_event
from server.tables import messages as tm
from server.tables.remote import RemoteTable
from server.transport.screen_wire import ScreenAction
from ui.lobby_link import LobbyUpdate, TableSpec

if TYPE_CHECKING:
    from server.cluster.front_link import FrontLink
    from server.cluster.node import ClusterNode

log = logging.getLogger("citadels.server.lobby.lobby")


class FrontLobby(FrontMoves, FrontEvents, FrontViews, FrontAccounts, LobbyViews, Exports):  # type: ignore[misc]  # FrontViews draws from listings
    """A node's sessions and their lobby, over the cluster's tables."""

    def __init__(
        self,
        config: Any,
        store: Any,
        node: ClusterNode,
        link: FrontLink,
        *,
        pool: Any = None,
        bans: Bans | None = None,
        clock: Any = time.monotonic,
    ) -> None:
        self.config = config
        self.players = node.players  # the shared players database (server/cluster/front_accounts.py), or None
        self.store = store
        self.node = node
        self.link = link
        self.pool = pool
        self.clock = clock
        self.bans = bans or Bans(None)
        self.default_bot = config.bot_kind
        self.settings = node.desk.lobby.settings  # the tables' settings (timers...), as this node's own lobby has them
        self.sessions: set[Any] = set()
        self.by_id: dict[str, Any] = {}
        self.names: dict[str, str] = {}
        self.exports = ExportIndex(None if store is None else node.exports_folder, clock)
        self.code_tries = Attempts(config.join_code_attempts_per_identity, config.join_code_window_seconds, clock)
        self.code_tries_by_address = Attempts(
            config.join_code_attempts_per_address, config.join_code_window_seconds, clock
        )
        self.refusals: Counter[str] = Counter()
        self._broadcast_handle: asyncio.TimerHandle | None = None
        self._locks: dict[Any, asyncio.Lock] = {}
        self._account_tasks: set[asyncio.Task] = set()  # logins and name claims waiting on the database
        node.directory.on_change.append(self.listing_changed)

    # --- what this node knows of the cluster's tables ------------------------------------------------
    @property
    def listings(self) -> dict[str, TableListing]:
        return self.node.directory.tables

    def seat_of(self, key: str) -> tuple[TableListing | None, int | None]:
        """The table where `key` has a seat (a saved game waiting for it only if it has no other)."""
        seats = (
            (x, s)
            for x in self.listings.values()
            if x.state in OPEN_PHASES and (s := _seat_of(x, key, self.same)) is not None
        )
        return first_seat(seats, lambda ls: ls[0].saved) or (None, None)

    def present(self, listing: TableListing, key: str | None) -> bool:
        if key is None:
            return False
        if any(self.same(s.key, key) and s.present for s in listing.seat_list):
            return True
        return any(self.same(s.key, key) and s.table is not None and s.table.id == listing.id for s in self.sessions)

    def connected(self, key: str | None) -> bool:
        return key is not None and any(self.same(s.key, key) for s in self.sessions)

    # --- sessions -------------------------------------------------------------------------------------
    def connect(self, s: Any) -> None:
        banned = self.bans.banned(None if s.guest else s.key, address_of(s))
        if banned is not None:
            self.refusals["banned"] += 1
            log_event(log, logging.INFO, "session refused", cause="banned", key=s.key, peer=address_of(s))
            s.info.close(banned)
            return
        if self._cluster_full():
            self.refusals["max_sessions"] += 1
            log_event(log, logging.INFO, "session refused", cause="max_sessions", key=s.key, peer=address_of(s))
            s.info.close(f"The server is full ({self.config.max_sessions} sessions); please try again later.")
            return
        self.sessions.add(s)
        self.by_id[s.info.session_id] = s
        kept = getattr(s.info, "carried", None)
        if not s.guest and kept is not None and kept.name:  # a moved screen: the name it had there
            self.names[s.key] = s.name
        if not s.guest and s.key in self.names:
            s.name = self.names[s.key]
        self.account_arrives(s)  # the player and their name from memory; the database catches up
        if self.moved_to_seat(s):  # their table runs in another worker of this host: the screen goes there
            return
        self.back_to_seat(s)
        self.arrived(s)
        self._changed()

    def _cluster_full(self) -> bool:
        """`max_sessions` for the whole cluster: this node's sessions and the others' (their heartbeats,
        up to a heartbeat old: a cap passed by the sessions admitted meanwhile, one per node at most)."""
        others = sum(r.sessions for n, r in self.node.nodes.live.items() if n != self.node.node_id)
        return others + len(self.sessions) >= self.config.max_sessions

    def disconnect(self, s: Any) -> None:
        if s not in self.sessions:
            return
        self.sessions.discard(s)
        self.by_id.pop(s.info.session_id, None)
        self._locks.pop(s, None)
        self.link.unlisten(s)
        if s.table is not None:
            self._tell(s, s.table.id, wire.Depart(member=self.member(s)))
        self._changed()

    def note_refusal(self, session: Any, request: str, error: LobbyError) -> None:
        self.refusals[error.cause] += 1
        log_event(log, logging.INFO, "request refused", request=request, cause=error.cause, session=_sid(session))

    # --- requests from sessions ---------------------------------------------------------------------------
    def create(self, s: Any, spec: TableSpec) -> None:
        self._not_seated(s)
        self._check_capacity(s)
        outcome = self.node.desk.create(self.member(s), spec)
        self._took(s, outcome)
        self._raise(outcome)
        self._changed()

    def join(self, s: Any, table_id: str, seat: int | None = None, code: str | None = None) -> None:
        listing = self._listing(table_id)
        if s.table is not None and s.table.id == table_id and s.seat is not None:
            return
        if self.moved(s, listing, ScreenAction("join", table_id, seat, code)):
            return
        self._ask(s, table_id, wire.Join(member=self.member(s), seat=seat, code=code))
        self._changed()

    def watch(self, s: Any, table_id: str, code: str | None = None) -> None:
        listing = self._listing(table_id)
        if self.moved(s, listing, ScreenAction("watch", table_id, code=code)):
            return
        t = s.table
        if t is not None and t.id != table_id:
            if s.seat is None:
                self._leave(s)
            elif t.phase == "waiting":
                raise LobbyError("Leave your table before watching another.", "seated")
        self._ask(s, table_id, wire.Watch(member=self.member(s), code=code))
        self._changed()

    def back_to_table(self, s: Any) -> None:
        listing, seat = self.seat_of(s.key)
        if listing is None or listing.state != "playing":
            raise LobbyError("You have no game to return to.", "no_game")
        if self.moved(s, listing, ScreenAction("back"), away=True):
            return
        self._at(s, listing, seat)
        self._ask(s, listing.id, wire.BackToTable(member=self.member(s)))

    def to_lobby(self, s: Any) -> None:
        """From the table screen back to the lobby; a player keeps their seat (away)."""
        t = s.table
        if t is not None and s.at_table:
            self._tell(s, t.id, wire.ToLobby(member=self.member(s)))
        s.at_table = False
        self.link.unlisten(s)
        if t is not None and (s.seat is None or t.phase == "over"):
            s.table, s.seat = None, None
        self._changed()

    def leave(self, s: Any) -> None:
        t = s.table
        if t is None:
            return
        if t.phase != "waiting" or s.seat is None:
            self.to_lobby(s)
            return
        self._ask(s, t.id, wire.Leave(member=self.member(s)))
        self._changed()

    def start(self, s: Any) -> None:
        self._ask(s, self._own_table(s, waiting=True).id, wire.Start(member=self.member(s)))

    def add_bot(self, s: Any, seat: int | None = None) -> None:
        self._ask(s, self._own_table(s, waiting=True).id, wire.AddBot(member=self.member(s), seat=seat))

    def remove(self, s: Any, seat: int) -> None:
        self._ask(s, self._own_table(s, waiting=True).id, wire.Remove(member=self.member(s), seat=seat))

    def replace_with_bot(self, s: Any, seat: int) -> None:
        t = self._own_table(s)
        self._ask(s, t.id, wire.ReplaceWithBot(member=self.member(s), seat=seat))

    def set_spectator_chat(self, s: Any, allowed: bool) -> None:
        t = self._own_table(s)
        self._ask(s, t.id, wire.SpectatorChat(member=self.member(s), allowed=allowed))

    def play_again(self, s: Any) -> None:
        """The same seats again after a finished game: a call to its owner, which opens the new table."""
        t = s.table
        if t is None or t.phase != "over":
            raise LobbyError("The game is not over.", "not_over")
        if s.seat is None:
            raise LobbyError("Only the players play again; create a table in the lobby.", "not_a_player")
        s.at_table = False  # off the finished table (the owner's member leaves it too)
        self.link.unlisten(s)
        self._ask(s, t.id, wire.PlayAgain(member=self.member(s)))
        self._changed()

    def kept_seat(self, s: Any) -> None:
        """Back in the lobby after a game: the room of its new game, if one keeps a seat."""
        if s.table is None:
            listing, seat = self.seat_of(s.key)
            if listing is not None and listing.state == "waiting":
                self._at(s, listing, seat)
                self._tell(s, listing.id, wire.Arrive(member=self.member(s)))

    def join_code(self, s: Any, code: str) -> None:
        addr = address_of(s)
        if self.code_tries.exceeded(s.key) or (addr is not None and self.code_tries_by_address.exceeded(addr)):
            raise LobbyError("Too many wrong codes: wait a few minutes before trying again.", "code_guesses")
        code = normal_code(code)
        for listing in self.listings.values():
            if listing.code and listing.code == code:
                if listing.state == "waiting":
                    self.join(s, listing.id, code=code)
                else:
                    self.watch(s, listing.id, code=code)
                return
        self.code_tries.add(s.key)
        if addr is not None:
            self.code_tries_by_address.add(addr)
        raise LobbyError("No table has this code.", "wrong_code")

    def saved_games_for(self, s: Any) -> list[str]:
        if s.guest or self.store is None:
            return []
        return [e.name for e in self.exports.owned_by(s.key, self.same)]

    def load_saved(self, s: Any, name: str) -> None:
        entry = None if s.guest else self.exports.get(name)
        if entry is None or entry.owners is None or not any(self.same(o, s.key) for o in entry.owners):
            raise LobbyError(NO_SUCH_SAVE, "not_owner")
        live = next((x for x in self.listings.values() if x.game == entry.game and x.state in OPEN_PHASES), None)
        if live is not None:  # open already: to its seat, its room, or watching it
            seat = _seat_of(live, s.key, self.same)
            if seat is not None:
                self._at(s, live, seat)
                self._ask(s, live.id, wire.Arrive(member=self.member(s)))
            elif live.state == "playing":
                self.watch(s, live.id, code=live.code)
            else:
                raise LobbyError("This game is already open and waits for its players.", "already_open")
            return
        self._not_seated(s)
        self._check_capacity(s)
        outcome = self.node.desk.load(self.member(s), name)
        self._took(s, outcome)
        self._raise(outcome)
        self._changed()

    # --- checks across the cluster ----------------------------------------------------------------------
    def _not_seated(self, s: Any) -> None:
        for listing in self.listings.values():
            if listing.state not in OPEN_PHASES or _seat_of(listing, s.key, self.same) is None:
                continue
            if listing.state == "waiting" and listing.saved and not self.present(listing, s.key):
                continue  # a saved game waiting for you does not hold you
            what = "a game" if listing.state == "playing" else "a table"
            raise LobbyError(f"You already have a seat at {what} ({listing.name}): leave it first.", "seated")

    def _check_capacity(self, s: Any) -> None:
        cfg = self.config
        live = [x for x in self.listings.values() if x.state in OPEN_PHASES]
        if len(live) >= cfg.max_tables:
            raise LobbyError(f"The server holds at most {cfg.max_tables} tables; try again later.", "max_tables")
        origins = [TableOrigin(x.origin_identity, x.origin_address, x.origin_guest) for x in live if x.origin_identity]
        check_origins(cfg, origins, s, self.same)

    def _listing(self, table_id: str) -> TableListing:
        listing = self.listings.get(table_id)
        if listing is None:
            raise LobbyError("This table no longer exists.", "no_table")
        return listing

    def _own_table(self, s: Any, waiting: bool = False) -> RemoteTable:
        t = s.table
        if t is None or not self.same(t.meta.creator, s.key) or (waiting and t.phase != "waiting"):
            if waiting:
                raise LobbyError("Only the table's creator can do that, before the start.", "not_creator")
            raise LobbyError("Only the table's creator can do that.", "not_creator")
        return t

    # --- calls to owners ----------------------------------------------------------------------------------
    def _at(self, s: Any, listing: TableListing, seat: int | None) -> None:
        """`s` is at `listing`'s table (by this node's knowledge, until its owner says otherwise)."""
        if s.table is None or s.table.id != listing.id:
            s.table = RemoteTable(listing, self.link, s)
        s.seat = seat

    def _ask(self, s: Any, table_id: str, call: wire.ToOwner) -> None:
        """A call for `s` to the table's owner. This node's table: done now (a refusal raised, as in one
        process). Another node's: sent, the refusal shown when it comes."""
        if self.link.local(table_id):
            outcome = self.link.call_now(table_id, call)
            self._took(s, outcome, table_id)
            self._raise(outcome)
            return
        self.link.spawn(self._ask_later(s, table_id, call, quiet=False))

    def _tell(self, s: Any, table_id: str, call: wire.ToOwner) -> None:
        """As `_ask`, for what the session does not wait on (its departure, going back to the lobby)."""
        if self.link.local(table_id):
            self._took(s, self.link.call_now(table_id, call), table_id)
            return
        self.link.spawn(self._ask_later(s, table_id, call, quiet=True))

    def _lock(self, s: Any) -> asyncio.Lock:
        lock = self._locks.get(s)
        if lock is None:
            lock = self._locks[s] = asyncio.Lock()
        return lock

    async def _ask_later(self, s: Any, table_id: str, call: wire.ToOwner, quiet: bool) -> wire.Outcome:
        async with self._lock(s):  # one call at a time per session: they are answered in order
            outcome = await self.link.call(table_id, call)
        if s not in self.sessions:
            return outcome
        self._took(s, outcome, table_id)
        if outcome.error is not None and not quiet:
            self.note_refusal(s, type(call).__name__, LobbyError(outcome.error, outcome.cause or "refused"))
            if s.at_table:
                s.post(tm.Toast(outcome.error, error=True))
            else:
                s.post(LobbyUpdate(self.snapshot(s), notice=outcome.error))
        self._changed()
        return outcome

    def _took(self, s: Any, outcome: wire.Outcome, table_id: str | None = None) -> None:
        """Where the owner says `s` is now."""
        if outcome.listing is not None:
            self.node.directory.heard_locally(outcome.listing)
        if outcome.table is not None:
            listing = self.listings.get(outcome.table)
            if listing is None and outcome.listing is not None and outcome.listing.id == outcome.table:
                listing = outcome.listing
            if listing is not None:
                self._at(s, listing, outcome.seat)
        elif table_id is not None and s.table is not None and s.table.id == table_id and not s.at_table:
            self.link.unlisten(s)
            s.table, s.seat = None, None

    @staticmethod
    def _raise(outcome: wire.Outcome) -> None:
        if outcome.error is not None:
            raise LobbyError(outcome.error, outcome.cause or "refused")

    def _leave(self, s: Any) -> None:
        """Stop watching a table (before watching another)."""
        t = s.table
        if t is not None:
            if s.at_table:
                self._tell(s, t.id, wire.ToLobby(member=self.member(s)))
            self.link.unlisten(s)
            s.table, s.seat = None, None

    async def close(self) -> None:
        if self._broadcast_handle is not None:
            self._broadcast_handle.cancel()
        if self.listing_changed in self.node.directory.on_change:
            self.node.directory.on_change.remove(self.listing_changed)
        await self.stop_accounts()


def _sid(session: Any) -> str | None:
    info = getattr(session, "info", None)
    return getattr(info, "session_id", None)
