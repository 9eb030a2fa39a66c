"""Every player at the table, in ONE widget: name, crown, gold, hand size,
characters (revealed or face down, with what is on them), city.

Each seat's lines are cached and rebuilt only when that seat's data changed;
the city's district tokens are packed to the width without ever splitting a
card. A new layout is asked for only when the total height changes.
"""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from ..cards import character_label, district_token, pack
from ..i18n import Catalogue
from .line_widget import LineWidget
from .shared_memo import Memo

_enc = msgspec.msgpack.Encoder()
_seat_memo = Memo(4096)  # (seat key, width) -> lines, for every app showing the same table


def seat_order(view: Any) -> list[int]:
    """Seats in table order starting with yours (you first, then to your left)."""
    n = len(view.players)
    me = view.seat if view.seat is not None else 0
    return [(me + i) % n for i in range(n)]


class PlayersPanel(LineWidget):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._keys: dict[int, bytes] = {}
        self._data: dict[int, tuple] = {}
        self._seat_lines: dict[tuple[int, int], list[Text]] = {}  # (seat, width) -> lines
        self._order: list[int] = []
        self.compact = True
        self._marks: dict[int, Text] = {}  # seat -> its presence label (ui/feedback.py), after the name

    def show(self, view: Any, cat: Catalogue, compact: bool) -> bool:
        m = view.markers
        marks = (m.killed, m.robbed, m.bewitched)
        pending = view.pending.seat if view.pending is not None and view.phase != "over" else -1
        width = self.content_size.width
        old_h = self._height(width) if width else -1
        changed = compact != self.compact
        self.compact = compact
        self._order = seat_order(view)
        for p in view.players:
            key = _enc.encode(
                (
                    cat.key,
                    compact,
                    p,
                    pending == p.seat,
                    view.complete_at,
                    view.first_complete,
                    marks,
                    p.seat == view.seat,
                    view.winners,
                )
            )
            if self._keys.get(p.seat) != key:
                self._keys[p.seat] = key
                self._data[p.seat] = (
                    p,
                    pending == p.seat,
                    view.complete_at,
                    view.first_complete,
                    marks,
                    view.seat,
                    view.winners,
                    cat,
                )
                for k in [k for k in self._seat_lines if k[0] == p.seat]:
                    del self._seat_lines[k]
                changed = True
        if changed:
            new_h = self._height(width) if width else -2
            self.invalidate(layout=new_h != old_h)
        return changed

    def set_marks(self, marks: dict[int, Text]) -> bool:
        """Each seat's presence label ("away: a bot in 45 s", "a bot plays for ana"); only the seats
        whose label changed are drawn again."""

        def markup(labels: dict[int, Text], seat: int) -> str | None:
            label = labels.get(seat)
            return label.markup if label is not None else None

        changed = [seat for seat in set(marks) | set(self._marks) if markup(marks, seat) != markup(self._marks, seat)]
        if not changed:
            return False
        width = self.content_size.width
        old_h = self._height(width) if width and self._data else -1
        self._marks = dict(marks)
        for seat in changed:
            for k in [k for k in self._seat_lines if k[0] == seat]:
                del self._seat_lines[k]
        new_h = self._height(width) if width and self._data else -2
        self.invalidate(layout=new_h != old_h)
        return True

    def _columns(self, width: int) -> int:
        return 2 if not self.compact and width >= 90 and len(self._order) > 2 else 1

    def _rows(self, width: int) -> list[Text]:
        """All lines: one column of seats, or two side by side on wide screens."""
        cols = self._columns(width)
        if cols == 1:
            return [line for s in self._order for line in self._lines(s, width)]
        colw = (width - 1) // 2
        rows: list[Text] = []
        for i in range(0, len(self._order), 2):
            left = self._lines(self._order[i], colw)
            right = self._lines(self._order[i + 1], colw) if i + 1 < len(self._order) else []
            for j in range(max(len(left), len(right))):
                line = left[j].copy() if j < len(left) else Text(end="")
                line.truncate(colw, pad=True)
                line.append(" ")
                if j < len(right):
                    line.append_text(right[j])
                rows.append(line)
        return rows

    def _height(self, width: int) -> int:
        cols = self._columns(width)
        if cols == 1:
            return sum(len(self._lines(s, width)) for s in self._order)
        colw = (width - 1) // 2
        return sum(
            max(
                len(self._lines(self._order[i], colw)),
                len(self._lines(self._order[i + 1], colw)) if i + 1 < len(self._order) else 0,
            )
            for i in range(0, len(self._order), 2)
        )

    def _lines(self, seat: int, width: int) -> list[Text]:
        cached = self._seat_lines.get((seat, width))
        if cached is not None:
            return cached
        p, active, complete_at, first, marks, me, winners, cat = self._data[seat]
        mark = self._marks.get(seat)
        shared_key = (self._keys[seat], width, mark.markup if mark is not None else None)
        lines = _seat_memo.get(shared_key) if cat.audit is None else None  # an audit sees every lookup
        if lines is None:
            lines = _seat_memo.put(
                shared_key, self._make_lines(p, active, complete_at, first, marks, me, winners, cat, width, mark)
            )
        self._seat_lines[(seat, width)] = lines
        return lines

    def _make_lines(
        self,
        p: Any,
        active: bool,
        complete_at: int,
        first: int | None,
        marks: tuple,
        me: int | None,
        winners: list[int],
        cat: Catalogue,
        width: int,
        mark: Text | None = None,
    ) -> list[Text]:
        head = _head(cat, p, active, complete_at, first, marks, me, winners, short=self.compact, mark=mark)
        if not self.compact and head.cell_len > width:
            head = _head(cat, p, active, complete_at, first, marks, me, winners, short=True, mark=mark)
        if active:
            head.stylize("reverse", 0, 1)
        lines = [head]
        tokens = [district_token(cat, b.name, b.beautified, len(b.under)) for b in p.city]
        if tokens:
            lines.extend(pack(tokens, width, indent=4))
        elif not self.compact:
            lines.append(Text("    —", style="dim", end=""))
        return lines

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(self._height(width), 1)

    def build(self, width: int, height: int) -> list[Text]:
        return self._rows(width)


def _head(
    cat: Catalogue,
    p: Any,
    active: bool,
    complete_at: int,
    first: int | None,
    marks: tuple,
    me: int | None,
    winners: list[int],
    short: bool,
    mark: Text | None = None,
) -> Text:
    head = Text(end="", no_wrap=True, overflow="ellipsis")
    head.append("▶ " if active else "  ", style="bold")
    head.append("♛ " if p.crown else "  ", style="bold yellow")
    head.append(p.name, style="bold underline" if p.seat == me else "bold")
    if p.seat == me and not short:
        head.append(f" ({cat.t('ui.you')})", style="dim")
    if mark is not None:  # who plays the seat now (away, a bot for them): right after the name, never cut
        head.append(" ")
        head.append_text(mark)
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
