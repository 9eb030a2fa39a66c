"""What the players database needs of a table (`Table.accounts`, an `AccountsHook`): whose seat is
whose, and the finished game handed over with who sat where, whose decisions a bot made and the
full log. The table actor calls `note` after each command it applied, with its `stand_in` flag (a
bot chose the command in a person's stead: `SeatSlot.person_seat`, the same mark the save keeps in
`Seat.bot_played`); `Table.seat_of` asks `same`.

- **Whose seat**: a seat names the SSH key that sat there; `same(seat_key, key)` is true for
  that key or another key of the same player (`identity`: the lobby's players directory; without
  a players database, a key is only itself).

- **Who sat where** is taken when counting begins (the first command the actor applies, in a
  new or a resumed game): a person's key (a guest: none), or a bot's level. A person whose
  seat a bot took over for good stays the seat's person: the bot's moves count against them
  (a seat taken over before a restart has lost its key: it counts as a guest's).
- **A bot's share**: every command a bot chose for a person's seat (while they were away, out
  of time, or after a bot took the seat) is counted; at the end each person's seat has the
  share of its decisions a bot made, which the ratings weigh against `max_bot_share`. The
  save's marks (`Seat.bot_played`) add those made before a restart.
- **At the end** the record (`server.players.game_record`) is built from the engine's final
  state and the full command log (the save's, or the tally's own copy when the table has no
  save) and given to `recorder` (the lobby sets it: `PlayersService.record`, which returns at
  once, the outbox writing it when the database can). Only a finished game is recorded: the
  log then reveals nothing still secret.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.savefile import game_key
from server.logging_setup import log_event
from server.players.game_record import game_record

log = logging.getLogger("citadels.server.tables.game_end")


@dataclass(frozen=True)
class SeatAtStart:
    person: bool
    key: str | None  # a person's SSH key (None: a guest)
    bot: str | None  # a bot seat's level


class AccountsHook:
    def __init__(self) -> None:
        self.identity: Callable[[str | None], str | None] = lambda key: key  # the lobby sets its own
        self.recorder: Callable[[Any], None] | None = None  # takes a GameRecord
        self.player_of: Callable[[str], int | None] = lambda key: None  # a key's player, when known
        self.seats: list[SeatAtStart] | None = None
        self.stand_in: set[int] = set()  # positions (1 = the log's first) of commands a bot chose for a person
        self.log: list[Any] | None = None  # the commands, when the table keeps no save
        self.started_at: datetime | None = None
        self.recorded = False

    def same(self, seat_key: str | None, key: str | None) -> bool:
        """`key` is the seat's key or another key of the same player."""
        return seat_key is not None and (seat_key == key or self.identity(seat_key) == self.identity(key))

    def note(self, table: Any, command: Any, stand_in: bool) -> None:
        """After the actor applied (and saved) `command`; `stand_in`: a bot chose it for a person's seat."""
        if self.seats is None:
            self._begin(table)
        assert self.seats is not None
        if stand_in:
            self.stand_in.add(table.state.seq)
        if self.log is not None:
            self.log.append(command)
        if table.state.phase == "over" and not self.recorded:
            self.recorded = True
            try:
                self._finish(table)
            except Exception:  # the game is over either way: its record is lost, the table goes on
                log.exception("table %s: cannot build the finished game's record", table.id)

    def bot_share(self, log_seats: list[int], seat: int, marked: set[int]) -> float:
        """The share of `seat`'s decisions that a bot made for its person."""
        positions = [i for i, s in enumerate(log_seats, start=1) if s == seat]
        if not positions:
            return 0.0
        return sum(1 for p in positions if p in self.stand_in or p in marked) / len(positions)

    def _begin(self, table: Any) -> None:
        self.seats = [SeatAtStart(s.person_seat, None if s.guest else s.key, s.bot) for s in table.seats]
        self.started_at = datetime.now(UTC)
        if table.save is None:
            self.log = []  # a game without a save began in this process: its log is all here

    def _finish(self, table: Any) -> None:
        if self.recorder is None or table.config is None:
            return
        assert self.seats is not None
        state = table.state
        save = table.save.save if table.save is not None else None
        log_ = list(save.log) if save is not None else self.log
        if log_ is None or len(log_) != state.seq:
            log_event(log, logging.WARNING, "finished game not recorded: its log is incomplete", table=table.id)
            return
        marked = {n for s in (save.seats if save is not None else []) for n in getattr(s, "bot_played", ())}
        seats_of_log = [getattr(c, "seat", -1) for c in log_]
        started = save.created if save is not None else self.started_at or datetime.now(UTC)
        people = [s.person for s in self.seats]
        record = game_record(
            f"server:{game_key(table.config, started)}",
            table.config,
            state,
            log_,
            player_ids=[self.player_of(s.key) if s.person and s.key else None for s in self.seats],
            bots=[None if s.person else s.bot for s in self.seats],
            bot_shares=[self.bot_share(seats_of_log, i, marked) if people[i] else 1.0 for i in range(len(people))],
            keys=[s.key if s.person else None for s in self.seats],
            started_at=started,
            finished_at=datetime.now(UTC),
        )
        shares = {s.seat: round(s.bot_share, 3) for s in record.seats if s.bot is None and s.bot_share}
        log_event(log, logging.INFO, "finished game to record", table=table.id, uid=record.uid, bot_shares=shares)
        self.recorder(record)
