"""The top of the table: round, phase, rank called, crown, deck, discards, markers, tax."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from ..cards import character_label
from ..i18n import Catalogue
from ..prompt_model import waiting_sentence
from .line_widget import LineWidget
from .shared_memo import Memo

_enc = msgspec.msgpack.Encoder()
_texts = Memo(2048)  # key -> the two lines, for every app showing the same table


class StatusBar(LineWidget):
    """Two fixed lines: where the game is, then what is on the characters."""

    _key: bytes | None = None
    _text: Text | None = None
    # This session's own marks on the first line (ui/feedback.py): a prefix ("You are watching") and a
    # suffix at the right edge (unread chat, watchers). Kept apart from the shared text.
    _prefix: Text | None = None
    _suffix: Text | None = None

    def build(self, width: int, height: int) -> list[Text]:
        if self._text is None:
            return []
        lines = self._text.split("\n")
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        if lines and (self._prefix is not None or self._suffix is not None):
            lines[0] = self._badged(lines[0], width)
        return list(lines)

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

    def set_badges(self, prefix: Text | None, suffix: Text | None) -> None:
        def same(a: Text | None, b: Text | None) -> bool:
            return (a is None and b is None) or (a is not None and b is not None and a.markup == b.markup)

        if same(prefix, self._prefix) and same(suffix, self._suffix):
            return
        self._prefix, self._suffix = prefix, suffix
        self.invalidate()

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
                view.pending,
                [(p.name, p.revealed) for p in view.players],
                (view.turn.seat, view.turn.character) if view.turn else None,
                view.pending is not None and view.pending.seat == view.seat,
            )
        )
        if key == self._key:
            return False
        self._key = key
        text = _texts.get(key) if cat.audit is None else None  # an audit sees every lookup
        if text is None:
            text = _texts.put(key, self.render_text(view, cat))
        self._text = text
        self.invalidate()
        return True

    @staticmethod
    def render_text(view: Any, cat: Catalogue) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append(f" {cat.t('ui.round', n=view.round)} ", style="bold reverse")
        t.append(" " + cat.t(f"ui.phase_{view.phase}", fallback=view.phase), style="bold")
        if view.called:
            t.append(" · ")
            t.append(
                cat.t("ui.calling", rank=cat.rank(view.called) or "", character=cat.character(view.called)),
                style="bold",
            )
        crown = view.players[view.crown].name if 0 <= view.crown < len(view.players) else "?"
        t.append(" · ♛ " + crown)
        t.append(" · " + cat.t("ui.deck", n=view.deck_size), style="dim")
        if "Tax Collector" in view.lineup or view.tax:
            t.append(" · " + cat.t("ui.tax_short", n=view.tax), style="bold")
        t.append("\n")
        # second line: discards, markers, then who we wait for
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
        if view.pending is not None and view.pending.seat != view.seat:
            parts.append(Text(waiting_sentence(view, cat), style="italic", end=""))
        line2 = Text(" · ", end="").join(parts) if parts else Text("")
        t.append(" ")
        t.append_text(line2)
        return t
