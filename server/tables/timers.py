"""The table actor's clock: when it must wake up by itself, and which bot decides when it does.

A mixin of `server.tables.table.Table` (which provides `state`, `seats`, `settings`, `meta`,
`config`, `pool`, `clock`, `spectators`, `_changed_at`, `_apply`, `notice`, `_presence`).

- A bot seat moves `bot_delay` after the view changed.
- A person's seat whose player is away is played by a bot once the idle wait is over (the seat's
  state is `bot_for`: server/tables/presence.py, the one home of that rule), until they return.
- With a turn timer (relaxed / blitz), a bot finishes a decision that ran out of time; ten seconds
  before, the player is warned (their screen also counts down: the time left goes with their view).

No timer runs when nothing is due: `_due` is None and the actor sleeps on its mailbox.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from engine import view
from engine.bots.registry import make_bot
from server.logging_setup import log_event
from server.tables.messages import Notice, Tick
from server.tables.presence import PresenceBoard, seat_state
from server.tables.seats import _Streak

log = logging.getLogger("citadels.server.tables.table")

WARN_BEFORE = 10.0  # seconds: the warning before a turn timer runs out (for timers longer than 20 s)


class TableTimers:
    state: Any
    seats: Any
    settings: Any
    meta: Any
    config: Any
    pool: Any
    phase: str
    _changed_at: float
    _streak: _Streak | None
    _bots: dict
    clock: Callable[[], float]
    queue: asyncio.Queue[Any]

    # --- turn timers -------------------------------------------------------------------------------
    def _track_streak(self) -> None:
        st = self.state
        if st is None or st.phase == "over":
            self._streak = None
            return
        turn = st.turn.character if st.turn is not None else None
        key = (st.pending.seat, st.round, st.phase, turn)
        if self._streak is None or self._streak.key != key:
            self._streak = _Streak(key, self.clock())

    def _timer(self) -> float | None:
        return self.settings.timers.get(self.meta.timer)

    def turn_left(self, seat: int | None) -> float | None:
        """Seconds left on the turn timer for `seat`'s pending decision (None: no timer runs for it)."""
        limit = self._timer()
        streak = self._streak
        if limit is None or streak is None or streak.expired or self.phase != "playing" or self.state is None:
            return None
        if seat is None or seat != self.state.pending.seat:
            return None
        return max(streak.since + limit - self.clock(), 0.0)

    async def _next_message(self) -> Any:
        """The actor's next request, or a `Tick` when something is due before one comes."""
        due = self._due()
        if due is None:
            return await self.queue.get()
        left = due - self.clock()
        if left <= 0:  # due: the timer first (a flood of requests cannot hold it back)
            await asyncio.sleep(0)
            return Tick()
        try:  # not asyncio.wait_for: on 3.11 it swallows a cancel that lands with a message
            async with asyncio.timeout(left):
                return await self.queue.get()
        except TimeoutError:
            return Tick()

    def _due(self) -> float | None:
        """When the actor must wake up by itself (None: not before the next request)."""
        if self.phase != "playing" or self.state is None:
            return None
        times = []
        now = self.clock()
        change = PresenceBoard.next_change(self.seats, now, self.settings.idle_wait, True)
        if change is not None:
            times.append(change)
        seat = self.state.pending.seat
        if 0 <= seat < len(self.seats):
            s = self.seats[seat]
            delay = self._changed_at + self.settings.bot_delay
            if s.bot is not None:
                times.append(delay)
            elif s.client is None:
                away = s.away_since if s.away_since is not None else self._changed_at
                times.append(max(away + self.settings.idle_wait, delay))
            limit = self._timer()
            if limit is not None and self._streak is not None:
                if self._streak.expired:
                    times.append(delay)
                else:
                    if not self._streak.warned and limit > 2 * WARN_BEFORE:
                        times.append(self._streak.since + limit - WARN_BEFORE)
                    times.append(self._streak.since + limit)
        return min(times) if times else None

    def _decider(self, now: float) -> str | None:
        """The bot kind to play the pending decision now, or None if a person must."""
        seat = self.state.pending.seat
        s = self.seats[seat]
        if now < self._changed_at + self.settings.bot_delay - 1e-6:
            return None
        if s.bot is not None:
            return s.bot
        if s.client is None:
            if s.away_since is None:  # away since before this view (never attached): wait from the view
                s.away_since = self._changed_at
            if seat_state(s, now, self.settings.idle_wait, True).state == "bot_for":
                return self.meta.bot_kind
        limit = self._timer()
        streak = self._streak
        if limit is not None and streak is not None:
            if not streak.expired and now >= streak.since + limit - 1e-6:
                streak.expired = True
                self.notice("time_up", name=s.name)
                log_event(log, logging.INFO, "turn timer ran out", table=self.id, seat=seat)
            elif (
                not streak.warned
                and not streak.expired
                and limit > 2 * WARN_BEFORE
                and now >= streak.since + limit - WARN_BEFORE - 1e-6
            ):
                streak.warned = True
                if s.client is not None:
                    s.client.post(Notice("time_warning", {"seconds": round(WARN_BEFORE)}))
            if streak.expired:
                return self.meta.bot_kind
        return None

    # --- bots ----------------------------------------------------------------------------------------
    async def _bot_turn(self) -> None:
        if self.phase != "playing":
            return
        kind = self._decider(self.clock())
        if kind is None:
            return
        seat = self.state.pending.seat
        v = view(self.state, seat)
        if not v.legal:
            log_event(log, logging.ERROR, "no legal command for the pending seat", table=self.id, seat=seat)
            return
        command = await self._bot_choice(kind, seat, v)
        self.bot_moves += 1
        stand_in = self.seats[seat].person_seat
        if not await self._apply(command, by_bot=True, stand_in=stand_in):
            # never expected: fall back to the first legal command so that the table cannot hang
            log_event(log, logging.ERROR, "bot command refused", table=self.id, seat=seat, bot=kind)
            await self._apply(v.legal[0], by_bot=True, stand_in=stand_in)

    async def _bot_choice(self, kind: str, seat: int, v: Any) -> Any:
        seed = (self.config.seed if self.config else 0) * 31 + seat
        if len(v.legal) == 1:
            return v.legal[0]
        s = self.seats[seat]
        style = s.style if s.bot is not None else None  # a person's seat played for them: a style from the seed
        if kind in ("hard", "expert") and self.pool is not None:
            budget = self.settings.hard_budget_ms if kind == "hard" else self.settings.expert_budget_ms
            return await self.pool.decide(kind, v, seed=seed + self.state.seq, budget_ms=budget, style=style)
        if kind in ("hard", "expert"):  # no process pool: the best bot that is cheap enough for the event loop
            kind = "normal"
        bot = self._bots.get((seat, kind))
        if bot is None:
            bot = self._bots[(seat, kind)] = make_bot(kind, seed, style)
        try:
            command = bot.choose(list(v.legal), v)
        except Exception:
            log.exception("table %s: bot %s failed; it plays its first legal command", self.id, kind)
            return v.legal[0]
        return command if command in v.legal else v.legal[0]

    # Provided by Table (declared for the type checker).
    id: str
    bot_moves: int

    async def _apply(self, command: Any, by_bot: bool, stand_in: bool = False) -> bool:  # pragma: no cover
        raise NotImplementedError

    def notice(self, key: str, **fields: Any) -> None:  # pragma: no cover
        raise NotImplementedError
