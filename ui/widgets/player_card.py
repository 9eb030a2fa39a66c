"""One player at the table: name, crown, gold, hand size, characters, city.

A single widget per seat that renders its own lines: the city's district
tokens are packed to the width without ever splitting a card. It redraws
only when its player's data (or the language) changed, and asks for a new
layout only when its height changes.
"""
from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text
from textual.widget import Widget

from ..cards import character_label, district_token, pack
from ..i18n import Catalogue

_enc = msgspec.msgpack.Encoder()


class PlayerCard(Widget):
    can_focus = False

    def __init__(self, seat: int, **kw) -> None:
        super().__init__(**kw)
        self.seat = seat
        self._key: bytes | None = None
        self._data: tuple | None = None
        self._cache: tuple[int, list[Text]] | None = None

    def show(self, view: Any, cat: Catalogue, compact: bool) -> bool:
        """Take this seat's part of a new view; True if it changed."""
        p = view.players[self.seat]
        active = view.pending is not None and view.pending.seat == self.seat and view.phase != "over"
        m = view.markers
        marks = (m.killed, m.robbed, m.bewitched)
        key = _enc.encode((cat.lang, compact, p, active, view.complete_at, view.first_complete, marks, view.seat,
                           view.phase, view.winners))
        if key == self._key:
            return False
        width = self.content_size.width
        old_rows = len(self._lines(width)) if self._data is not None and width else -1
        self._key = key
        self._data = (p, active, view.complete_at, view.first_complete, marks, view.seat, p.city, compact, cat,
                      view.winners)
        self._cache = None
        self.set_class(active, "-active")
        self.set_class(view.seat == self.seat, "-me")
        # a new layout only when the card's height changes
        new_rows = len(self._lines(width)) if width else -2
        self.refresh(layout=new_rows != old_rows)
        return True

    def _lines(self, width: int) -> list[Text]:
        if self._data is None:
            return [Text("")]
        if self._cache is not None and self._cache[0] == width:
            return self._cache[1]
        p, active, complete_at, first, marks, me, city, compact, cat, winners = self._data
        head = self._head(cat, p, active, complete_at, first, marks, me, winners, short=compact)
        if not compact and head.cell_len > width:
            head = self._head(cat, p, active, complete_at, first, marks, me, winners, short=True)
        lines = [head]
        tokens = [district_token(cat, b.name, b.beautified, len(b.under)) for b in city]
        if tokens:
            lines.extend(pack(tokens, width, indent=4))
        elif not compact:
            lines.append(Text("    —", style="dim", end=""))
        self._cache = (width, lines)
        return lines

    @staticmethod
    def _head(cat, p, active, complete_at, first, marks, me, winners, short: bool) -> Text:
        head = Text(end="", no_wrap=True, overflow="ellipsis")
        head.append("▶ " if active else "  ", style="bold")
        head.append("♛ " if p.crown else "  ", style="bold yellow")
        head.append(p.name, style="bold underline" if p.seat == me else "bold")
        if p.seat == me and not short:
            head.append(f" ({cat.t('ui.you')})", style="dim")
        if p.seat in winners:
            head.append(" ★", style="bold yellow")
        for ch in p.characters:
            head.append("  ")
            head.append_text(character_label(cat, ch))
            if ch is not None:
                for label, marked in zip(("killed", "robbed", "bewitched"), marks):
                    if marked == ch:
                        head.append(f" [{cat.t('ui.' + label)}]", style="reverse")
        if short:
            head.append(f"  {cat.t('ui.gold_short', n=p.gold)} {cat.t('ui.cards_short', n=p.hand_size)}")
        else:
            head.append(f"  {cat.t('ui.gold_n', n=p.gold)} · {cat.t('ui.cards_n', n=p.hand_size)}")
        size = len(p.city)
        city_s = cat.t("ui.city_n", n=size, of=complete_at)
        if first == p.seat:
            city_s += " ✓1"
        elif size >= complete_at:
            city_s += " ✓"
        head.append(f"  {city_s}", style="dim")
        return head

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        lines = self._lines(self.content_size.width)
        text = Text("\n", end="").join(lines)
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text
