"""A session of the cluster as the owner of its table sees it: a `Member` standing in for the
real session (server/app.py's `PlayerSession`), which runs on the player's node.

The owner's lobby and table actor are the single-process ones: they read a session's `key`,
`name`, `guest`, `info`, `table`, `seat`, `at_table`, call `post(message)` and
`enter_table(table, seat)`. A `MemberSession` gives them exactly that, and turns each call
into a message for the real session (through an `Outbox`: NATS, or a function call when the
session runs on this node):

- the actor's messages for a seat go out on that seat's update subject, held back until the
  session says it listens there (`ready`): a view sent before would be lost;
- a spectator's go to its node's inbox (`Watched`);
- `Displaced` (a seat taken over, a table closed) and the lobby's lines (`LobbyUpdate` with a
  notice) go to the inbox with where the session is now (`Moved`);
- `enter_table` sends `Entered`, then attaches to the actor as a local session would (so the
  actor never sees the seat empty in between: no "away" and "back" lines at a game's start).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

import msgspec

from server.cluster.wire import Member
from server.logging_setup import log_event
from server.tables import messages as tm
from ui.lobby_link import LobbyUpdate

log = logging.getLogger("citadels.cluster.owner")


class Outbox(Protocol):
    """Where a member's messages go (implemented by the owner desk)."""

    def entered(self, member: MemberSession) -> None: ...

    def moved(
        self,
        member: MemberSession,
        about: str,
        displaced: str | None = None,
        notice: str | None = None,
        displaced_key: str = "",
    ) -> None: ...

    def seat_message(self, member: MemberSession, message: tm.ToSession) -> None: ...

    def watched(self, member: MemberSession, message: tm.ToSession) -> None: ...

    def closed(self, member: MemberSession, text: str | None) -> None: ...


class MemberInfo:
    """What the lobby reads of `session.info`: the session's id, the player's address, and a way
    to close the session."""

    __slots__ = ("_member", "peer_host", "session_id")

    def __init__(self, member: MemberSession) -> None:
        self._member = member
        self.session_id = member.member.session
        self.peer_host = member.member.address

    def close(self, message: str | None = None) -> None:
        self._member.outbox.closed(self._member, message)


class MemberSession:
    """The owner's stand-in for a session of (possibly) another node."""

    def __init__(self, member: Member, outbox: Outbox) -> None:
        self.member = member
        self.outbox = outbox
        self.key = member.key
        self.name = member.name
        self.guest = member.guest
        self.player_id = member.player  # the key's player, as the session's node knows it
        self.info = MemberInfo(self)
        self._table: Any = None
        self.last_table = ""
        self.seat: int | None = None
        self.at_table = False
        self.app: Any = True  # the lobby reads `app` as "the session is live"
        self.gen = 0
        self.connected_at = time.time()
        self.ready = True
        self.quiet_refusal = False
        self._held: list[tm.ToSession] = []

    @property
    def ident(self) -> tuple[str, str]:
        return (self.member.node, self.member.session)

    def update(self, member: Member) -> None:
        """The session's latest facts (its name may have changed in its node's lobby)."""
        self.member = member
        self.name = member.name
        self.player_id = member.player

    # --- what the lobby and the actor call -----------------------------------------------------------
    def post(self, message: Any) -> None:
        if isinstance(message, tm.Displaced):
            about = self._about()
            self.table, self.seat, self.at_table = None, None, False
            self._held.clear()
            self.outbox.moved(self, about, displaced=message.text, displaced_key=message.key)
        elif isinstance(message, LobbyUpdate):
            self.outbox.moved(self, self._about(), notice=message.notice)
        elif isinstance(message, msgspec.Struct):
            if not self.at_table:
                return
            if isinstance(message, tm.Refused) and self.quiet_refusal:
                self.quiet_refusal = False  # a command sent again after a move, applied before it
                log_event(log, logging.DEBUG, "refusal not shown", session=self.member.session, why=message.reason)
                return
            if isinstance(message, tm.SeatView):
                self.quiet_refusal = False
            if self.seat is None:
                self.outbox.watched(self, message)  # type: ignore[arg-type]
            elif self.ready:
                self.outbox.seat_message(self, message)  # type: ignore[arg-type]
            else:
                self._held.append(message)  # type: ignore[arg-type]

    @property
    def table(self) -> Any:
        return self._table

    @table.setter
    def table(self, table: Any) -> None:  # the lobby sets it directly: remember which it was
        if table is not None:
            self.last_table = table.id
        self._table = table

    def _about(self) -> str:
        """The table of this owner the member is (or was last) at."""
        return self.last_table

    def enter_table(self, table: Any, seat: int | None) -> None:
        self.gen += 1
        self.table, self.seat = table, seat
        self.at_table = True
        self.ready = seat is None  # a spectator's messages go to its inbox, always listened to
        self._held.clear()
        self.outbox.entered(self)
        table.attach(self, seat)

    # --- what the session's node says ----------------------------------------------------------------
    def listening(self, seat: int | None) -> None:
        """The session listens on `seat`'s update subject: send what was held."""
        if seat != self.seat or self.ready:
            return
        self.ready = True
        held, self._held = self._held, []
        for message in held:
            self.outbox.seat_message(self, message)

    def resume(self, table: Any, seat: int | None, at_table: bool) -> None:
        """The table changed owner: the session is back where it was, already listening."""
        self.table, self.seat = table, seat
        self.at_table = at_table
        self.ready = True
        if at_table:
            table.attach(self, seat)
