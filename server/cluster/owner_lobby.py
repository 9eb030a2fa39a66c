"""The lobby of a table's owner: the single-process lobby (server/lobby/lobby.py), for the tables this
node holds the leases of, whose sessions are members of any node (server/cluster/members.py).

What changes from one process:

- **Nobody's lobby screen is drawn here.** Each session's node draws it from the directory of
  every table (server/cluster/front_lobby.py), so this lobby broadcasts nothing and gives its
  members an empty snapshot; its lines for a session (a notice) still reach it.
- **Every change is a listing.** The owner writes each of its tables' `TableListing` (meta,
  seats, who is there) to the directory after every change (`changed`, coalesced); that is
  how every other node lists, seats and routes.
- **Checks that span tables span the cluster.** A key seated anywhere, the table caps (total,
  per identity, per address) and join codes count the other nodes' tables too, from the
  directory.
- **A table's meta is its listing.** No `<id>.meta.json`: a node that takes the table over
  reads the meta from the listing (`ClusterTable`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, Protocol

from server.cluster.records import SeatListing, TableListing
from server.lobby.errors import LobbyError
from server.lobby.join_codes import new_code
from server.lobby.lifetimes import OPEN_PHASES, TableOrigin, check_origins
from server.lobby.lobby import Lobby
from server.tables.table import SeatSlot, Table, TableMeta
from ui.lobby_link import LobbySnapshot

EMPTY = LobbySnapshot(you="", identity="", guest=False)


class OwnerHooks(Protocol):
    """What the owner's lobby needs from its node."""

    node_id: str

    def listings_changed(self) -> None: ...

    def table_closed(self, table: Table) -> None: ...

    def remote_listings(self) -> Iterable[TableListing]: ...


class ClusterTable(Table):
    """A table of a cluster node: its meta lives in its listing, not in a file."""

    created: float = 0.0
    hooks: OwnerHooks | None = None

    def meta_path(self):  # type: ignore[no-untyped-def]
        return None

    def write_meta(self) -> None:
        if self.hooks is not None:
            self.hooks.listings_changed()


class ClusterLobby(Lobby):
    """The owner's lobby: the tables this node runs, for members of every node."""

    def __init__(self, config: Any, store: Any, pool: Any, hooks: OwnerHooks, **kwargs: Any) -> None:
        super().__init__(config, store, pool, **kwargs)
        self.hooks = hooks

    # --- tables --------------------------------------------------------------------------------------
    def _new_table(self, table_id: str, meta: TableMeta, seats: list[SeatSlot]) -> Table:
        table = ClusterTable(
            table_id,
            meta,
            seats,
            self.settings,
            store=self.store,
            pool=self.pool,
            on_change=self._table_changed,
            clock=self.clock,
        )
        table.created = time.time()
        table.hooks = self.hooks
        self.wire_table(table)  # the players database (if any): the finished game recorded by its owner
        return table

    def account_arrives(self, session: Any) -> None:
        """A member's account is its own node's business (logins, names): its node logs it in and claims
        its names; each call carries its player and keys (OwnerDesk.member teaches them to this node's
        directory, so `same` knows one player's keys here too). The owner records finished games,
        whose seats carry the players' keys (the database finds their players)."""

    def check_name_free(self, session: Any, name: str) -> None:
        """The member's node checked the name (and claimed it) before asking for it at the table."""

    def claims_names(self, session: Any) -> bool:
        return False  # a rename here is the seat's name only: the claim is the member's node's

    def close_table(self, t: Table, why: str, cause: str = "creator") -> None:
        super().close_table(t, why, cause)
        self.hooks.table_closed(t)

    # --- nobody's screen is drawn here --------------------------------------------------------------
    def snapshot(self, session: Any, shared: Any = None) -> LobbySnapshot:
        return EMPTY

    def _changed(self) -> None:
        self.hooks.listings_changed()

    def _broadcast(self) -> None:
        self._broadcast_handle = None

    # --- checks across the cluster -------------------------------------------------------------------
    def _not_seated(self, session: Any, but: Table | None = None) -> None:
        super()._not_seated(session, but)
        for listing in self.hooks.remote_listings():
            if listing.state not in OPEN_PHASES or (but is not None and listing.id == but.id):
                continue
            if any(self.same(s.key, session.key) and s.bot is None for s in listing.seat_list):
                if listing.state == "waiting" and listing.saved and not self._present_remote(listing, session.key):
                    continue  # a saved game waiting for you does not hold you
                what = "a game" if listing.state == "playing" else "a table"
                raise LobbyError(f"You already have a seat at {what} ({listing.name}): leave it first.", "seated")

    def _present_remote(self, listing: TableListing, key: str) -> bool:
        return any(self.same(s.key, key) and s.present for s in listing.seat_list)

    def check_capacity(self, session: Any) -> None:
        cfg = self.config
        remote = [x for x in self.hooks.remote_listings() if x.state in OPEN_PHASES]
        if len(self.tables) + len(remote) >= cfg.max_tables:
            raise LobbyError(f"The server holds at most {cfg.max_tables} tables; try again later.", "max_tables")
        origins = [self.origins.get(t.id) for t in self.tables.values() if t.phase in OPEN_PHASES]
        every = [o for o in origins if o is not None] + [
            TableOrigin(x.origin_identity, x.origin_address, x.origin_guest) for x in remote if x.origin_identity
        ]
        check_origins(cfg, every, session, self.same)

    def _code(self) -> str:
        codes = [t.meta.code for t in self.tables.values()] + [x.code for x in self.hooks.remote_listings()]
        return new_code(codes)


