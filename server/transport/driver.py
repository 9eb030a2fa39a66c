"""A Textual driver that talks to one SSH channel, on the event loop, no threads.

Output: ``write`` appends to a buffer and ``flush`` (once per frame) sends one
channel write, its colours converted for the client (server/transport/colour.py);
``write_converted`` takes text already in the client's colours (`convert_rendered`:
a strip's row converted once per process, for ui/compat/direct_paint.py). While the client does not read (asyncssh paused writing, or the
connection's transport has a large backlog) frames are dropped and, once it
reads again, the screen is repainted in full. A backlog past a bound, or
output blocked for too long, closes the session.

Input: the session's bytes go through an :class:`~server.transport.input_pipeline.InputPipeline`
(decoder, paste limit, Textual's parser, the key bucket and the loop-time budget of
server/transport/input_budget.py); its events are posted with ``app.post_message`` (we are
already on the app's loop).

Window changes are merged: the last size asked for within a frame wins, and while the session's
loop-time budget is spent it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO

from textual import constants, events
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from ui.compat import direct_keys
from ui.compat.served_app import queued_messages

from .colour import make_colour_downgrade, rendered_colours
from .compat import driver_mouse
from .input_budget import InputBudget, ensure_metering, run_metered
from .input_pipeline import InputPipeline
from .session_info import ChannelLink, DriverLimits

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("citadels.server.transport.driver")

# https://sw.kovidgoyal.net/kitty/keyboard-protocol/ (as LinuxDriver: 1|8|16)
_KITTY_FLAGS = 0b00000001 | 0b00001000 | 0b00010000

# How often a blocked output is re-examined.
BLOCKED_POLL_SECONDS = 0.25
# Window changes within one frame are merged.
RESIZE_MERGE_SECONDS = 1 / constants.MAX_FPS
# The bell and the title ride with the next frame (one SSH packet instead of two or three: each
# packet is a cipher call and a send), sent alone if no frame comes within a frame's time.
CONTROL_HOLD_SECONDS = 1 / constants.MAX_FPS

_clock = time.perf_counter


def _direct_key(app: Any, key: events.Key) -> direct_keys.Found | None:
    try:
        return direct_keys.take(app, key)
    except Exception:  # (a binding Textual cannot parse): its own routing meets it, in the app
        return None


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
        self._buffer: list[str] = []  # true colour, converted when sent
        self._ready: list[str] = []  # in the client's colours, before what `_buffer` holds
        self._controls: list[str] = []  # the bell, the title: waiting for the next frame
        self._controls_handle: asyncio.TimerHandle | None = None
        self._downgrade = make_colour_downgrade(color_system)
        # A whole rendered row in the client's colours, converted once per process; None: as it is.
        self.convert_rendered = rendered_colours(color_system)
        self._closed = False
        self._in_app_mode = False
        self._input_enabled = False
        self._first_frame = False
        self._input = InputPipeline(
            loop=self._loop,
            link=link,
            limits=limits,
            budget=budget,
            deliver=self._deliver,
            post=app.post_message,
            queued_events=self._queued_events,
        )
        self._budget = budget
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
        early = link.driver_attached(self)
        if early:
            self._input.add_early(early)

    # ------------------------------------------------------------------ output

    def write(self, data: str) -> None:
        self._buffer.append(data)

    def write_converted(self, data: str) -> None:
        """Like `write`, for text already in the client's colours (see `convert_rendered`)."""
        if self._downgrade is None:
            self._buffer.append(data)
            return
        if self._buffer:  # what was written before it, converted now: the order is kept
            self._ready.append(self._downgrade("".join(self._buffer)))
            self._buffer.clear()
        self._ready.append(data)

    def _take_output(self) -> str:
        """What was written since the last flush, in the client's colours."""
        data = "".join(self._buffer)
        self._buffer.clear()
        if self._downgrade is not None and data:
            data = self._downgrade(data)
        if self._ready:
            data = "".join(self._ready) + data
            self._ready.clear()
        return data

    def flush(self) -> None:
        if not self._buffer and not self._ready:
            return
        self._budget.frame_drawn(_clock())
        if self._closed or self._output_blocked():
            self._buffer.clear()
            self._ready.clear()
            if self._closed:
                return
            self.frames_dropped += 1
            self._dropped_since_repaint += 1
            self._enter_blocked()
            return  # the controls waiting keep their own deadline
        data = self._take_output()
        if self._controls:
            data = self._convert(self._take_controls()) + data
        self._send_converted(data)
        self.frames_sent += 1
        if not self._first_frame and self._in_app_mode:
            self._first_frame = True
            self._link.first_frame_sent()
        self._check_backlog()

    def _convert(self, data: str) -> str:
        return data if self._downgrade is None else self._downgrade(data)

    def _send(self, data: str) -> None:
        self._send_converted(self._convert(data))

    def _send_converted(self, data: str) -> None:
        payload = data.encode("utf-8", "replace")
        self.bytes_sent += len(payload)
        self._link.send_output(payload)

    def _send_now(self, data: str) -> None:
        """Send mode sequences at once, whatever the back-pressure (they are tiny)."""
        data = self._take_output() + self._convert(data)
        if not self._closed:
            self._send_converted(data)

    def send_control(self, data: str) -> None:
        """Escape sequences outside the screen's cells (the bell, the window title): sent with the
        next frame, or alone within a frame's time whatever the back-pressure (a frame dropped for
        it must not take them along; they are a few bytes)."""
        if self._closed or not self._in_app_mode:
            return
        self._controls.append(data)
        if self._controls_handle is None:
            self._controls_handle = self._loop.call_later(CONTROL_HOLD_SECONDS, self._send_controls)

    def _take_controls(self) -> str:
        if self._controls_handle is not None:
            self._controls_handle.cancel()
            self._controls_handle = None
        data = "".join(self._controls)
        self._controls.clear()
        return data

    def _send_controls(self) -> None:
        self._controls_handle = None
        data = self._take_controls()
        if data and not self._closed and self._in_app_mode:
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
        self._input.enable()

    def _mouse_on(self) -> list[str]:
        if not driver_mouse(self):
            return []
        return ["\x1b[?1000h", "\x1b[?1003h", "\x1b[?1015h", "\x1b[?1006h"]

    def _mouse_off(self) -> list[str]:
        if not driver_mouse(self):
            return []
        return ["\x1b[?1000l", "\x1b[?1003l", "\x1b[?1015l", "\x1b[?1006l"]

    def disable_input(self) -> None:
        if not self._input_enabled:
            return
        self._input_enabled = False
        self._input.disable()
        self._cancel_resize()
        if self._in_app_mode:
            self._send_now("".join(self._mouse_off()))

    def stop_application_mode(self) -> None:
        if not self._in_app_mode:
            return
        self._send_controls()  # a title put back on the way out goes before the screen is left
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
        self._input.close()
        self._cancel_resize()
        if self._blocked_handle is not None:
            self._blocked_handle.cancel()
            self._blocked_handle = None
        self._closed = True
        self._buffer.clear()
        self._ready.clear()
        self._take_controls()

    def _cancel_resize(self) -> None:
        if self._resize_handle is not None:
            self._resize_handle.cancel()
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
        """We run on the app's loop: post directly, not thread-safely. A key whose only effect is a
        binding's action has the action called now, in the app's context, its time charged to the
        session as its task's would be (ui/compat/direct_keys.py)."""
        if type(message) is events.Key:
            app = self._app
            context = getattr(app, "own_context", None)
            if context is not None:
                found = context.run(_direct_key, app, message)  # (`self.app` in a check_action: the app's)
                if found is not None:
                    run_metered(context, direct_keys.call, app, message, found)
                    return
        self._app.post_message(message)

    def feed_input(self, data: bytes) -> None:
        """Bytes from the SSH channel (called by the session)."""
        if not self._closed:
            self._input.feed(data)

    def _queued_events(self) -> int:
        return queued_messages(self._app)

    def stats(self) -> dict[str, Any]:
        """Figures for tests, benchmarks and monitoring."""
        return {
            "frames_sent": self.frames_sent,
            "frames_dropped": self.frames_dropped,
            "bytes_sent": self.bytes_sent,
            "max_backlog_seen": self.max_backlog_seen,
            "resize_requests": self.resize_requests,
            "resizes_posted": self.resizes_posted,
            **self._input.stats(),
        }

    # ----------------------------------------------------------------- resize

    def resize(self, width: int, height: int) -> None:
        """The client's window changed (already clamped by the session).

        Offered to the app one frame later, with the last size asked for by then, as an input
        event of the session: within its budget, like its keys (input_pipeline.py).
        """
        self.resize_requests += 1
        if not self._in_app_mode:
            self._size = (width, height)
            return
        self._wanted_size = (width, height)
        if self._resize_handle is None and not self._closed:
            self._resize_handle = self._loop.call_later(RESIZE_MERGE_SECONDS, self._offer_resize)

    def _offer_resize(self) -> None:
        self._resize_handle = None
        wanted, self._wanted_size = self._wanted_size, None
        if wanted is None or self._closed or not self._in_app_mode:
            return
        size = Size(*wanted)
        self._input.offer_resize(events.Resize(size, size))

    def _deliver(self, message: Message) -> None:
        """An event from the input pipeline, for the app."""
        if isinstance(message, events.Resize):
            size = (message.size.width, message.size.height)
            if size == self._size:
                return  # back where it was: nothing to lay out again
            self._size = size
            self.resizes_posted += 1
            self._app.post_message(message)
            return
        self.process_message(message)
