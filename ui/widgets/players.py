"""Every player at the table, in ONE widget: name, crown, gold, hand size,
characters (revealed or face down, with what is on them), city.

Three forms, chosen by the table screen's layout (`set_form`) as space allows:
- `full`: a head line (gold and cards in words) and the city as tokens
  (`N3 Manor`), packed to the width;
- `short`: the same with a short head (`5g 3c`);
- `line`: one line per seat, the city as its size and one coloured type
  letter per district (`5/7 NNRTU`).
Seats can be laid out in columns (`cols`). Each seat's lines are cached per
form and width and rebuilt only when that seat's data changed; the city's
tokens are never split.

`set_marks({seat: Text})` puts a short state after a seat's name (away with a
countdown, a bot playing for them...): the place for seat states.
"""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from ..cards import character_label, district_label, district_letter, district_token, pack, pack_rows
from ..i18n import Catalogue
from .line_widget import LineWidget
from .shared_memo import Memo

_enc = msgspec.msgpack.Encoder()
_seat_memo = Memo(4096)  # (seat key, form, width) -> lines, for every app showing the same table
_rows_memo = Memo(8192)  # (seat key, form, width) -> how many lines
# (column width, ids of the seats' line lists) -> (those lists, their rows side by side): seats' lines
# come from `_seat_memo`, so apps whose viewers pair the same seats alike join them once; the entry
# keeps the lists alive, so no other list can take one of their ids while it is kept
_joined_memo = Memo(2048)
# (catalogue's key, the city's districts, full form, width) -> a city's lines: the same Text objects for
# every seat and viewer with that city (a seat's head changes on most moves, its city far less often)
_city_memo = Memo(4096)
# (column width, ids of one row's cells) -> (those cells, the row): rows whose cells did not change (a
# city's lines) are joined once, whichever seat's head moved; the entry keeps the cells alive (their ids)
_row_memo = Memo(8192)
# id of a player's view -> (that view, its bytes): a table's views of one state share each other
# player's (engine.view `others`), so one encoding serves every seat's app; the entry keeps the view
# alive (its id), and a view is never changed once taken
_player_memo = Memo(4096)
FORMS = ("full", "short", "line")
MIN_NAME = 4  # a name is cut to no fewer cells than this in the one-line form


def seat_order(view: Any) -> list[int]:
    """Seats in table order starting with yours (you first, then to your left)."""
    n = len(view.players)
    me = view.seat if view.seat is not None else 0
    return [(me + i) % n for i in range(n)]


def _player_bytes(p: Any) -> bytes:
    """A player's view encoded (part of a seat's key), once per view object."""
    kept = _player_memo.get(id(p))
    if kept is not None and kept[0] is p:
        return kept[1]
    data = _enc.encode(p)
    _player_memo.put(id(p), (p, data))
    return data


