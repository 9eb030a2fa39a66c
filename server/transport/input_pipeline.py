"""One session's input, from the channel's bytes to the app's events, within the session's limits.

Bytes go through an incremental UTF-8 decoder (errors replaced), the paste limiter and Textual's
own ``XTermParser``, in slices; a lone ESC is resolved by a one-shot ``loop.call_later`` calling
the parser's ``tick``. Parsing stops, and the session stops reading its channel (the input waits
in the client, not in the server's memory), while the app has many messages queued, while many
parsed events wait, or while the session's loop-time budget is spent.

Parsed events pass the session's key bucket (keys past it are dropped, and counted) and wait in a
short queue from which they are handed to the app in turns: at each turn, one input event, or a
few cheap ones (their measured cost under ``TURN_COST_SECONDS``), none while the budget is spent;
the next turn comes ``TURN_SECONDS`` later, once the app has handled them and their cost is
charged. So one session's input never holds the loop for more than one event at a time, and input
that waits (a burst, a flood) is handed over only in moments when the loop is idle; a session past
its light tier (``input_budget``) waits, besides, until no light session's person has pressed a key
for a moment, and shares with the sessions of its tier one pool of loop time (burst or paced).
Mouse moves waiting in the queue are merged. The app is told (``InputThrottled``) when
keys were dropped or input held, at most once per notice interval. Resize reports typed into the
input (xterm's in-band mode 2048, never enabled by us) are dropped.

Textual's parser (a private module) is reached through ``server.transport.compat``.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual import events
from textual.message import Message

from .compat import SessionParser, close_parser, parser_timeout
from .input_budget import InputBudget
from .input_events import PasteLimiter, is_input, key_cost
from .session_info import ChannelLink, DriverLimits, InputThrottled

log = logging.getLogger("citadels.server.transport.driver")

# Bytes of input handed to the parser between checks.
INPUT_SLICE_BYTES = 512
INPUT_RETRY_SECONDS = 0.01
# Parsing one session's bytes goes on for at most this long at a time; the rest waits (the
# channel not read meanwhile) for the loop's next round: a flood's 30 KB read at once (keys
# parsed only to be dropped) held the loop ~0.1 s, whatever budget the session had left.
PARSE_SLICE_SECONDS = 0.005
# Parsed events waiting for the app past which parsing (and reading) stops.
MAX_WAITING_EVENTS = 64
# Input events handed to the app per turn: at least one, more while their measured cost stays
# under a turn's cost (cheap keys go together and Textual draws them in one frame; an expensive
# one goes alone); the next turn TURN_SECONDS later. A light session (input_budget)
# gets PLENTY_TURN_COST_SECONDS a turn; one with less, TURN_COST_SECONDS and at most
# MAX_EVENTS_PER_TURN events. An event's cost is first guessed high.
MAX_EVENTS_PER_TURN = 8
PLENTY_TURN_COST_SECONDS = 0.02
TURN_COST_SECONDS = 0.004
TURN_SECONDS = 0.002
FIRST_COST_GUESS = 0.005
# A turn after the first (input that waited: a burst, a flood) is taken only when the loop is
# idle (the turn's timer was not held up by other work); otherwise it is tried again a little
# later, at random so that several sessions do not line up. A key after a pause goes at once.
BUSY_LATENESS_SECONDS = 0.003
BUSY_RETRY_SECONDS = (0.005, 0.025)
# A session past its light tier takes no turn within this long of a key from a session that is
# not (a person's key and the screens it changes come first).
AFTER_PEOPLE_SECONDS = 0.05


# While a new session's app is starting (its login, up to its first frame), input that waited
# (a burst, a flood, window changes) waits too, up to this long a turn: a storm that begins as
# someone logs in does not make them wait for the lobby. A key after a pause still goes at once.
LOGINS_FIRST_MAX_SECONDS = 0.5


class _People:
    """When a session with most of its budget left last handed input to its app, and how many
    apps are starting (all servers)."""

    last_input = 0.0
    apps_starting = 0


PEOPLE = _People()

KEYS_DROPPED_NOTICE = "You are typing faster than the server accepts: some keys were ignored."
INPUT_HELD_NOTICE = "Slow down: the server holds your input for a moment."
STALE_INPUT_NOTICE = "The server held your input: the keys you pressed meanwhile were ignored."
# Input the budget held this long is dropped when the hold ends, not handed over late: a key
# pressed seconds ago would surprise (a held arrow would go on moving the highlight long after
# it was let go, a digit would choose in a menu that has changed since).
STALE_HOLD_SECONDS = 1.0

_clock = time.perf_counter


def _ignore(message: Message) -> None:
    return None


def _none_queued() -> int:
    return 0


class InputPipeline:
    """Bytes in (``feed``), events out (``deliver``), within the session's budget."""

    def __init__(
        self,
        *,
        loop: asyncio.AbstractEventLoop,
        link: ChannelLink,
        limits: DriverLimits,
        budget: InputBudget,
        deliver: Callable[[Message], None],
        post: Callable[[Message], object],
        queued_events: Callable[[], int],
    ) -> None:
        self._loop = loop
        self._link = link
        self._limits = limits
        self._budget = budget
        self._deliver = deliver  # the driver's process_message
        self._post = post  # the app's post_message (notices)
        self._queued_events = queued_events
        self._parser = SessionParser(False)  # debug=True would open keys.log in the cwd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._paste = PasteLimiter(limits.max_paste_chars)
        self._pending = bytearray()
        self._waiting: deque[Message] = deque()
        self._enabled = False
        self._closed = False
        self._paused = False
        self._held_since: float | None = None  # when the budget began to hold this session's input
        self._discard_flushed = False  # drop what the channel hands over as reading resumes
        self._drain_handle: asyncio.TimerHandle | None = None
        self._escape_handle: asyncio.TimerHandle | None = None
        self._turn_handle: asyncio.TimerHandle | None = None
        self._turn_due: float | None = None  # loop time the pending turn was due at
        self._waiting_since = 0.0  # when the input at the head of the queue began to wait for a login
        # The measured loop time an input event costs (charged per turn / events handed).
        self._cost_estimate = FIRST_COST_GUESS
        self._turn_charged = 0.0
        self._turn_events = 0
        self._dropped_unreported = 0
        self._notice_keys = 0
        self._notice_at = 0.0
        self.holds = 0
        self.deferrals = 0
        self.keys_accepted = 0.0
        self.input_handed = 0  # input events handed to the app
        self.stale_dropped = 0  # input events (or reads of bytes) dropped after a long hold
        self.in_band_resizes_ignored = 0

    # ------------------------------------------------------------------ control

    def add_early(self, data: bytes) -> None:
        self._pending.extend(data)

    def enable(self) -> None:
        self._enabled = True
        if self._pending:
            self._drain()

    def disable(self) -> None:
        self._enabled = False
        self._pending.clear()
        self._waiting.clear()
        self._cancel_timers()

    def close(self) -> None:
        self.disable()
        self._closed = True
        # The parser is a generator whose frame holds the parser (a cycle) and the
        # last event it made (which leads to the app): closing it frees both now.
        with contextlib.suppress(Exception):
            close_parser(self._parser)
        # Our callbacks are bound methods of the driver and the app, which hold us: a cycle that
        # would keep a departed session's app for the (rare, full) cycle collection.
        self._deliver = self._post = _ignore
        self._queued_events = _none_queued

    def _cancel_timers(self) -> None:
        for handle in (self._drain_handle, self._escape_handle, self._turn_handle):
            if handle is not None:
                handle.cancel()
        self._drain_handle = self._escape_handle = self._turn_handle = None

    # ------------------------------------------------------------------ bytes

    def feed(self, data: bytes) -> None:
        """Bytes from the SSH channel."""
        if self._closed:
            return
        if self._discard_flushed:  # typed while the budget held this session's input for long
            self.stale_dropped += 1
            return
        self._pending.extend(data)
        if self._enabled and self._drain_handle is None:
            self._drain()

    def _drain(self) -> None:
        self._drain_handle = None
        if not self._enabled:
            return
        pending = self._pending
        limit = self._limits.max_queued_input_events
        budget = self._budget
        began = _clock()
        while pending:
            if self._queued_events() >= limit or len(self._waiting) >= MAX_WAITING_EVENTS:
                self._hold(INPUT_RETRY_SECONDS)
                return
            now = _clock()
            if budget.spent(now):
                # This session's input has cost its share of the loop: read nothing until it is back.
                self._note_hold(now)
                self._hold(max(INPUT_RETRY_SECONDS, budget.seconds_until_back(now)))
                return
            if self._held_since is not None:
                self._hold_over(now)
                if not pending:
                    break
            chunk = bytes(pending[:INPUT_SLICE_BYTES])
            del pending[:INPUT_SLICE_BYTES]
            text = self._decoder.decode(chunk)
            if text:
                self._feed_parser(self._paste(text))
                end = _clock()
                budget.charge(end - now, end)
                if pending and end - began > PARSE_SLICE_SECONDS:
                    self._hold(0.0)  # the rest after the loop's other work
                    return
        if self._paused:
            self._paused = False
            try:
                self._link.resume_input()  # hands over what the channel buffered, at once
            finally:
                self._discard_flushed = False
        self._schedule_escape_tick()

    def _hold(self, delay: float) -> None:
        """Stop reading the channel (its input waits in the client) and try again after ``delay``."""
        if not self._paused:
            self._paused = True
            self._link.pause_input()
        self._drain_handle = self._loop.call_later(delay, self._drain)

    def _feed_parser(self, text: str) -> None:
        if not text:
            return
        try:
            for event in self._parser.feed(text):
                self._accept(event)
        except Exception:
            # The parser is a generator: after an error it is finished. Start a
            # fresh one so that the session keeps working.
            log.warning("input parser failed; resetting it", exc_info=True)
            self._fresh_parser()

    def _fresh_parser(self) -> None:
        """A new parser (and paste limit): a sequence or paste cut in the middle is forgotten."""
        with contextlib.suppress(Exception):
            close_parser(self._parser)
        self._parser = SessionParser(False)
        self._paste.reset()

    def _schedule_escape_tick(self) -> None:
        """Resolve a lone ESC after the escape delay with a one-shot timer."""
        timeout_time = parser_timeout(self._parser)
        if self._escape_handle is not None:
            self._escape_handle.cancel()
            self._escape_handle = None
        if timeout_time is None or not self._enabled:
            return
        delay = max(0.0, timeout_time - time.monotonic()) + 0.002
        self._escape_handle = self._loop.call_later(delay, self._escape_tick)

    def _escape_tick(self) -> None:
        self._escape_handle = None
        if not self._enabled:
            return
        try:
            for event in self._parser.tick():
                self._accept(event)
        except Exception:
            log.warning("input parser failed on tick; resetting it", exc_info=True)
            self._fresh_parser()
            return
        self._schedule_escape_tick()

    # ------------------------------------------------------------------ events

    def _accept(self, event: Message) -> None:
        """An event from the parser: dropped, merged, or queued for the app."""
        if isinstance(event, events.Resize):
            self.in_band_resizes_ignored += 1  # typed by the client, not its window: unclamped, unmerged
            return
        waiting = self._waiting
        if is_input(event):
            cost = key_cost(event)
            if cost:
                now = _clock()
                if not self._budget.keys.take(cost, now):
                    self._budget.flooded(now)
                    self._dropped_unreported += 1
                    self._report(now)
                    return
                self.keys_accepted += cost
            elif isinstance(event, events.MouseMove) and waiting and isinstance(waiting[-1], events.MouseMove):
                waiting[-1] = event  # only the latest position matters
                return
        waiting.append(event)
        if self._turn_handle is None:
            if self._plenty():
                self._turn()
            else:
                self._schedule_turn(0.0)  # past its light tier: its turn is paced, even the first

    def _plenty(self) -> bool:
        """Light: this session's input is handed over at once, ahead of the others'."""
        return self._budget.pool(_clock()) is None

    def offer_resize(self, event: events.Resize) -> None:
        """A window change (merged by the driver): handed to the app in turn, like a key; a
        newer one takes the place of one still waiting."""
        waiting = self._waiting
        for i, queued in enumerate(waiting):
            if isinstance(queued, events.Resize):
                waiting[i] = event
                return
        waiting.append(event)
        if self._turn_handle is None:
            self._schedule_turn(0.0)  # not at once: a window change waits for an idle loop

    def _turn(self) -> None:
        """Hand the app what the budget pays for; the next turn once it has handled them."""
        self._turn_handle = None
        budget = self._budget
        if self._turn_events:
            spent = (budget.charged_seconds - self._turn_charged) / self._turn_events
            self._cost_estimate = 0.7 * self._cost_estimate + 0.3 * spent
        self._turn_charged = budget.charged_seconds
        self._turn_events = 0
        waiting = self._waiting
        now = _clock()
        delay = TURN_SECONDS
        due, self._turn_due = self._turn_due, None
        pool = budget.pool(now)
        plenty = pool is None  # light: handed over at once, ahead of the others
        if waiting and is_input(waiting[0]):
            busy = due is not None and self._loop.time() - due > BUSY_LATENESS_SECONDS
            if due is not None and PEOPLE.apps_starting > 0 and now - self._waiting_since < LOGINS_FIRST_MAX_SECONDS:
                busy = True  # a login comes first
            if busy or (not plenty and now - PEOPLE.last_input < AFTER_PEOPLE_SECONDS):
                self.deferrals += 1
                self._schedule_turn(random.uniform(*BUSY_RETRY_SECONDS))
                return
            if pool is not None and pool.refill(now) < 0:  # its tier's shared pool is spent
                self._note_hold(now)
                self._schedule_turn(max(TURN_SECONDS, pool.seconds_until(0.0, now)) * random.uniform(1, 1.5))
                return
        self._waiting_since = now  # the next turn's wait for logins counts from here
        turn_cost = PLENTY_TURN_COST_SECONDS if plenty else TURN_COST_SECONDS
        most = MAX_WAITING_EVENTS if plenty else MAX_EVENTS_PER_TURN
        while waiting:
            event = waiting[0]
            if is_input(event):
                if budget.spent(now):
                    self._note_hold(now)
                    delay = max(TURN_SECONDS, budget.seconds_until_back(now))
                    break
                if self._held_since is not None:
                    self._hold_over(now)
                    if not waiting:
                        break
                    event = waiting[0]
                    if not is_input(event):
                        continue
                estimate = max(self._cost_estimate, 1e-4)
                affordable = min(budget.cpu.level, turn_cost) / estimate
                if self._turn_events >= min(most, max(1, affordable)):
                    break
                self._turn_events += 1
                self.input_handed += 1
                budget.arm(now)
                if plenty:
                    PEOPLE.last_input = now
            waiting.popleft()
            self._deliver(event)
        if waiting or self._turn_events:
            self._schedule_turn(delay)
        elif self._paused and self._drain_handle is None and self._enabled:
            self._drain()

    def _schedule_turn(self, delay: float) -> None:
        self._turn_due = self._loop.time() + delay
        self._turn_handle = self._loop.call_later(delay, self._turn)

    # ------------------------------------------------------------------ notices

    def _note_hold(self, now: float) -> None:
        self.holds += 1
        self._budget.throttles += 1
        if self._held_since is None:
            self._held_since = now
        self._report(now)

    def _hold_over(self, now: float) -> None:
        """The budget holds this session's input no more: what it held long is dropped, not late."""
        held, self._held_since = now - (self._held_since or now), None
        if held < STALE_HOLD_SECONDS:
            return
        waiting = self._waiting
        dropped = sum(1 for event in waiting if is_input(event))
        if dropped:
            kept = [event for event in waiting if not is_input(event)]  # window changes stay
            waiting.clear()
            waiting.extend(kept)
        if self._pending:
            dropped += 1
            self._pending.clear()
            self._decoder.reset()
            self._fresh_parser()
        self._discard_flushed = self._paused  # and what the channel buffered meanwhile
        self.stale_dropped += dropped
        self._notice_at = now + self._limits.input_notice_interval_seconds
        self._post(InputThrottled(STALE_INPUT_NOTICE, dropped, "input_stale"))

    def _report(self, now: float) -> None:
        """Count dropped keys and tell the app, at most once per notice interval."""
        if self._dropped_unreported:
            self._link.keys_dropped(self._dropped_unreported)
            self._notice_keys += self._dropped_unreported
            self._dropped_unreported = 0
        if now < self._notice_at or self._closed:
            return
        self._notice_at = now + self._limits.input_notice_interval_seconds
        dropped, self._notice_keys = self._notice_keys, 0
        if dropped:
            self._post(InputThrottled(KEYS_DROPPED_NOTICE, dropped, "input_keys_dropped"))
        else:
            self._post(InputThrottled(INPUT_HELD_NOTICE, 0, "input_held"))

    def stats(self) -> dict[str, Any]:
        return {
            "input_holds": self.holds,
            "input_deferrals": self.deferrals,
            "keys_accepted": self.keys_accepted,
            "input_handed": self.input_handed,
            "stale_input_dropped": self.stale_dropped,
            # Input not yet handed over: parsed events and unparsed bytes (reading paused: the rest
            # waits in the channel or the client).
            "input_waiting": len(self._waiting) + len(self._pending),
            "input_reading_paused": self._paused,
            "input_event_cost_ms": round(self._cost_estimate * 1000, 2),
            "in_band_resizes_ignored": self.in_band_resizes_ignored,
        }
