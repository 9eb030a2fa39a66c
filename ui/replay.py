"""Replays of saved games: the positions of a `Save`, move by move, for the replay screen.

`Replay(save)` re-runs the save's command log once from its config (through
`engine.savefile.replay_steps`, every command validated; a log that is not from
this game raises `SaveError`) and keeps, per position (0 = the deal, n = after
the n-th command), only what is small:

- the round number and the events of that step (MessagePack bytes);
- every `SNAPSHOT_EVERY` positions an encoded `GameState` snapshot.

`state(p)` rebuilds a position from the nearest snapshot at or before it (at
most SNAPSHOT_EVERY - 1 commands applied; stepping forward one move reuses the
previous position), so going back is as fast as going forward and memory stays
a few kilobytes per snapshot however long the game.

`frame(p, seat, cat)` is what the screen shows at a position for a point of view
(`seat` an int, or `EVERYTHING`): the `engine.View` (the seat's own view, or
`engine.view.reveal_all_view`), the log sentences up to there (redacted for the
seat; every event in full for EVERYTHING; the moves a bot made in a person's
stead, `Seat.bot_played`, tagged "[bot]") and the step's headline. Log
sentences are cached for the current point of view and language only.

Pure: no file I/O, no Textual. The screen is `ui.screens.replay`.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.apply import apply
from engine.events import Event
from engine.savefile import Save, bot_doings, bot_played, replay_steps, start
from engine.state import GameState
from engine.view import View, redact_events, reveal_all_view, view

from .i18n import Catalogue
from .log_text import LogLine, LogWriter
from .notices import BOT_TAG_STYLE
from .widgets.log_view import Row

SNAPSHOT_EVERY = 32
EVERYTHING = -1  # the point of view that sees every hidden card
_ALL = -99  # the LogWriter's seat when every event is told in full

_enc = msgspec.msgpack.Encoder()
_events_dec = msgspec.msgpack.Decoder(list[Event])
_state_dec = msgspec.msgpack.Decoder(GameState)
_view_dec = msgspec.msgpack.Decoder(View)


class ReplayWriter(LogWriter):
    """Log sentences for a replay: the viewed seat's redaction (or none for EVERYTHING);
    `replay.event_<kind>` first where a card's private sentence speaks to "you"."""

    def __init__(self, cat: Catalogue, seat: int) -> None:
        super().__init__(cat, _ALL if seat == EVERYTHING else seat)
        self.everything = seat == EVERYTHING

    def keys(self, ev: Any, hidden: bool) -> list[str]:
        keys = super().keys(ev, hidden)
        if not hidden and ev.private is not None and self.cat.has(f"replay.event_{ev.kind}"):
            keys.insert(0, f"replay.event_{ev.kind}")
        return keys

    def line(self, ev: Any, names: list[str]) -> LogLine:
        if self.everything and ev.private is not None:
            ev = msgspec.structs.replace(ev, private=[_ALL, *ev.private])
        return super().line(ev, names)


@dataclass
class Frame:
    """One position as one point of view sees it."""

    position: int
    total: int
    round: int
    seat: int  # EVERYTHING or a seat
    view: View
    headline: str
    rows: list[Row] = field(default_factory=list)  # the log up to this position (the last `limit`)
    new_rows: list[Row] = field(default_factory=list)  # this step's rows only