def listing_of(lobby: ClusterLobby, t: Table, owner: str, lease: int, version: int) -> TableListing:
    """Table `t` as the directory lists it (what every node needs to list, seat and route)."""
    row = lobby.row(t, None)  # the lobby's own row (server/lobby/snapshots.py)
    loaded = lobby.loaded_game(t)
    if t.config is not None:
        rules_name = t.config.rules
    elif loaded is not None:
        rules_name = loaded.config.rules
    else:
        spec = getattr(t, "spec", None)
        rules_name = spec.rules if spec is not None else "2016"
    origin = lobby.origins.get(t.id)
    seats = [
        SeatListing(
            name=s.name,
            key=s.key,
            guest=s.guest,
            bot=s.bot,
            style=s.style,
            here=s.client is not None,
            present=s.key is not None and lobby.present(t, s.key),
        )
        for s in t.seats
    ]
    state = t.phase if t.phase in ("waiting", "playing", "over") else "over"
    return TableListing(
        id=t.id,
        name=t.meta.name,
        rules=row.rules,
        lineup=row.lineup,
        taken=row.taken,
        seats=row.seats,
        state=state,  # type: ignore[arg-type]
        private=t.meta.private,
        timer=t.meta.timer,
        spectators=len(t.spectators),
        owner=owner,
        updated=getattr(t, "created", 0.0),
        rules_name=rules_name,
        creator=t.meta.creator,
        code=t.meta.code,
        spectator_chat=t.meta.spectator_chat,
        bot_kind=t.meta.bot_kind,
        seat_list=seats,
        saved=loaded is not None,
        saving=t.save is not None,
        game=lobby._game_of(t) or "",
        origin_identity=None if origin is None else origin.identity,
        origin_address=None if origin is None else origin.address,
        origin_guest=False if origin is None else origin.guest,
        lease=lease,
        version=version,
    )


def meta_of(listing: TableListing) -> TableMeta:
    """A table's meta as its listing carries it (a node taking the table over)."""
    return TableMeta(
        name=listing.name,
        creator=listing.creator,
        timer=listing.timer,
        private=listing.private,
        code=listing.code,
        spectator_chat=listing.spectator_chat,
        bot_kind=listing.bot_kind,
        lineup_label=listing.lineup,
    )