class PlayersPanel(LineWidget):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._keys: dict[int, bytes] = {}
        self._data: dict[int, tuple] = {}
        self._seat_lines: dict[tuple[int, str, int], list[Text]] = {}  # (seat, form, width) -> lines
        self._groups: dict[tuple, tuple[list, list[Text]]] = {}  # seats side by side, as last built
        self._order: list[int] = []
        self.compact = True
        self.form: str | None = None  # None: from `compact` (short / full)
        self.cols: int | None = None  # None: two columns on wide roomy screens
        self._marks: dict[int, Text] = {}
        self._last: tuple | None = None  # the last (view, cat, compact) shown
        self.fixed = False  # True: the screen sets the height (no layout asked when lines change)
        # `rows_at_least`'s counts, kept while what they are made from stays: the seats' order and which
        # cities are empty (`show` forgets them when either changes; the layout asks on every view)
        self._empty: dict[int, bool] = {}
        self._least: dict[tuple[str, int], int] = {}

    # --- data --------------------------------------------------------------------------
    def show(self, view: Any, cat: Catalogue, compact: bool) -> bool:
        m = view.markers
        marks = (m.killed, m.robbed, m.bewitched)
        pending = view.pending.seat if view.pending is not None and view.phase != "over" else -1
        width = self.content_size.width if not self.fixed else 0  # (a fixed panel's height is the screen's)
        old_h = self._height(width) if width and not self.fixed else -1
        changed = compact != self.compact
        self.compact = compact
        self._last = (view, cat, compact)
        order = seat_order(view)
        if order != self._order:
            self._order, self._least = order, {}
        for p in view.players:
            seat_mark = self._marks.get(p.seat)
            key = _player_bytes(p) + _enc.encode(
                (
                    cat.key,
                    pending == p.seat,
                    view.complete_at,
                    view.first_complete,
                    marks,
                    p.seat == view.seat,
                    view.winners,
                    seat_mark.markup if seat_mark is not None else None,
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
                    seat_mark,
                )
                for k in [k for k in self._seat_lines if k[0] == p.seat]:
                    del self._seat_lines[k]
                if self._empty.get(p.seat) != (not p.city):
                    self._empty[p.seat], self._least = not p.city, {}
                changed = True
        if changed:
            new_h = self._height(width) if width and not self.fixed else -1
            self.invalidate(layout=new_h != old_h and not self.fixed)
        return changed

    def set_marks(self, marks: dict[int, Text]) -> bool:
        """A short state after each listed seat's name (away with a countdown, a bot playing for
        them): replaces the previous marks; only the seats whose mark changed are drawn again."""
        if {k: v.markup for k, v in marks.items()} == {k: v.markup for k, v in self._marks.items()}:
            return False
        self._marks = dict(marks)
        if self._last is not None:
            self.show(*self._last)
        return True

    def set_form(self, form: str | None, cols: int | None = None) -> None:
        """The form and the number of seat columns the layout chose (None: the defaults)."""
        if (form, cols) != (self.form, self.cols):
            self.form, self.cols = form, cols
            self.invalidate(layout=not self.fixed)

    def _form(self) -> str:
        if self.form is not None:
            return self.form
        return "short" if self.compact else "full"

    def _columns(self, width: int, form: str | None = None, cols: int | None = None) -> int:
        cols = cols if cols is not None else self.cols
        if cols is None:
            cols = 2 if not self.compact and width >= 90 and len(self._order) > 2 else 1
        return max(1, min(cols, len(self._order) or 1))

    # --- sizes -------------------------------------------------------------------------
    def height_for(self, width: int, form: str | None = None, cols: int | None = None) -> int:
        """Rows needed to show every seat at `width` in `form` with `cols` seat columns."""
        return self._height(width, form, cols)

    def _height(self, width: int, form: str | None = None, cols: int | None = None) -> int:
        if width <= 0:
            return 0
        form = form or self._form()
        n = self._columns(width, form, cols)
        if n == 1:
            return sum([self._rows_of(s, width, form) for s in self._order])
        colw = (width - (n - 1)) // n
        rows = [self._rows_of(s, colw, form) for s in self._order]
        return sum([max(rows[i : i + n]) for i in range(0, len(rows), n)])

    def rows_at_least(self, width: int, form: str | None = None, cols: int | None = None) -> int:
        """Rows `height_for` is never below, counted without any seat's lines: a head line for each
        seat, and a line of city (a district, or the dash of an empty city in full)."""
        if width <= 0:
            return 0
        form = form or self._form()
        n = self._columns(width, form, cols)
        # counted once for each form and count of columns while which cities are empty, in the seats'
        # order, stays the same (all a count reads; `show` forgets the counts when either changes)
        rows = self._least.get((form, n))
        if rows is None:
            least = {
                s: 1 if form == "line" else 1 + (1 if not self._empty[s] or form == "full" else 0) for s in self._order
            }
            rows = sum(max(least[s] for s in self._order[i : i + n]) for i in range(0, len(self._order), n))
            self._least[(form, n)] = rows
        return rows

    def _rows_of(self, seat: int, width: int, form: str) -> int:
        """How many lines a seat takes, counted without drawing them (the layout asks for every form
        and width it considers, on every view)."""
        if form == "line":
            return 1
        lines = self._seat_lines.get((seat, form, width))
        if lines is not None:
            return len(lines)
        key = (self._keys[seat], form, width)
        rows = _rows_memo.get(key)
        if rows is None:
            p, cat = self._data[seat][0], self._data[seat][7]
            widths = [len(district_label(cat, b.name, b.beautified, len(b.under))) + 2 for b in p.city]
            head = len(_head_lines(self._data[seat], form, width))
            rows = _rows_memo.put(key, head + (pack_rows(widths, width, indent=4) if widths else int(form == "full")))
        return rows

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(self._height(width), 1)

    # --- lines -------------------------------------------------------------------------
    def build(self, width: int, height: int) -> list[Text]:
        """All lines: one column of seats, or seats side by side in columns."""
        form = self._form()
        n = self._columns(width, form)
        if n == 1:
            return [line for s in self._order for line in self._lines(s, width, form)]
        colw = (width - (n - 1)) // n
        rows: list[Text] = []
        # Seats side by side: a row of seats whose lines did not change (the same cached lists) is
        # not joined again, and its lines stay the same objects (compared by identity first).
        groups: dict[tuple, tuple[list, list[Text]]] = {}
        for i in range(0, len(self._order), n):
            group = [self._lines(s, colw, form) for s in self._order[i : i + n]]
            key, entry = _joined(group, colw, self._groups)
            groups[key] = entry
            rows.extend(entry[1])
        self._groups = groups
        return rows

    def _lines(self, seat: int, width: int, form: str | None = None) -> list[Text]:
        form = form or self._form()
        cached = self._seat_lines.get((seat, form, width))
        if cached is not None:
            return cached
        data = self._data[seat]
        cat = data[7]
        shared_key = (self._keys[seat], form, width)
        lines = _seat_memo.get(shared_key) if cat.audit is None else None  # an audit sees every lookup
        if lines is None:
            lines = _seat_memo.put(shared_key, _make_lines(data, form, width))
        self._seat_lines[(seat, form, width)] = lines
        return lines


def _joined(group: list[list[Text]], colw: int, before: dict) -> tuple[tuple, tuple[list, list[Text]]]:
    """(key, (the lists, their rows side by side)): as this widget last joined them (`before`), or as
    any app of the process did."""
    key = (colw, *map(id, group))
    entry = before.get(key) or _joined_memo.get(key)
    if entry is None:
        entry = _joined_memo.put(key, (group, _side_by_side(group, colw)))
    return key, entry


def _side_by_side(group: list[list[Text]], colw: int) -> list[Text]:
    """The lines of a few seats in columns of `colw` cells, one space between; each row as any
    app of the process last joined the same cells (`_row_memo`)."""
    rows: list[Text] = []
    for j in range(max(len(g) for g in group)):
        cells = tuple(g[j] if j < len(g) else None for g in group)
        key = (colw, *map(id, cells))
        entry = _row_memo.get(key)
        if entry is None:
            entry = _row_memo.put(key, (cells, _joined_row(cells, colw)))
        rows.append(entry[1])
    return rows


def _joined_row(cells: tuple[Text | None, ...], colw: int) -> Text:
    """One row of seats side by side (None: no line of that seat here)."""
    last = len(cells) - 1
    line = Text(end="")
    for k, cell in enumerate(cells):
        if cell is None:  # no line here: blank cells (nothing after the last column)
            if k < last:
                line.append(" " * (colw + 1))
            continue
        if k == last:
            line.append_text(cell)  # appended as it is: not changed, no copy needed
            continue
        width = cell.cell_len
        if width <= colw and not cell.style and cell.overflow != "ignore":
            # what `truncate(colw, pad=True)` and a space would add: unstyled spaces
            line.append_text(cell)
            line.append(" " * (colw - width + 1))
        else:  # cut to the column, or padded in the cell's own style: as Rich does it
            cell = cell.copy()
            cell.truncate(colw, pad=True)
            cell.append(" ")
            line.append_text(cell)
    return line


def _head_lines(data: tuple, form: str, width: int) -> list[Text]:
    """A seat's head, in as few words as its width needs; still too long (a long name, marks, two
    characters in a narrow column): folded at a space, the rest indented, never cut."""
    p, active, complete_at, first, marks, me, winners, cat, seat_mark = data
    # long heads ("2 gold · 4 cards  city 0/7") only where every seat's fits: never side by side with short ones
    head = _head(cat, p, active, complete_at, first, marks, me, winners, seat_mark, short=form != "full" or width < 52)
    if form == "full" and head.cell_len > width:
        head = _head(cat, p, active, complete_at, first, marks, me, winners, seat_mark, short=True)
    if head.cell_len > width:  # one space between the parts rather than a cut
        head = _head(cat, p, active, complete_at, first, marks, me, winners, seat_mark, short=True, sep=" ")
    if active:
        head.stylize("reverse", 0, 1)
    lines: list[Text] = []
    while head.cell_len > width > 8:
        plain = head.plain  # a space after the marks and the name's first letters, not after a rank ("4 Emperor")
        at = next(
            (i for i in range(min(width, len(plain) - 1), 4, -1) if plain[i] == " " and not plain[i - 1].isdigit()), 0
        )
        first_part, rest = head.divide([at if at > 4 else width])
        first_part.rstrip()
        lines.append(first_part)
        head = (
            Text("    ", end="", no_wrap=True, overflow="ellipsis") + rest[len(rest.plain) - len(rest.plain.lstrip()) :]
        )
    return [*lines, head]


def _make_lines(data: tuple, form: str, width: int) -> list[Text]:
    p, cat = data[0], data[7]
    if form == "line":
        return [_one_line(data, width)]
    lines = _head_lines(data, form, width)
    city = tuple((b.name, b.beautified, len(b.under)) for b in p.city)
    key = (cat.key, city, form == "full", width)
    city_lines = _city_memo.get(key) if cat.audit is None else None  # an audit sees every lookup
    if city_lines is None:
        city_lines = _city_memo.put(key, _city_lines(cat, city, form, width))
    lines.extend(city_lines)
    return lines


def _city_lines(cat: Catalogue, city: tuple, form: str, width: int) -> tuple[Text, ...]:
    """A city's districts as tokens packed to the width, never split (never changed once made: shared)."""
    tokens = [district_token(cat, name, beautified, under) for name, beautified, under in city]
    if tokens:
        return tuple(pack(tokens, width, indent=4))
    if form == "full":
        return (Text("    —", style="dim", end=""),)
    return ()


def _city_count(cat: Catalogue, p: Any, complete_at: int, first: int | None, words: bool) -> str:
    size = len(p.city)
    city_s = cat.t("ui.city_n", n=size, of=complete_at) if words else f"{size}/{complete_at}"
    if first == p.seat:
        city_s += " ✓1"
    elif size >= complete_at:
        city_s += " ✓"
    return city_s


def _one_line(data: tuple, width: int) -> Text:
    """A seat in one line: marks, name, characters, gold and cards, city size and type letters.
    The name is cut first when the line is too long."""
    p, active, complete_at, first, marks, me, winners, cat, seat_mark = data
    tail = Text(end="")
    if seat_mark is not None:
        tail.append(" ")
        tail.append_text(seat_mark)
    if p.seat in winners:
        tail.append(" ★", style="bold yellow")
    for ch in p.characters:
        tail.append(" ")
        tail.append_text(character_label(cat, ch))
        if ch is not None:
            for label, marked in zip(("ui.killed", "ui.robbed", "ui.bewitched"), marks):
                if marked == ch:
                    tail.append(f" [{cat.t(label)}]", style="reverse")
    tail.append(f" {cat.t('ui.gold_short', n=p.gold)} {cat.t('ui.cards_short', n=p.hand_size)}")
    tail.append(" " + _city_count(cat, p, complete_at, first, words=False), style="dim")
    if p.city:
        tail.append(" ")
        for b in p.city:
            tail.append_text(district_letter(cat, b.name, b.beautified))
    line = Text(end="", no_wrap=True, overflow="ellipsis")
    line.append("▶" if active else " ", style="bold reverse" if active else "bold")
    line.append("♛" if p.crown else " ", style="bold yellow")
    room = width - 2 - tail.cell_len
    name = p.name
    if len(name) > room:
        name = name[: max(room - 1, MIN_NAME - 1)] + "…"
    line.append(name, style="bold underline" if p.seat == me else "bold")
    line.append_text(tail)
    if line.cell_len > width:
        line.truncate(width, overflow="ellipsis")
    return line


def _head(
    cat: Catalogue,
    p: Any,
    active: bool,
    complete_at: int,
    first: int | None,
    marks: tuple,
    me: int | None,
    winners: list[int],
    seat_mark: Text | None,
    short: bool,
    sep: str = "  ",
) -> Text:
    head = Text(end="", no_wrap=True, overflow="ellipsis")
    head.append("▶ " if active else "  ", style="bold")
    head.append("♛ " if p.crown else "  ", style="bold yellow")
    head.append(p.name, style="bold underline" if p.seat == me else "bold")
    if p.seat == me and not short:
        head.append(f" ({cat.t('ui.you')})", style="dim")
    if seat_mark is not None:
        head.append(" ")
        head.append_text(seat_mark)
    if p.seat in winners:
        head.append(" ★", style="bold yellow")
    for ch in p.characters:
        head.append(sep)
        head.append_text(character_label(cat, ch))
        if ch is not None:
            for label, marked in zip(("ui.killed", "ui.robbed", "ui.bewitched"), marks):
                if marked == ch:
                    head.append(f" [{cat.t(label)}]", style="reverse")
    if short:
        head.append(f"{sep}{cat.t('ui.gold_short', n=p.gold)} {cat.t('ui.cards_short', n=p.hand_size)}")
    else:
        head.append(f"{sep}{cat.t('ui.gold_n', n=p.gold)} · {cat.t('ui.cards_n', n=p.hand_size)}")
    head.append(sep + _city_count(cat, p, complete_at, first, words=not short), style="dim")
    return head
