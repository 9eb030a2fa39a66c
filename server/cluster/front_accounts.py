"""Players who last, on a cluster node's sessions: the single server's accounts (server/lobby/accounts.py)
with the seats and names of the cluster's tables.

The nodes share one players database (`--database`: PostgreSQL, or one SQLite file for nodes on one
machine). A session logs in exactly as on a single server: its key's player from this node's memory
at once, then the database's word (`Accounts.account_arrives`, `known`); names are claimed there, key
codes are rows there (a code shown on one node is typed on any other), and the profile, leaderboard,
"my games" and account screens ask it (server/players/session_link.py).

What differs is where a seat is: in a listing of the directory, run by the table's owner, maybe on
another node. So:

- `back_to_seat` finds the seat of the session's player (any of their keys) in the listings and
  tells the owner the session arrived, as a reconnection does;
- every call to an owner carries the session's player and the keys its node knows of that player
  (`member`): the owner learns them (server/cluster/owner_desk.py), so its `same`, the seat checks of
  the single-process lobby it runs, knows the second key is the first key's player;
- a name is applied here and, at a table still waiting for its players, sent to its owner;
- a node knows the names claimed on others from the database (at start, and each login's): a session
  whose name another player claimed since is told so by the database after its login (`_name_owner`),
  and shown with a piece of its key as on a single server; a claim is always decided by the database.

A mixin of `server.cluster.front_lobby.FrontLobby` (which provides `node`, `names`, `seat_of`, `_at`,
`_ask`, `_tell`, `_changed` and `snapshot`).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import msgspec

from engine.text import clean_name, name_problem
from server.cluster import wire
from server.lobby.accounts import Accounts
from server.lobby.errors import LobbyError
from server.lobby.lifetimes import address_of
from server.logging_setup import log_event

log = logging.getLogger("citadels.cluster.front")


class FrontAccounts(Accounts):
    node: Any
    names: dict[str, str]
    _accounts_sub: Any = None

    # --- account changes every node hears ---------------------------------------------------------------
    async def start_accounts(self) -> None:
        if self.players is not None:
            self._accounts_sub = await self.node.conn.nc.subscribe(self.node.names.accounts(), cb=self._on_accounts)

    async def stop_accounts(self) -> None:
        if self._accounts_sub is not None:
            with contextlib.suppress(Exception):
                await self._accounts_sub.unsubscribe()
        await self.close_accounts()

    def key_removed(self, fingerprint: str) -> None:
        """Removed from its account on this node: its sessions here closed, and every other node told."""
        super().key_removed(fingerprint)
        self.node.sender.send(self.node.names.accounts(), wire.encode(wire.KeyRemoved(fingerprint=fingerprint)))

    async def _on_accounts(self, msg: Any) -> None:
        try:
            change = wire.key_removed.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log_event(log, logging.WARNING, "unreadable account change", error=str(error))
            return
        if self.players is not None:
            self.players.directory.forget_key(change.fingerprint)  # its next login says whose it is now
        super().key_removed(change.fingerprint)

    def member(self, s: Any) -> wire.Member:
        pid = None if s.guest else getattr(s, "player_id", None)
        keys: tuple[str, ...] = ()
        if pid is not None and self.players is not None:
            keys = tuple(sorted(k for k in self.players.directory.keys_of(pid) if k != s.key))
        return wire.Member(
            node=self.node.node_id,
            session=s.info.session_id,
            key=s.key,
            name=s.name,
            guest=bool(s.guest),
            address=address_of(s),
            player=pid,
            keys=keys,
        )

    def rename(self, s: Any, name: str) -> None:
        name = clean_name(name)
        problem = name_problem(name)
        if problem is not None:
            raise LobbyError(problem, "bad_name")
        t = s.table
        if t is not None and t.phase == "playing" and s.seat is not None:
            raise LobbyError("You cannot change your name during a game.", "renaming")
        if t is not None and t.phase == "waiting" and s.seat is not None and t.listing.saved:
            raise LobbyError("A saved game keeps its players' names.", "renaming")
        self.check_name_free(s, name)  # another player's claimed name is theirs alone
        if self.claims_names(s):
            self.claim_later(s, name)  # used once the players database says it is theirs
            return
        self.apply_name(s, name)

    def apply_name(self, s: Any, name: str) -> None:
        """Use `name` for the session (and its seat in a room, through the table's owner)."""
        s.name = name
        if not s.guest:
            self.names[s.key] = name
        t = s.table
        if t is not None and t.phase == "waiting" and s.seat is not None and not t.listing.saved:
            self._tell(s, t.id, wire.Rename(member=self.member(s), name=name))  # type: ignore[attr-defined]
        self._changed()  # type: ignore[attr-defined]

    def name_fixed(self, s: Any) -> bool:
        """A seated player keeps the name the game knows them by."""
        t = s.table
        return t is not None and s.seat is not None and (t.phase != "waiting" or t.listing.saved)

    async def _catch_up(self, s: Any) -> None:
        await super()._catch_up(s)
        await self._name_owner(s)

    async def _name_owner(self, s: Any) -> None:
        """A name claimed on another node since this node started is not in its memory: ask the database
        whose the session's (unclaimed) name is, so that it shows with a piece of the key, as anywhere."""
        players = self.players
        if s not in self.sessions or s.guest or s.player_id is None or players.directory.name_of(s.player_id):  # type: ignore[attr-defined]
            return
        try:
            owner = await players.db.find_player(s.name)
        except Exception:  # the database away: the claim itself is still refused by the database
            return
        if owner is None or owner.kind != "person" or owner.id == s.player_id or not owner.name:
            return
        players.directory.learn_name(owner.id, owner.name)
        if s in self.sessions and not self.name_fixed(s):  # type: ignore[attr-defined]
            self.apply_name(s, self.shown_name(s, s.name))

    def back_to_seat(self, s: Any) -> None:
        """A session with no table goes to the seat its player holds (any of their keys), if any."""
        if s.table is not None:
            return
        listing, seat = self.seat_of(s.key)  # type: ignore[attr-defined]
        if listing is not None:
            self._at(s, listing, seat)  # type: ignore[attr-defined]
            self._tell(s, listing.id, wire.Arrive(member=self.member(s)))  # type: ignore[attr-defined]
