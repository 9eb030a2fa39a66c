"""What a cluster node's lobby screen is sent: rows, rooms and snapshots drawn from the directory's
listings (server/cluster/records.py), so that every node draws every table's lobby itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from server.cluster.records import TableListing
from server.lobby.lifetimes import OPEN_PHASES
from server.lobby.snapshots import SharedRows
from ui.lobby_link import LobbySnapshot, Room, RoomSeat, TableRow


class FrontViews:
    """FrontLobby's lobby drawing (a mixin: it reads `listings`, `seat_of`, `present`, `same` and the
    account lines of server/lobby/accounts.py)."""

    if TYPE_CHECKING:

        @property
        def listings(self) -> dict[str, TableListing]: ...

        def seat_of(self, key: str) -> tuple[TableListing | None, int | None]: ...

        def present(self, listing: TableListing, key: str | None) -> bool: ...

        def same(self, a: str | None, b: str | None) -> bool: ...

        def identity(self, key: str | None) -> str | None: ...

        def account_line(self, session: Any) -> str: ...

        def accounts_state(self, session: Any) -> str: ...

    def row(self, listing: TableListing, key: str | None) -> TableRow:  # type: ignore[override]
        return TableRow(
            id=listing.id,
            name=listing.name,
            rules=listing.rules,
            lineup=listing.lineup,
            taken=listing.taken,
            seats=listing.seats,
            state=listing.state,
            private=listing.private,
            yours=key is not None and seat_in(listing, key, self.same) is not None,
            timer=listing.timer,
            spectators=listing.spectators,
        )

    def shared_rows(self) -> SharedRows:
        """Every listing's row as a stranger sees it, in the lobby's order, and who sits where: once for a
        broadcast to every session in the lobby (see server/lobby/snapshots.py)."""
        rows: list[tuple[Any, TableRow]] = []
        seated: dict[str, set[str]] = {}
        for listing in sorted(self.listings.values(), key=lambda x: (x.updated, x.id)):
            rows.append((listing, self.row(listing, None)))
            for x in listing.seat_list:
                if x.bot is None and x.key is not None:
                    seated.setdefault(self.identity(x.key) or x.key, set()).add(listing.id)
        return SharedRows(rows, seated, dict(self.listings))

    def snapshot(self, s: Any, shared: SharedRows | None = None) -> LobbySnapshot:
        key = s.key
        mine = None if s.table is None else s.table.id
        shared = shared or self.shared_rows()
        # `seat_in` compares keys with `same` (two keys of one account are one player): by identity.
        seats = shared.seated.get(self.identity(key) or key, ()) if key is not None else ()
        rows = []
        for listing, row in shared.rows:
            seated = listing.id in seats
            if listing.private and not seated and listing.id != mine:
                continue
            rows.append(replace(row, yours=True) if seated else row)
        room = None
        t = s.table
        if t is not None and s.seat is not None and t.phase == "waiting":
            room = self._room(self.listings.get(t.id, t.listing), key)  # type: ignore[arg-type]
        # as `self.seat_of(key)` (every listing asked again, per session)
        playing = shared.seated_table(seats, lambda x: x.state in OPEN_PHASES, lambda x: x.saved)
        return LobbySnapshot(
            you=s.name,
            identity=self.account_line(s),
            guest=s.guest,
            accounts=self.accounts_state(s),
            tables=rows,
            room=room,
            playing=playing.id if playing is not None and playing.state == "playing" else None,
        )

    def _room(self, listing: TableListing, key: str) -> Room:  # type: ignore[override]
        seats = []
        for i, x in enumerate(listing.seat_list):
            kind = "open" if x.bot is None and x.key is None else ("bot" if x.bot else "player")
            away = kind == "player" and not self.present(listing, x.key)
            seats.append(RoomSeat(i, x.name, kind, away=away, you=kind == "player" and self.same(x.key, key)))
        creator = self.same(listing.creator, key)
        ready = not any(x.kind == "open" for x in seats)
        if listing.saved:
            ready = ready and not any(x.away for x in seats)  # a saved game waits for its players
        return Room(
            table=self.row(listing, key),
            seats=seats,
            creator=creator,
            can_start=creator and ready,
            code=listing.code,
            spectator_chat=listing.spectator_chat,
            saved=listing.saved,
        )


def seat_in(
    listing: TableListing, key: str | None, same: Callable[[str | None, str | None], bool] | None = None
) -> int | None:
    """The seat a person with `key` (or another key of theirs: `same`) holds in `listing` (not a bot's), or None."""
    for i, s in enumerate(listing.seat_list):
        if key is not None and s.bot is None and (s.key == key or (same is not None and same(s.key, key))):
            return i
    return None
