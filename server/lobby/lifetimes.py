"""Tables' owners and lifetimes: who opened a table and from where, how many each may hold open,
and when a table closes.

- **Limits** (`check_capacity`), for new tables and loaded games alike, with the
  server's `max_tables`: open tables (waiting or playing) per identity, per
  source address, and guests' tables per address (a guest is a new identity
  each session: the address is what bounds a guest who reconnects in a loop).
- **Abandoned tables**: when a waiting table's creator leaves (disconnects, or
  is a guest, who cannot come back), the players in its room are told and the
  table closes after `abandoned_table_grace_seconds` unless the creator returns.
- **Closing** a table (its creator, the host, abandonment, a finished game that
  nobody looks at any more): everyone there goes back to the lobby with a line.

A mixin of `server.lobby.lobby.Lobby` (which provides `config`, `tables`,
`sessions`, `snapshot`, `connected` and `_changed`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from server.lobby.errors import LobbyError
from server.logging_setup import log_event
from server.tables.messages import Displaced
from server.tables.table import Table
from ui.lobby_link import LobbyUpdate

log = logging.getLogger("citadels.server.lobby.lobby")

OPEN_PHASES = ("waiting", "playing")

T = TypeVar("T")


def first_seat(seats: Iterable[T], saved: Callable[[T], bool]) -> T | None:
    """Of the open tables where a person has a seat, in the lobby's order, the one that is theirs: the
    first, a saved game waiting for its players only if there is no other."""
    later = None
    for seat in seats:
        if not saved(seat):
            return seat
        if later is None:
            later = seat
    return later


@dataclass
class TableOrigin:
    """Who opened a table, for the limits (not saved: resumed tables count for nobody)."""

    identity: str | None
    address: str | None
    guest: bool


def address_of(session: Any) -> str | None:
    info = getattr(session, "info", None)
    return getattr(info, "peer_host", None)


def check_origins(cfg: Any, origins: list[TableOrigin], session: Any, same: Any = None) -> None:
    """LobbyError when `session` may not open another table under the per-identity and per-address
    caps, counted over `origins` (the open tables' creators: one server's or a whole cluster's;
    `same`: whether two keys are one player's)."""
    same = same or (lambda a, b: a == b)
    if sum(1 for o in origins if same(o.identity, session.key)) >= cfg.max_tables_per_identity:
        raise LobbyError(
            f"You already have {cfg.max_tables_per_identity} open tables: finish or close one first.",
            "tables_per_identity",
        )
    addr = address_of(session)
    if addr is None:
        return
    from_addr = [o for o in origins if o.address == addr]
    if len(from_addr) >= cfg.max_tables_per_address:
        raise LobbyError(
            f"Your address already has {cfg.max_tables_per_address} open tables; try again later.",
            "tables_per_address",
        )
    if session.guest and sum(1 for o in from_addr if o.guest) >= cfg.max_guest_tables_per_address:
        raise LobbyError(
            "Guests from your address already have open tables; try again later, or connect with an SSH key.",
            "guest_tables_per_address",
        )


class TableLifetimes:
    config: Any
    tables: dict[str, Table]
    sessions: set[Any]
    origins: dict[str, TableOrigin]
    _abandon_timers: dict[str, asyncio.TimerHandle]
    _stopping: set[asyncio.Task]
    _changed: Callable[[], None]  # provided by LobbyViews (server/lobby/snapshots.py): a declaration, not a stub

    # --- limits -----------------------------------------------------------------------------------
    def check_capacity(self, session: Any) -> None:
        """LobbyError unless `session` may open one more table (a new one or a loaded game)."""
        cfg = self.config
        if len(self.tables) >= cfg.max_tables:
            raise LobbyError(f"The server holds at most {cfg.max_tables} tables; try again later.", "max_tables")
        live = [self.origins.get(t.id) for t in self.tables.values() if t.phase in OPEN_PHASES]
        check_origins(cfg, [o for o in live if o is not None], session, self.same)

    def note_origin(self, table: Table, session: Any) -> None:
        self.origins[table.id] = TableOrigin(session.key, address_of(session), bool(session.guest))

    # --- abandoned waiting tables -----------------------------------------------------------------
    def creator_left(self, t: Table) -> None:
        """The creator of waiting table `t` is gone: its room is told; it closes after the grace."""
        if t.phase != "waiting" or t.id in self._abandon_timers:
            return
        grace = self.config.abandoned_table_grace_seconds
        loop = asyncio.get_running_loop()
        self._abandon_timers[t.id] = loop.call_later(grace, self._abandoned, t.id, context=contextvars.Context())
        log_event(log, logging.INFO, "table creator left", table=t.id, closes_in=grace)
        if (t.meta.creator or "").startswith("guest:"):  # a guest's identity does not come back
            self._tell_room(t, f"The table's creator (a guest) left: the table closes in {grace:g} s.")
        else:
            self._tell_room(t, f"The table's creator left: the table closes in {grace:g} s unless they come back.")

    def creator_back(self, t: Table) -> None:
        handle = self._abandon_timers.pop(t.id, None)
        if handle is not None:
            handle.cancel()
            log_event(log, logging.INFO, "table creator back", table=t.id)
            self._tell_room(t, "The table's creator is back.")

    def _abandoned(self, table_id: str) -> None:
        self._abandon_timers.pop(table_id, None)
        t = self.tables.get(table_id)
        if t is None or t.phase != "waiting":
            return
        creator = t.meta.creator
        if creator is not None and any(s.table is t and self.same(s.key, creator) for s in self.sessions):
            return
        self.close_table(t, "The table was closed: its creator left.", cause="abandoned")
        self._changed()

    def _tell_room(self, t: Table, text: str) -> None:
        for s in list(self.sessions):
            if s.table is t and not s.at_table:
                s.post(LobbyUpdate(self.snapshot(s), notice=text))  # type: ignore[attr-defined]

    # --- closing ----------------------------------------------------------------------------------
    def close_table(self, t: Table, why: str, cause: str = "creator") -> None:
        """Close `t` now: its sessions go back to the lobby with `why` (none if empty)."""
        t.phase = "closed"
        handle = self._abandon_timers.pop(t.id, None)
        if handle is not None:
            handle.cancel()
        for s in list(self.sessions):
            if s.table is t:
                s.table, s.seat = None, None
                if s.at_table:  # on the table screen: back to the lobby with the line
                    s.post(Displaced(why, key="" if why else "displaced_closed"))
                else:
                    s.post(LobbyUpdate(self.snapshot(s), notice=why or None))  # type: ignore[attr-defined]
        self.tables.pop(t.id, None)
        self.origins.pop(t.id, None)
        loop = asyncio.get_running_loop()
        task = loop.create_task(t.stop(), context=contextvars.Context())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)
        log_event(log, logging.INFO, "table closed", table=t.id, cause=cause)

    def maybe_drop(self, t: Table) -> None:
        """A finished game leaves the index when nobody looks at it any more."""
        if t.phase == "over" and not any(s.table is t for s in self.sessions):
            self.close_table(t, "", cause="finished")

    async def close_by_host(self, table_id: str, why: str) -> str:
        """The host closes a table (`citadels admin close`): a running game's save is set aside in
        `closed/` (not resumed at the next start; `--load` can bring it back). Returns what was done."""
        t = self.tables.get(table_id)
        if t is None or t.phase == "closed":
            raise LobbyError(f"No table {table_id!r}.", "no_table")
        save = t.save if t.phase == "playing" else None
        self.close_table(t, why, cause="host")
        self._changed()
        await asyncio.gather(*self._stopping, return_exceptions=True)
        if save is None or save.finished or self.store is None:  # type: ignore[attr-defined]
            return f"closed {table_id}"
        path = await asyncio.to_thread(self.store.set_aside, save)  # type: ignore[attr-defined]
        meta = t.meta_path()  # the table's settings, kept only for resuming
        if meta is not None:
            meta.unlink(missing_ok=True)
        return f"closed {table_id}; its game is kept in {path}"

    def same(self, a: str | None, b: str | None) -> bool:  # pragma: no cover - provided by Accounts
        raise NotImplementedError