class Replay:
    def __init__(self, save: Save) -> None:
        self.save = save
        self.names = list(save.config.players)
        self.bot_played = bot_played(save)  # positions of the commands a bot chose for a person
        g, ev0 = start(save)
        self.total = len(save.log)
        self._snapshots: dict[int, bytes] = {0: _enc.encode(g)}
        self._events: list[bytes] = [_enc.encode(ev0)]
        self._ends = array("I", [len(ev0)])  # events of steps 0..p, counted
        self._rounds = array("H", [g.round])
        phase = g.phase
        for n, _cmd, ev, st in replay_steps(save):
            self._events.append(_enc.encode(ev))
            self._ends.append(self._ends[-1] + len(ev))
            self._rounds.append(st.round)
            phase = st.phase
            if n % SNAPSHOT_EVERY == 0:
                self._snapshots[n] = _enc.encode(st)
        self.finished = phase == "over"
        self.round_starts = [p for p in range(self.total + 1) if p == 0 or self._rounds[p] != self._rounds[p - 1]]
        self._pos = -1
        self._state: GameState | None = None
        self._rows_key: tuple | None = None
        self._rows: list[Row] = []
        self._quiet = bytearray()
        self._kinds: list[str] = []
        self._writer: ReplayWriter | None = None
        self._done = -1  # the last position whose events are in _rows

    # --- positions -----------------------------------------------------------------------
    def round_at(self, p: int) -> int:
        return self._rounds[p]

    def events(self, p: int) -> list[Event]:
        """The events of step p (the deal's for 0), unredacted."""
        return _events_dec.decode(self._events[p])

    def state(self, p: int) -> GameState:
        """The game after p commands. The object is reused: do not keep it across calls."""
        p = max(0, min(p, self.total))
        if self._state is not None and self._pos <= p and p - self._pos < SNAPSHOT_EVERY:
            g, at = self._state, self._pos
        else:
            at = p - p % SNAPSHOT_EVERY
            g = _state_dec.decode(self._snapshots[at])
        for n in range(at, p):
            apply(g, self.save.log[n], check=False)
        self._state, self._pos = g, p
        return g

    def next_round(self, p: int) -> int:
        """The first position of the next round (the end when there is none)."""
        return next((s for s in self.round_starts if s > p), self.total)

    def prev_round(self, p: int) -> int:
        """The first position of this round, or of the previous one when already there."""
        return next((s for s in reversed(self.round_starts) if s < p), 0)

    # --- what a point of view sees -----------------------------------------------------------
    def view(self, p: int, seat: int) -> View:
        g = self.state(p)
        v = reveal_all_view(g) if seat == EVERYTHING else view(g, seat)
        return _view_dec.decode(_enc.encode(v))  # no object shared with the cached state

    def _log_to(self, p: int, seat: int, cat: Catalogue) -> None:
        key = (seat, cat.lang)
        if key != self._rows_key:
            self._rows_key = key
            self._rows, self._quiet, self._kinds, self._done = [], bytearray(), [], -1
            self._writer = ReplayWriter(cat, seat)
        writer = self._writer
        assert writer is not None
        for q in range(self._done + 1, p + 1):
            evs = self.events(q)
            if seat != EVERYTHING:
                evs = redact_events(evs, seat)
            doings = bot_doings(evs, self.save.log[q - 1].seat) if q in self.bot_played else [False] * len(evs)
            for ev, by_bot in zip(evs, doings):
                line = writer.line(ev, self.names)
                self._rows.append(self._row(line, ev, cat, by_bot))
                self._quiet.append(line.quiet)
                self._kinds.append(ev.kind)
            self._done = q

    def _row(self, line: LogLine, ev: Event, cat: Catalogue, by_bot: bool = False) -> Row:
        style = "dim" if line.quiet else ""
        bot = f"[{cat.t('ui.by_bot')}]" if by_bot else ""
        if ev.private is not None and (line.private or (self._writer is not None and self._writer.everything)):
            seen = [self.names[s] for s in ev.private if 0 <= s < len(self.names)]
            tag = cat.t("replay.seen_by", names=cat.names(seen)) if seen else cat.t("replay.seen_by_nobody")
            return Row(line.text, style=style, tag=f"{bot}[{tag}]", tag_style="bold reverse")
        if bot:
            return Row(line.text, style=style, tag=bot, tag_style=BOT_TAG_STYLE)
        return Row(line.text, style=style)

    def frame(self, p: int, seat: int, cat: Catalogue, limit: int = 400) -> Frame:
        p = max(0, min(p, self.total))
        self._log_to(p, seat, cat)
        end = self._ends[p]
        begin = self._ends[p - 1] if p else 0
        step = list(range(begin, end))
        loud = [i for i in step if not self._quiet[i]]
        ended = [i for i in step if self._rows[i].text and self._kinds[i] == "game_ended"]
        if ended:
            headline = self._rows[ended[0]].text
        elif loud:
            headline = self._rows[loud[0]].text
        elif step:
            headline = self._rows[step[0]].text
        else:
            headline = cat.t("replay.no_event")
        return Frame(
            position=p,
            total=self.total,
            round=self._rounds[p],
            seat=seat,
            view=self.view(p, seat),
            headline=headline,
            rows=self._rows[max(0, end - limit) : end],
            new_rows=self._rows[begin:end],
        )
