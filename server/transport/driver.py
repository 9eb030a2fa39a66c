"""A Textual driver that talks to one SSH channel, on the event loop, no threads.

Output: ``write`` appends to a buffer and ``flush`` (once per frame) sends one
channel write. While the client does not read (asyncssh paused writing, or the
connection's transport has a large backlog) frames are dropped and, once it
reads again, the screen is repainted in full. A backlog past a bound, or
output blocked for too long, closes the session.

Input: bytes from the channel go through an incremental UTF-8 decoder (errors
replaced) into Textual's own ``XTermParser``; a lone ESC is resolved by a
one-shot ``loop.call_later`` that calls the parser's ``tick``. Events are
posted with ``app.post_message`` (we are already on the app's loop). Input is
fed in slices and stops while the app has many messages queued; the session
then stops reading its channel, so a paste flood waits in the client instead
of growing the server's memory. A bracketed paste longer than the configured
limit is truncated.

Fair input (server/transport/input_budget.py): keys past the session's key
bucket are dropped (the app is told, at most once per notice interval); while
the session's loop-time budget is spent nothing more is read, so its input
waits in its client. Window changes are merged: the last size within a frame
wins, and it waits while the budget is spent. Resize reports typed into the
input stream (xterm's in-band mode 2048, which we never enable) are ignored.

``textual._xterm_parser`` and ``textual._parser`` are private modules: this
file is written against Textual 8.2.8 (pinned in pyproject.toml).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO

from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from .colour import make_colour_downgrade
from .input_budget import InputBudget, ensure_metering
from .input_events import PasteLimiter, is_input, key_cost
from .session_info import ChannelLink, DriverLimits, InputThrottled

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("citadels.server.transport.driver")

# https://sw.kovidgoyal.net/kitty/keyboard-protocol/ (as LinuxDriver: 1|8|16)
_KITTY_FLAGS = 0b00000001 | 0b00001000 | 0b00010000

# Bytes of input handed to the parser between checks of the app's queue.
INPUT_SLICE_BYTES = 512
# How often a blocked output or a full input queue is re-examined.
BLOCKED_POLL_SECONDS = 0.25
INPUT_RETRY_SECONDS = 0.01
# Window changes within one frame are merged.
RESIZE_MERGE_SECONDS = 1 / constants.MAX_FPS

KEYS_DROPPED_NOTICE = "You are typing faster than the server accepts: some keys were ignored."
INPUT_HELD_NOTICE = "Slow down: the server holds your input for a moment."

_clock = time.perf_counter


class _SessionParser(XTermParser):
    """Textual's parser without its class-level cache of kitty key sequences.

    ``XTermParser._parse_extended_key`` is an ``lru_cache`` on an instance
    method (Textual 8.2.8): its keys hold parser instances, which hold their
    suspended generator and the last Key event, whose sender is the app. Every
    session that typed a key would stay in memory, app and all, until 1024
    later sequences pushed it out. Parsing a sequence again costs microseconds.
    """

    _parse_uncached = XTermParser._parse_extended_key.__wrapped__  # type: ignore[attr-defined]

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        return self._parse_uncached(sequence)


class SSHDriver(Driver):
    """Driver for one Textual app served over one SSH session channel."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        link: ChannelLink,
        limits: DriverLimits,
        budget: InputBudget,
        color_system: str | None = "truecolor",
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size or (80, 24))
        self._link = link
        self._limits = limits
        self._buffer: list[str] = []
        self._downgrade = make_colour_downgrade(color_system)
        self._closed = False
        self._in_app_mode = False
        self._input_enabled = False
        self._first_frame = False
        # Input
        self._parser = _SessionParser(False)  # debug=True would open keys.log in the cwd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending_input = bytearray()
        self._input_handle: asyncio.TimerHandle | None = None
        self._escape_handle: asyncio.TimerHandle | None = None
        self._input_paused = False
        self._paste = PasteLimiter(limits.max_paste_chars)
        # Fair input
        self._budget = budget
        self._dropped_unreported = 0
        self._notice_keys = 0
        self._notice_at = 0.0
        self._wanted_size: tuple[int, int] | None = None
        self._resize_handle: asyncio.TimerHandle | None = None
        # Output back-pressure
        self._write_paused = False
        self._blocked_since: float | None = None
        self._blocked_handle: asyncio.TimerHandle | None = None
        self._dropped_since_repaint = 0
        # Figures for tests and monitoring
        self.frames_sent = 0
        self.frames_dropped = 0
        self.bytes_sent = 0
        self.max_backlog_seen = 0
        self.resize_requests = 0
        self.resizes_posted = 0
        self.input_holds = 0
        self.in_band_resizes_ignored = 0
        early = link.driver_attached(self)
        if early:
            self._pending_input.extend(early)

    # ------------------------------------------------------------------ output

    def write(self, data: str) -> None:
        self._buffer.append(data)

    def flush(self) -> None:
        if not self._buffer:
            return
        data = "".join(self._buffer)
        self._buffer.clear()
        if self._closed:
            return
        if self._output_blocked():
            self.frames_dropped += 1
            self._dropped_since_repaint += 1
            self._enter_blocked()
            return
        self._send(data)
        self.frames_sent += 1
        if not self._first_frame and self._in_app_mode:
            self._first_frame = True
            self._link.first_frame_sent()
        self._check_backlog()

    def _send(self, data: str) -> None:
        if self._downgrade is not None:
            data = self._downgrade(data)
        payload = data.encode("utf-8", "replace")
        self.bytes_sent += len(payload)
        self._link.send_output(payload)

    def _send_now(self, data: str) -> None:
        """Send mode sequences at once, whatever the back-pressure (they are tiny)."""
        if self._buffer:
            data = "".join(self._buffer) + data
            self._buffer.clear()
        if not self._closed:
            self._send(data)

    def _output_blocked(self) -> bool:
        return self._write_paused or self._link.transport_backlog() > self._limits.output_high_water_bytes

    def _check_backlog(self) -> bool:
        backlog = self._link.output_backlog()
        if backlog > self.max_backlog_seen:
            self.max_backlog_seen = backlog
        if backlog > self._limits.max_output_backlog_bytes:
            self._link.abort("output backlog too large")
            return False
        return True

    def _enter_blocked(self) -> None:
        if self._blocked_since is None:
            self._blocked_since = time.monotonic()
        if self._blocked_handle is None and not self._closed:
            self._blocked_handle = self._loop.call_later(BLOCKED_POLL_SECONDS, self._poll_blocked)

    def _poll_blocked(self) -> None:
        self._blocked_handle = None
        if self._closed or not self._check_backlog():
            return
        if not self._output_blocked():
            self._leave_blocked()
            return
        assert self._blocked_since is not None
        if time.monotonic() - self._blocked_since > self._limits.output_stall_timeout_seconds:
            self._link.abort("client stopped reading")
            return
        self._blocked_handle = self._loop.call_later(BLOCKED_POLL_SECONDS, self._poll_blocked)

    def _leave_blocked(self) -> None:
        self._blocked_since = None
        if self._blocked_handle is not None:
            self._blocked_handle.cancel()
            self._blocked_handle = None
        if self._dropped_since_repaint:
            self._dropped_since_repaint = 0
            self._app.call_later(self._full_repaint)

    def _full_repaint(self) -> None:
        """Runs in the app's context: mark the whole screen dirty."""
        with contextlib.suppress(Exception):
            self._app.screen.refresh()

    def pause_output(self) -> None:
        """asyncssh paused writing: the channel's buffer is over its high-water mark."""
        self._write_paused = True
        self._enter_blocked()

    def resume_output(self) -> None:
        """asyncssh resumed writing."""
        self._write_paused = False
        if self._blocked_since is not None and not self._output_blocked():
            self._leave_blocked()

    # ------------------------------------------------------------- app mode

    def start_application_mode(self) -> None:
        ensure_metering(self._loop)  # Textual's run_async may have set its own task factory
        self._in_app_mode = True
        width, height = self._size or (80, 24)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))
        seq = ["\x1b[?1049h"]  # alternate screen
        seq += self._mouse_on()
        seq += ["\x1b[?25l", "\x1b[?1004h"]  # hide cursor, focus reporting
        if not constants.DISABLE_KITTY_KEY:
            seq.append(f"\x1b[>{_KITTY_FLAGS}u")
        seq.append("\x1b[?2026$p")  # ask whether synchronized output is supported
        seq.append("\x1b[?2004h")  # bracketed paste
        seq.append("\x1b[?7l")  # no auto-wrap
        seq += self._mouse_on()  # again, as LinuxDriver does for iTerm 3.5
        self._send_now("".join(seq))
        self._input_enabled = True
        if self._pending_input:
            self._drain_input()

    def _mouse_on(self) -> list[str]:
        if not self._mouse:
            return []
        return ["\x1b[?1000h", "\x1b[?1003h", "\x1b[?1015h", "\x1b[?1006h"]

    def _mouse_off(self) -> list[str]:
        if not self._mouse:
            return []
        return ["\x1b[?1000l", "\x1b[?1003l", "\x1b[?1015l", "\x1b[?1006l"]

    def disable_input(self) -> None:
        if not self._input_enabled:
            return
        self._input_enabled = False
        self._pending_input.clear()
        self._cancel_input_timers()
        if self._in_app_mode:
            self._send_now("".join(self._mouse_off()))

    def stop_application_mode(self) -> None:
        if not self._in_app_mode:
            return
        self._send_now("\x1b[?2004l\x1b[?7h")  # bracketed paste off, auto-wrap on
        self.disable_input()
        seq = []
        if not constants.DISABLE_KITTY_KEY:
            seq.append("\x1b[<u")
        seq += ["\x1b[?1049l", "\x1b[?25h", "\x1b[?1004l"]
        self._send_now("".join(seq))
        self._in_app_mode = False

    def close(self) -> None:
        self._input_enabled = False
        self._cancel_input_timers()
        if self._blocked_handle is not None:
            self._blocked_handle.cancel()
            self._blocked_handle = None
        self._closed = True
        self._buffer.clear()
        self._pending_input.clear()
        # The parser is a generator whose frame holds the parser (a cycle) and the
        # last event it made (which leads to the app): closing it frees both now.
        with contextlib.suppress(Exception):
            self._parser._gen.close()

    def _cancel_input_timers(self) -> None:
        for handle in (self._input_handle, self._escape_handle, self._resize_handle):
            if handle is not None:
                handle.cancel()
        self._input_handle = None
        self._escape_handle = None
        self._resize_handle = None

    # ------------------------------------------------------------ server-side

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Would open a browser on the server's machine: do nothing."""

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Would write a file on the server's disk: write nothing, report failure."""
        with contextlib.suppress(Exception):
            binary.close()
        self._app.post_message(
            events.DeliveryFailed(
                key=delivery_key,
                exception=OSError("file delivery is not available over SSH"),
                name=name,
            )
        )

    # ------------------------------------------------------------------ input

    def send_message(self, message: Message) -> None:
        """We run on the app's loop: post directly, not thread-safely."""
        self._app.post_message(message)

    def feed_input(self, data: bytes) -> None:
        """Bytes from the SSH channel (called by the session)."""
        if self._closed:
            return
        self._pending_input.extend(data)
        if self._input_enabled and self._input_handle is None:
            self._drain_input()

    def _queued_events(self) -> int:
        try:
            return self._app._message_queue.qsize()
        except Exception:  # pragma: no cover - private Textual attribute
            return 0

    def _drain_input(self) -> None:
        self._input_handle = None
        if not self._input_enabled:
            return
        pending = self._pending_input
        limit = self._limits.max_queued_input_events
        budget = self._budget
        while pending:
            if self._queued_events() >= limit:
                self._hold_input(INPUT_RETRY_SECONDS)
                return
            now = _clock()
            if budget.spent(now):
                # This session's input has cost its share of the loop: read nothing until it is back.
                self.input_holds += 1
                budget.throttles += 1
                self._report_throttle(now)
                self._hold_input(max(INPUT_RETRY_SECONDS, budget.seconds_until_back(now)))
                return
            chunk = bytes(pending[:INPUT_SLICE_BYTES])
            del pending[:INPUT_SLICE_BYTES]
            text = self._decoder.decode(chunk)
            if text:
                self._feed_parser(self._paste(text))
                end = _clock()
                budget.charge(end - now, end)
        if self._input_paused:
            self._input_paused = False
            self._link.resume_input()
        self._schedule_escape_tick()

    def _hold_input(self, delay: float) -> None:
        """Stop reading the channel (its input waits in the client) and try again after ``delay``."""
        if not self._input_paused:
            self._input_paused = True
            self._link.pause_input()
        self._input_handle = self._loop.call_later(delay, self._drain_input)

    def _feed_parser(self, text: str) -> None:
        if not text:
            return
        try:
            for event in self._parser.feed(text):
                self._deliver(event)
        except Exception:
            # The parser is a generator: after an error it is finished. Start a
            # fresh one so that the session keeps working.
            log.warning("input parser failed; resetting it", exc_info=True)
            self._parser = _SessionParser(False)
            self._paste.reset()

    def _deliver(self, event: Message) -> None:
        """An event from the parser: through the key bucket to the app, or dropped."""
        if isinstance(event, events.Resize):
            self.in_band_resizes_ignored += 1  # typed by the client, not its window: unclamped, unmerged
            return
        if is_input(event):
            now = _clock()
            cost = key_cost(event)
            if cost and not self._budget.keys.take(cost, now):
                self._budget.keys_dropped += 1
                self._dropped_unreported += 1
                self._report_throttle(now)
                return
            self._budget.arm(now)
        self.process_message(event)

    def _report_throttle(self, now: float) -> None:
        """Count dropped keys and tell the app, at most once per notice interval."""
        if self._dropped_unreported:
            self._link.keys_dropped(self._dropped_unreported)
            self._notice_keys += self._dropped_unreported
            self._dropped_unreported = 0
        if now < self._notice_at or self._closed:
            return
        self._notice_at = now + self._limits.input_notice_interval_seconds
        dropped, self._notice_keys = self._notice_keys, 0
        self._app.post_message(InputThrottled(KEYS_DROPPED_NOTICE if dropped else INPUT_HELD_NOTICE, dropped))

    def _schedule_escape_tick(self) -> None:
        """Resolve a lone ESC after the escape delay with a one-shot timer."""
        timeout_time = self._parser._timeout_time
        if self._escape_handle is not None:
            self._escape_handle.cancel()
            self._escape_handle = None
        if timeout_time is None or not self._input_enabled:
            return
        delay = max(0.0, timeout_time - time.monotonic()) + 0.002
        self._escape_handle = self._loop.call_later(delay, self._escape_tick)

    def _escape_tick(self) -> None:
        self._escape_handle = None
        if not self._input_enabled:
            return
        try:
            for event in self._parser.tick():
                self._deliver(event)
        except Exception:
            log.warning("input parser failed on tick; resetting it", exc_info=True)
            self._parser = _SessionParser(False)
            return
        self._schedule_escape_tick()

    # ----------------------------------------------------------------- resize

    def resize(self, width: int, height: int) -> None:
        """The client's window changed (already clamped by the session).

        Applied one frame later, with the last size asked for by then; while the session's
        loop-time budget is spent, later still.
        """
        self.resize_requests += 1
        if not self._in_app_mode:
            self._size = (width, height)
            return
        self._wanted_size = (width, height)
        if self._resize_handle is None and not self._closed:
            self._resize_handle = self._loop.call_later(RESIZE_MERGE_SECONDS, self._apply_resize)

    def _apply_resize(self) -> None:
        self._resize_handle = None
        wanted, self._wanted_size = self._wanted_size, None
        if wanted is None or self._closed or not self._in_app_mode or wanted == self._size:
            return
        now = _clock()
        if self._budget.spent(now):
            self._wanted_size = wanted
            delay = max(RESIZE_MERGE_SECONDS, self._budget.seconds_until_back(now))
            self._resize_handle = self._loop.call_later(delay, self._apply_resize)
            return
        self._size = wanted
        self.resizes_posted += 1
        self._budget.arm(now)
        size = Size(*wanted)
        self._app.post_message(events.Resize(size, size))
