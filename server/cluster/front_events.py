"""What happens to a node's sessions without their asking: the owners' messages (`ToFront`, on this
node's inbox or by function call from this node's own desk) and the directory's changes.

- `Entered`: the owner put the session on a table's screen (its game started, it came back to
  its seat, it watches): the session enters the table as in one process, then listens on its
  seat's update subject and tells the owner so (server/cluster/front_link.py).
- `Moved`: it lost its seat, its table closed, or the lobby has a line for it.
- `Watched`: a spectator's view. `Closed`: close the session (a ban the owner knows of).
- A listing that changed owner (failover, hand-over): every session of this node at that table
  is resumed with the new owner (`Resume`), after subscribing to its seat's subject if the new
  owner is another node; a listing that vanished: its table closed.

A mixin of `server.cluster.front_lobby.FrontLobby` (which provides `sessions`, `by_id`, `link`,
`node`, `listings`, `member`, `snapshot`, `_at`, `_lock`, `_took` and `_changed`).
"""

from __future__ import annotations

import logging
from typing import Any

from server.cluster import wire
from server.cluster.records import TableListing
from server.logging_setup import log_event
from server.tables import messages as tm
from ui.lobby_link import LobbyUpdate

log = logging.getLogger("citadels.cluster.front")

TABLE_GONE = "The table was closed."


class FrontEvents:
    sessions: set[Any]
    by_id: dict[str, Any]
    link: Any
    node: Any

    # --- the owners' messages ---------------------------------------------------------------------------
    def heard(self, message: wire.ToFront) -> None:
        s = self.by_id.get(message.session)
        if s is None:
            return  # the session ended meanwhile (its departure is on its way to the owner)
        match message:
            case wire.Entered(table=table_id, seat=seat, listing=listing):
                self._entered(s, table_id, seat, listing)
            case wire.Moved():
                self._moved(s, message)
            case wire.Watched(message=inner):
                if s.at_table and s.seat is None:
                    s.post(inner)
            case wire.Closed(text=text):
                s.info.close(text)
        self._changed()  # type: ignore[attr-defined]

    def _entered(self, s: Any, table_id: str, seat: int | None, listing: TableListing | None) -> None:
        if listing is not None:
            self.node.directory.heard_locally(listing)
        known = self.listings.get(table_id) or listing  # type: ignore[attr-defined]
        if known is None:
            return
        self._at(s, known, seat)  # type: ignore[attr-defined]
        s.enter_table(s.table, seat)  # as in one process: the table screen, then `attach` (listen)

    def _moved(self, s: Any, m: wire.Moved) -> None:
        if m.listing is not None:
            self.node.directory.heard_locally(m.listing)
        t = s.table
        if t is not None and t.id != m.about:  # about a table the session has left since
            if m.notice and not s.at_table:
                s.post(LobbyUpdate(self.snapshot(s), notice=m.notice))  # type: ignore[attr-defined]
            return
        if m.displaced is not None or (m.table is None and s.at_table):
            self.link.unlisten(s)
            if m.displaced_key:  # a sentence of the catalogue, said in the player's language
                s.post(tm.Displaced(m.displaced or "", key=m.displaced_key))
            else:
                s.post(tm.Displaced(m.displaced or m.notice or TABLE_GONE))  # back to the lobby, with the line
            return
        if m.table is None:
            self.link.unlisten(s)
            s.table, s.seat = None, None
        else:
            s.seat = m.seat
        if m.notice:
            s.post(LobbyUpdate(self.snapshot(s), notice=m.notice))  # type: ignore[attr-defined]

    # --- the directory's changes ------------------------------------------------------------------------
    def listing_changed(self, table_id: str, listing: TableListing | None) -> None:
        for s in [s for s in self.sessions if s.table is not None and s.table.id == table_id]:
            t = s.table
            if listing is None:
                self.link.unlisten(s)
                if s.at_table:
                    s.post(tm.Displaced(TABLE_GONE))
                else:
                    s.table, s.seat = None, None
                    s.post(LobbyUpdate(self.snapshot(s), notice=TABLE_GONE))  # type: ignore[attr-defined]
                continue
            before = t.owner
            t.update(listing)
            if listing.owner and listing.owner != before:
                self.link.spawn(self._resume(s, t))
            if listing.state == "over" and t.save is not None and t.save.save is None and not t.save.fetching:
                t.save.fetching = True  # the finished game, for its replay from the scores screen
                self.link.spawn(self._keep_game(t))
        self._changed()  # type: ignore[attr-defined]

    async def _keep_game(self, t: Any) -> None:
        try:
            t.save.save = await self.link.game_of(t.id)
        except Exception as error:  # no replay for this one: the scores screen offers none
            log_event(log, logging.INFO, "finished game not fetched", table=t.id, error=repr(error))

    async def _resume(self, s: Any, t: Any) -> None:
        """`s`'s table has a new owner: listen where it will send, then tell it where `s` was."""
        async with self._lock(s):  # type: ignore[attr-defined]
            if s.table is not t or s not in self.sessions:
                return
            seat, at_table = s.seat, s.at_table
            if at_table and seat is not None:
                await self.link.follow(t, s, seat)
            call = wire.Resume(member=self.member(s), seat=seat, at_table=at_table)  # type: ignore[attr-defined]
            outcome = await self.link.call(t.id, call)
        log_event(log, logging.INFO, "session resumed", table=t.id, owner=t.owner, error=outcome.error)
        if s.table is not t:
            return
        if outcome.error is not None:
            self.link.unlisten(s)
            if s.at_table:
                s.post(tm.Displaced(outcome.error))
            else:
                s.table, s.seat = None, None
            return
        self._took(s, outcome, t.id)  # type: ignore[attr-defined]
