"""A table as a session sees it in a cluster: the same face as the table actor (server/tables/table.py)
towards the session (server/app.py's `PlayerSession`), whichever node runs the table.

The session reads a table's `meta`, `seats`, `phase` and `save` (its table menu, its chat line's
author) and calls `submit`, `attach` and `chat`: a `RemoteTable` answers the reads from the
table's listing in the cluster's directory (written by its owner after every change) and
passes the calls to its owner through a `TableRoute` (server/cluster/front_link.py: a function
call when this node owns the table, NATS otherwise). Nothing here holds a game: the views come
from the owner, already made for the session's seat.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from server.cluster.records import TableListing
from server.tables.seats import SeatSlot, TableMeta


class TableRoute(Protocol):
    """How a node's sessions reach a table's owner (server/cluster/front_link.py)."""

    def play(self, table: RemoteTable, session: Any, command: Any) -> None: ...

    def listen(self, table: RemoteTable, session: Any, seat: int | None) -> None: ...

    def say(self, table: RemoteTable, session: Any, author: str, text: str, watching: bool) -> None: ...

    def export(self, table: RemoteTable, session: Any, path: str) -> asyncio.Future[str | None]: ...


class KeptGame:
    """A remote table's game as this node has it (the session reads `table.save.save` for the replay
    of a finished game): None until fetched from the cluster's log once the game is over."""

    def __init__(self) -> None:
        self.save: Any = None
        self.fetching = False


class _Here:
    """Stands for "a session plays this seat now" in a mirrored seat (the table menu reads it)."""

    def __repr__(self) -> str:
        return "<here>"


HERE = _Here()


class RemoteTable:
    """A cluster table, as one session of this node sees it (each session at a table has its own:
    a chat line names no session, and the owner must know whose it is)."""

    def __init__(self, listing: TableListing, route: TableRoute, session: Any) -> None:
        self.route = route
        self.session = session
        self.listing = listing
        self.id = listing.id
        self.config = None  # the lobby's row reads the rules from the listing
        self.meta: TableMeta = TableMeta(name=listing.name)
        self.seats: list[SeatSlot] = []
        self.phase = "waiting"
        self.spectators: list[None] = []
        self.save: Any = None
        self.update(listing)

    def update(self, listing: TableListing) -> None:
        """The owner's latest listing of the table."""
        self.listing = listing
        self.meta = TableMeta(
            name=listing.name,
            creator=listing.creator,
            timer=listing.timer,
            private=listing.private,
            code=listing.code,
            spectator_chat=listing.spectator_chat,
            bot_kind=listing.bot_kind,
            lineup_label=listing.lineup,
        )
        self.seats = [
            SeatSlot(
                name=s.name,
                key=s.key,
                guest=s.guest,
                bot=s.bot,
                style=s.style,
                client=HERE if s.here else None,  # type: ignore[arg-type]
            )
            for s in listing.seat_list
        ]
        self.phase = listing.state
        self.spectators = [None] * listing.spectators
        if not listing.saving:
            self.save = None
        elif not isinstance(self.save, KeptGame):
            self.save = KeptGame()

    @property
    def owner(self) -> str:
        return self.listing.owner

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def seat_of(self, key: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.key == key and s.bot is None:
                return i
        return None

    def present(self, key: str) -> bool:
        """A session of `key` is at the table, as its owner knows (its room, or playing)."""
        return any(s.key == key and s.present for s in self.listing.seat_list)

    # --- what a session calls (as on a local table actor) ----------------------------------------------
    def submit(self, client: Any, command: Any) -> None:
        self.route.play(self, client, command)

    def attach(self, client: Any, seat: int | None) -> None:
        self.route.listen(self, client, seat)

    def chat(self, author: str, text: str, watching: bool = False) -> None:
        self.route.say(self, self.session, author, text, watching)

    def export(self, path: str) -> asyncio.Future[str | None]:
        return self.route.export(self, self.session, path)
