"""FrontLobby's part in moving screens (a mixin): a player who joins, watches or goes back to a table
that another worker of this host runs has their screen run there from then on (issue 23; the why
and the how: server/transport/screen_wire.py), so that a table's screens and its actor share one
process. The session asks the owner nothing from here: the moved screen does what the player asked
(`ScreenAction`) as soon as it has started there, and says so if the table refuses.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from server.lobby.errors import LobbyError
from server.logging_setup import log_event
from server.transport.screen_wire import MoveTo, ScreenAction
from ui.lobby_link import LobbyUpdate

if TYPE_CHECKING:
    from server.cluster.node import ClusterNode
    from server.cluster.records import TableListing

log = logging.getLogger("citadels.cluster.front")


class FrontMoves:
    if TYPE_CHECKING:
        node: ClusterNode

        def seat_of(self, key: str) -> tuple[TableListing | None, int | None]: ...

        def join(self, s: Any, table_id: str, seat: int | None = None, code: str | None = None) -> None: ...

        def watch(self, s: Any, table_id: str, code: str | None = None) -> None: ...

        def back_to_table(self, s: Any) -> None: ...

        def note_refusal(self, session: Any, request: str, error: LobbyError) -> None: ...

        def snapshot(self, s: Any) -> Any: ...

    def moved(self, s: Any, listing: TableListing | None, action: ScreenAction | None, away: bool = False) -> bool:
        """Move `s`'s screen to the worker that runs `listing`'s table, if that is another worker of
        this host and the session is free to go: at no table here (`away`: or in this lobby, away
        from its table: leaving, it departs from there as any closed screen does). True if it moves."""
        if listing is None or not listing.owner or listing.owner == self.node.node_id:
            return False
        if s.table is not None and not (away and not s.at_table):
            return False
        info = getattr(s, "info", None)
        return info is not None and info.move(MoveTo(listing.owner, action))

    def moved_to_seat(self, s: Any) -> bool:
        """A session arriving with a seat at another worker's table moves there (its seat is found
        again there, as after any reconnection)."""
        listing, _ = self.seat_of(s.key)
        return self.moved(s, listing, None)

    def arrived(self, s: Any) -> None:
        """A moved screen has started here: do what the player asked on the screen they left."""
        info = getattr(s, "info", None)
        action: ScreenAction | None = getattr(info, "action", None)
        if action is None or s.table is not None:
            return
        try:
            if action.kind == "join":
                self.join(s, action.table_id, action.seat, action.code)
            elif action.kind == "watch":
                self.watch(s, action.table_id, action.code)
            elif action.kind == "back":
                self.back_to_table(s)
        except LobbyError as error:  # the table refused: the player reads why in this lobby
            self.note_refusal(s, action.kind, error)
            s.post(LobbyUpdate(self.snapshot(s), notice=str(error)))
        log_event(log, logging.DEBUG, "moved screen arrived", session=s.info.session_id, action=action.kind)
