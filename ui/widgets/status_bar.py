"""The top of the table: round, phase, rank called, crown, deck, discards, markers, tax.

The first line says where the game is; the next lines what is on the characters,
as parts (" · " between them) wrapped at part boundaries,
so that nothing is cut: the table screen gives the bar the lines it needs
(`height_for(width)`). `set_marks(text)` adds a short state at the end of the
first line (a turn timer): the place for table states. `set_badges(prefix, suffix)`
frames the first line with this session's own marks (ui/feedback.py: "You are
watching" before it, unread chat and watchers at its right edge), kept apart from
the text shared by every seat.
"""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from ..cards import character_label
from ..i18n import Catalogue
from .line_widget import LineWidget
from .shared_memo import Memo, text_key

_enc = msgspec.msgpack.Encoder()
_texts = Memo(2048)  # key -> (whole text, first line, parts), for every app showing the same table
_lines = Memo(2048)  # (that key, marks, badges, width) -> the bar's lines, for every app at that width
_SEP = " · "


class StatusBar(LineWidget):
    """A first line (where the game is), then the markers and who we wait for."""

    _key: bytes | None = None
    _text: Text | None = None
    _line1: Text | None = None
    _parts: tuple[Text, ...] = ()
    _marks: Text | None = None
    _prefix: Text | None = None
    _suffix: Text | None = None
    _height_key: tuple | None = None
    _height = 1

    def set_marks(self, marks: Text | None) -> None:
        """A short state shown at the end of the first line (None: nothing)."""
        self._marks = marks
        self.invalidate()

    def set_badges(self, prefix: Text | None, suffix: Text | None) -> None:
        """This session's own marks around the first line (None: nothing)."""

        def same(a: Text | None, b: Text | None) -> bool:
            return (a is None and b is None) or (a is not None and b is not None and a.markup == b.markup)

        if same(prefix, self._prefix) and same(suffix, self._suffix):
            return
        self._prefix, self._suffix = prefix, suffix
        self.invalidate()

    def _badged(self, line: Text, width: int) -> Text:
        out = Text(end="", no_wrap=True)
        if self._prefix is not None:
            out.append_text(self._prefix)
        suffix = self._suffix
        room = width - out.cell_len - (suffix.cell_len + 1 if suffix is not None else 0)
        body = line.copy()
        body.truncate(max(room, 0), overflow="ellipsis")
        out.append_text(body)
        if suffix is not None:
            out.append(" " * max(width - out.cell_len - suffix.cell_len, 1))
            out.append_text(suffix)
        out.truncate(width)
        return out

    def build(self, width: int, height: int) -> list[Text]:
        return self.lines_for(width)

    def height_for(self, width: int) -> int:
        key = (self._key, self._marks.markup if self._marks is not None else None, width)
        if key != self._height_key:
            self._height_key = key
            self._height = max(len(self.lines_for(width)), 1)
        return self._height

    def lines_for(self, width: int) -> list[Text]:
        if self._line1 is None or width <= 0:
            return []
        # everything the lines are made from: the texts (by their key), the marks, the badges, the width
        key = (self._key, text_key(self._marks), text_key(self._prefix), text_key(self._suffix), width)
        lines = _lines.get(key)
        if lines is None:
            lines = _lines.put(key, self._make_lines(width))
        return lines

    def _make_lines(self, width: int) -> list[Text]:
        assert self._line1 is not None  # lines_for asks only once a view was shown
        first = self._line1.copy()
        parts = list(self._parts)
        if self._marks is not None:
            if first.cell_len + 3 + self._marks.cell_len <= width:
                first.append(_SEP)
                first.append_text(self._marks)
            else:
                parts.insert(0, self._marks)
        if self._prefix is not None or self._suffix is not None:
            first = self._badged(first, width)
        else:
            first.truncate(width, overflow="ellipsis")
        lines = [first]
        line = Text(" ", end="")
        for part in parts:
            if line.cell_len > 1 and line.cell_len + len(_SEP) + part.cell_len > width:
                lines.append(line)
                line = Text(" ", end="")
            if line.cell_len > 1:
                line.append(_SEP)
            if line.cell_len + part.cell_len > width:  # a part longer than a line: wrapped by words
                for i, piece in enumerate(part.wrap(self.app.console, max(width - line.cell_len, 8))):
                    if i:
                        lines.append(line)
                        line = Text(" ", end="")
                    line.append_text(piece)
            else:
                line.append_text(part)
        lines.append(line)
        return lines

    def show(self, view: Any, cat: Catalogue) -> bool:
        key = _enc.encode(
            (
                cat.key,
                view.round,
                view.phase,
                view.called,
                view.crown,
                view.deck_size,
                view.faceup,
                view.facedown_count,
                view.markers,
                view.tax,
                view.lineup,
                [(p.name, p.revealed) for p in view.players],
                (view.turn.seat, view.turn.character) if view.turn else None,
            )
        )
        if key == self._key:
            return False
        self._key = key
        built = _texts.get(key) if cat.audit is None else None  # an audit sees every lookup
        if built is None:
            line1, parts = self.render_parts(view, cat)
            whole = line1.copy()
            whole.append("\n ")
            whole.append_text(Text(_SEP, end="").join(parts) if parts else Text(""))
            built = _texts.put(key, (whole, line1, tuple(parts)))
        self._text, self._line1, self._parts = built
        self.invalidate()
        return True

    @staticmethod
    def render_parts(view: Any, cat: Catalogue) -> tuple[Text, list[Text]]:
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(f" {cat.t('ui.round', n=view.round)} ", style="bold reverse")
        t.append(" " + cat.t(f"ui.phase_{view.phase}", fallback=view.phase), style="bold")
        if view.called:
            t.append(_SEP)
            t.append(
                cat.t("ui.calling", rank=cat.rank(view.called) or "", character=cat.character(view.called)),
                style="bold",
            )
        crown = view.players[view.crown].name if 0 <= view.crown < len(view.players) else "?"
        t.append(" · ♛ " + crown)
        t.append(_SEP + cat.t("ui.deck", n=view.deck_size), style="dim")
        if "Tax Collector" in view.lineup or view.tax:
            t.append(_SEP + cat.t("ui.tax_short", n=view.tax), style="bold")
        # then: discards and markers (who the game waits for is the prompt's title: said once, and the
        # bar's height changes only when the markers do, a few times a round, not at every decision)
        parts: list[Text] = []
        if view.faceup or view.facedown_count:
            d = Text(end="")
            d.append(cat.t("ui.discarded", cards="").rstrip() + " ")
            for i, c in enumerate(view.faceup):
                if i:
                    d.append(", ")
                d.append_text(character_label(cat, c))
            if not view.faceup:
                d.append(cat.t("ui.none"), style="dim")
            if view.facedown_count:
                d.append(" " + cat.t("ui.discarded_facedown", n=view.facedown_count), style="dim")
            parts.append(d)
        m = view.markers
        for label, ch in (("killed", m.killed), ("robbed", m.robbed), ("bewitched", m.bewitched)):
            if ch:
                parts.append(Text(cat.t(f"markers.{label}", character=cat.ranked(ch)), style="bold", end=""))
        if m.warrants:
            w = cat.t("markers.warrants", characters=", ".join(cat.ranked(c) for c in m.warrants))
            if m.signed:
                w += " (" + cat.t("markers.signed", character=cat.ranked(m.signed)) + ")"
            parts.append(Text(w, end=""))
        if m.threats:
            w = cat.t("markers.threats", characters=", ".join(cat.ranked(c) for c in m.threats))
            if m.flowered:
                w += " (" + cat.t("markers.flowered", character=cat.ranked(m.flowered)) + ")"
            parts.append(Text(w, end=""))
        return t, parts
