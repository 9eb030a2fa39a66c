"""Play again with the same seats: a new table for the people and bots of a finished game.

The first player who asks creates it (and is its creator): the same rule set,
line-up, variants, timer and privacy; every bot in its seat again (same name
and level); every other person's seat kept for them (their key is bound to it,
as when they sit down), unless they have sat down elsewhere since. Each of them
still connected is told. A later "play again" from the same finished game takes
the seat kept at that new table. Guests keep their seat only while their
session lasts (their identity is the session's). Before the new game starts,
anyone may leave the seat kept for them, and the creator may remove an absent
person or put a bot in an open seat, as at any table.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from server.lobby.errors import LobbyError
from server.logging_setup import log_event
from server.tables.seats import SeatSlot, TableMeta
from server.tables.table import Table, Toast
from ui.lobby_link import TableSpec

log = logging.getLogger("citadels.server.lobby.rematch")


def play_again(lobby: Any, session: Any) -> Table:
    """Seat `session` at the new game of its finished table (created if it is the first to ask)."""
    old: Table | None = session.table
    if old is None or old.phase != "over":
        raise LobbyError("The game is not over.", "not_over")
    if session.seat is None:
        raise LobbyError("Only the players play again; create a table in the lobby.", "not_a_player")
    seat = session.seat
    new = getattr(old, "rematch", None)
    if new is None or new.phase not in ("waiting", "playing") or lobby.tables.get(new.id) is not new:
        new = _create(lobby, session, old)
        old.rematch = new  # type: ignore[attr-defined]
    elif not lobby.same(new.seats[seat].key, session.key):  # any key of the player who sat there
        raise LobbyError("Your seat at the new game was given to someone else.", "seat_taken")
    lobby.to_lobby(session)  # off the finished table (dropped once nobody looks at it)
    session.table, session.seat = new, seat
    if new.phase == "playing":  # it started while this player looked at the scores: to their seat
        session.enter_table(new, seat)
    lobby._changed()
    return new


def kept_seat(lobby: Any, session: Any) -> None:
    """A person going back to the lobby from a finished game: their room is the new game's, if a seat
    is kept for them there."""
    if session.table is None:
        t, seat = lobby.seat_of(session.key)
        if t is not None and t.phase == "waiting":
            session.table, session.seat = t, seat


def spec_of(old: Table) -> TableSpec:
    """What the finished table was made of (a table resumed from a save has only its config)."""
    spec = getattr(old, "spec", None)
    if spec is not None:
        return spec
    cfg = old.config
    assert cfg is not None  # a game that is over was started (Table._start) or resumed (Table.resume): both set it
    lineup = "custom" if cfg.characters else (cfg.preset or "first-game")
    return TableSpec(
        name=old.meta.name,
        players=len(old.seats),
        rules=cfg.rules,
        lineup=lineup,
        characters=list(cfg.characters or []) or None,
        uniques=list(cfg.uniques or []) or None,
        variants=list(cfg.variants or []),
        bots=sum(1 for s in old.seats if s.bot is not None),
        bot_kind=old.meta.bot_kind,
        timer=old.meta.timer,
        private=old.meta.private,
        spectator_chat=old.meta.spectator_chat,
    )


def _create(lobby: Any, session: Any, old: Table) -> Table:
    lobby.check_capacity(session)  # the server's and this player's limits on open tables
    seats: list[SeatSlot] = []
    invited: list[str] = []
    for i, s in enumerate(old.seats):
        if s.bot is not None:
            seats.append(SeatSlot(name=s.name, bot=s.bot, style=s.style))
        elif i == session.seat:
            seats.append(SeatSlot(name=s.name, key=session.key, guest=session.guest))
        elif s.key is not None and lobby.seat_of(s.key)[0] is None:
            seats.append(SeatSlot(name=s.name, key=s.key, guest=s.guest))
            invited.append(s.key)
        else:  # gone for good (a guest), or seated at another table since: an open seat
            seats.append(SeatSlot(name=""))
    m = old.meta
    meta = TableMeta(
        name=m.name,
        creator=session.key,
        timer=m.timer,
        private=m.private,
        code=lobby._code() if m.private else None,
        spectator_chat=m.spectator_chat,
        bot_kind=m.bot_kind,
        lineup_label=m.lineup_label,
    )
    table_id = "t" + secrets.token_hex(4)
    while table_id in lobby.tables:
        table_id = "t" + secrets.token_hex(4)
    table = lobby._new_table(table_id, meta, seats)
    table.spec = spec_of(old)  # type: ignore[attr-defined]
    lobby.tables[table_id] = table
    lobby.note_origin(table, session)
    table.start_actor()
    log_event(log, logging.INFO, "table created again", table=table_id, after=old.id, invited=len(invited))
    name = seats[session.seat].name
    for key in invited:
        other = lobby._session_of(key)
        if other is not None:
            other.post(Toast(key="play_again_invited", fields={"name": name, "table": m.name}))  # their language
    return table
