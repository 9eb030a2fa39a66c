"""How the prompt draws itself: its title, its list (in one column, scrolled, or in columns) and
what the highlighted choice does, fitted to the panel's size. A mixin of `PromptPanel`
(ui/widgets/prompt.py), which holds the menu, the highlight and the keys.

The pieces of a menu's drawing (each entry's wrapped lines, highlighted or not; the title; each
entry's description) are kept while that menu is shown (`_piece`): moving the highlight makes the
two entries' lines that change and reuses the rest, the same `Text` objects, which `LineWidget`
then finds unchanged at a glance. Lines are never changed once made (they are shared).
A piece missing there is looked up in memos shared by the apps of a process, keyed by all it is
made from: a menu's title lines, an entry's lines (highlighted or not), what an entry does; the
same entries come back in the menus of a turn and at every table (the characters, Back, ending
the turn), so a new menu is mostly put together from lines made before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from ..prompt_keys import key_label
from ..prompt_model import Entry
from .shared_memo import Memo, text_key
from .text_panel import wrap, wrapped

# (title, hint, clock, note, width, height) -> the lines of a prompt with no entries (who we wait for):
# the same for every waiting seat of a table, made once for the apps of a process
_waiting_lines = Memo(1024)
# (title, hint, width) -> a menu's title lines; (detail, width) -> the lines of what an entry does:
# the same texts at every seat and in every game, made once for the apps of a process
_title_memo = Memo(1024)
_detail_memo = Memo(2048)
# an entry's lines (its key, label, text under it if shown there, the keys column's width,
# highlighted or not, the width): the same entries come back in a turn's menus, at every table
_block_memo = Memo(4096)

_BLANK = Text("", end="")  # the empty rows under a short list: one object, never changed
_MORE_ABOVE = Text("  ↑ …", style="dim", end="")
_MORE_BELOW = Text("  ↓ …", style="dim", end="")
_PIECES = 512  # a menu's pieces kept at most (sizes tried while a screen is resized)


def one_line(text: Text, width: int) -> list[Text] | None:
    """`[text]` where `wrap(text, width, ...)` would give one line: a copy of it (no line break, no
    tab, no wider than `width`: Rich's wrap divides it nowhere and truncates nothing). None: wrap it."""
    plain = text.plain
    if "\n" in plain or "\t" in plain or text.cell_len > width:
        return None
    return [text]


class PromptDrawing:
    """The drawing half of the prompt; the state it reads is `PromptPanel`'s."""

    # PromptPanel's state, read here
    app: Any
    menu: Any
    highlighted: int
    roomy: bool
    _clock: Text | None
    _note: Text | None
    _key: Any
    _steps: list[Any]
    _fits_key: Any
    _fits: bool
    _row_map: dict[int, int]
    _col_map: dict[int, list[tuple[int, int, int]]]
    _scroll: int
    # kept here
    _pieces_of: Any = None  # the menu whose pieces `_pieces` holds
    _pieces: dict[tuple, Any]
    _clock_line: tuple[Any, list[Text]] | None = None  # (clock's text_key and width, its line)

    # --- pieces kept while a menu is shown ----------------------------------------------
    def _piece(self, key: tuple, make: Callable[[], Any]) -> Any:
        """What `make` returns for the menu shown and `key` (everything else it reads), made once
        while this menu (the same object: menus are never changed once shown) is shown."""
        menu = self.menu
        if self._pieces_of is not menu:
            self._pieces_of = menu
            self._pieces = {}
        pieces = self._pieces
        value = pieces.get(key)
        if value is None:
            if len(pieces) >= _PIECES:
                pieces.clear()
            value = pieces[key] = make()
        return value

    # --- rendering ------------------------------------------------------------------
    def _top(self, width: int) -> list[Text]:
        menu = self.menu
        top = [self._clock_row(width)] if self._clock is not None else []  # the turn timer, above the title
        return top + self._piece(("top", width), lambda: self._title_lines(menu, width))

    def _clock_row(self, width: int) -> Text:
        clock = self._clock
        assert clock is not None
        key = (text_key(clock), width)
        kept = self._clock_line
        if kept is None or kept[0] != key:
            line = clock.copy()
            line.truncate(width, overflow="ellipsis")
            kept = self._clock_line = (key, [line])
        return kept[1][0]

    def _title_lines(self, menu: Any, width: int) -> list[Text]:
        key = (menu.title, menu.hint, width)
        lines = _title_memo.get(key)
        if lines is None:
            console = self.app.console
            lines = wrapped(Text(" " + menu.title, style="bold", end=""), width, console, indent=1)
            if menu.hint:
                lines += wrapped(Text(" " + menu.hint, style="italic", end=""), width, console, indent=1)
            _title_memo.put(key, lines)
        return [*lines]

    def _pad(self) -> int:
        """The width of the keys column (keys are printed right-aligned: "⏎", "Esc", "1")."""
        return self._piece(("pad",), self._measure_pad)

    def _measure_pad(self) -> int:
        keys = [key_label(e.key) for e in self.menu.entries if not e.back]
        return max((len(k) for k in keys), default=1)

    def _label(self, i: int, e: Entry, inline: bool = True, roomy: bool | None = None) -> Text:
        """An entry's first lines: its key in bold (none for Back or a row only shown), its label,
        and its text under it when `inline` on a roomy screen."""
        pad = self._pad()
        label = Text(end="")
        label.append(("" if e.back else key_label(e.key)).rjust(pad) + " ", style="bold")
        label.append_text(e.label)
        if e.submenu is not None:
            label.append(" ›", style="bold")
        if e.back:
            label.append(" (Esc)", style="dim")
        if inline and (self.roomy if roomy is None else roomy) and e.inline and e.detail:
            # (not dim when highlighted: one shade of reverse)
            label.append("\n" + " " * (pad + 1) + e.detail, style="italic" if i == self.highlighted else "italic dim")
        return label

    def _columns(self, width: int, room: int) -> int:
        """Columns of one-line entries that show the whole list in `room` rows (0: none do)."""
        entries = self.menu.entries
        widest = self._piece(("widest",), self._widest)
        for cols in (2, 3, 4):
            colw = (width - (cols - 1)) // cols
            if widest <= colw and -(-len(entries) // cols) <= room:
                return cols
        return 0

    def _widest(self) -> int:
        return max((self._label(i, e, inline=False).cell_len for i, e in enumerate(self.menu.entries)), default=0)

    def fits(self, width: int, height: int, roomy: bool | None = None) -> bool:
        """Does every item of the current menu show whole at this size (one column or several)?
        `roomy`: as a roomy screen shows it (characters' texts under their names); None: as now."""
        if self.menu is None or not self.menu.entries or width <= 0:
            return True
        roomy = self.roomy if roomy is None else roomy
        key = (self._key, tuple(self._steps), width, height, roomy)
        if key != self._fits_key:
            self._fits_key = key
            self._fits = self._measure_fit(width, height, roomy)
        return self._fits

    def _measure_fit(self, width: int, height: int, roomy: bool) -> bool:
        room = height - len(self._top(width)) - 2  # a rule and one line of what it does below
        rows = sum(len(self._block(i, width, True, roomy)) for i in range(len(self.menu.entries)))
        return rows <= room or self._columns(width, room) > 0

    def _block(self, i: int, width: int, inline: bool, roomy: bool) -> list[Text]:
        """Entry `i`'s lines, wrapped under its label; reversed if it is the highlighted one."""
        lit = i == self.highlighted
        # (its text's shade, a line more or less, only matters inline on a roomy screen)
        return self._piece(("block", i, lit, width, inline, roomy), lambda: self._make_block(i, width, inline, roomy))

    def _make_block(self, i: int, width: int, inline: bool, roomy: bool) -> list[Text]:
        e = self.menu.entries[i]
        # all that `_draw_block` reads (its text under it only inline on a roomy screen)
        detail = e.detail if inline and roomy and e.inline and e.detail else None
        key_text = "" if e.back else key_label(e.key)
        lit = i == self.highlighted
        key = (text_key(e.label), key_text, e.back, e.submenu is not None, detail, self._pad(), lit, width)
        block = _block_memo.get(key)
        if block is None:
            block = _block_memo.put(key, tuple(self._draw_block(i, width, inline, roomy)))
        return [*block]

    def _draw_block(self, i: int, width: int, inline: bool, roomy: bool) -> list[Text]:
        label = self._label(i, self.menu.entries[i], inline=inline, roomy=roomy)
        block = one_line(label, width)
        if block is None:  # the shared lines, or the highlighted entry's own copies (restyled below)
            wrapper = wrap if i == self.highlighted else wrapped
            block = [*wrapper(label, width, self.app.console, indent=self._pad() + 1)]
        if i == self.highlighted:
            for line in block:
                line.pad_right(width - line.cell_len)
                line.stylize("reverse")
        return block

    def _blocks(self, width: int, inline: bool) -> list[list[Text]]:
        """Each entry's lines, wrapped under its label; the highlighted one reversed."""
        roomy = self.roomy
        return [self._block(i, width, inline, roomy) for i in range(len(self.menu.entries))]

    def _detail(self, index: int, width: int) -> list[Text]:
        """What entry `index` does, wrapped, for the box under the list."""
        text = self.menu.entries[index].detail
        key = (text, width)
        lines = _detail_memo.get(key)
        if lines is None:
            detail = Text(" ", end="") + Text(text, style="italic", end="")
            lines = _detail_memo.put(key, wrapped(detail, width, self.app.console, indent=1))
        return [*lines]

    def build(self, width: int, height: int) -> list[Text]:
        menu = self.menu
        if menu is None:
            return []
        if not menu.entries:  # nothing to choose: lines that depend on these alone (no map of rows)
            key = (menu.title, menu.hint, text_key(self._clock), text_key(self._note), width, height)
            lines = _waiting_lines.get(key)
            if lines is None:
                lines = _waiting_lines.put(key, self._build(width, height))
            self._row_map = {}
            self._col_map = {}
            return lines
        return self._build(width, height)

    def _build(self, width: int, height: int) -> list[Text]:
        console = self.app.console
        menu = self.menu
        top = self._top(width)
        entries = menu.entries
        detail_lines: list[Text] = []
        if entries:
            if self._note is not None:
                detail_lines = [*wrapped(Text(" ", end="") + self._note, width, console, indent=1)]
            else:
                h = min(self.highlighted, len(entries) - 1)
                detail_lines = self._piece(("detail", h, width), lambda: self._detail(h, width))
        elif self._note is not None:
            detail_lines = [self._note]
        top = top[: max(height - 3, 1)]
        # the list first: every entry if it can be shown; what the highlighted one does gets the rest
        room_max = max(height - len(top) - (2 if entries else len(detail_lines)), 0)
        blocks = self._blocks(width, inline=True)
        total = sum(len(b) for b in blocks)
        hl = entries[min(self.highlighted, len(entries) - 1)] if entries else None
        if self.roomy and hl and hl.inline and hl.detail and self._note is None and total <= height - len(top):
            detail_lines, room_max = [], height - len(top)  # every text under its entry: the box would repeat it
        if self.roomy and total > room_max:  # every choice in view before any character's text
            blocks = self._blocks(width, inline=False)
            total = sum(len(b) for b in blocks)
        self._row_map = {}
        self._col_map = {}
        cols = self._columns(width, room_max) if entries and total > room_max else 0
        if cols:
            listing = self._in_columns(width, cols, len(top))
        else:
            listing = self._scrolled(blocks, min(total, room_max) if entries else room_max, len(top))
        if entries and detail_lines:
            detail_room = max(height - len(top) - len(listing) - 1, 1)
            rule = self._piece(("rule", width), lambda: Text("╌" * width, style="dim", end=""))
            bottom = [rule, *detail_lines[:detail_room]]
        else:
            bottom = detail_lines
        room = max(height - len(top) - len(bottom), 0)
        listing = listing[:room] + [_BLANK] * (room - len(listing))
        return top + listing + bottom

    def _in_columns(self, width: int, cols: int, y0: int) -> list[Text]:
        """One-line entries in `cols` columns, filled down then across."""
        entries = self.menu.entries
        rows = -(-len(entries) // cols)
        colw = (width - (cols - 1)) // cols
        lines = [Text("", end="") for _ in range(rows)]
        for i, e in enumerate(entries):
            c, r = divmod(i, rows)
            label = self._label(i, e, inline=False)
            label.truncate(colw, pad=True)
            if i == self.highlighted:
                label.stylize("reverse")
            x = c * (colw + 1)
            line = lines[r]
            line.pad_right(x - line.cell_len)
            line.append_text(label)
            self._col_map.setdefault(y0 + r, []).append((x, x + colw, i))
        return lines

    def _scrolled(self, blocks: list[list[Text]], room: int, y0: int) -> list[Text]:
        """Entries wrapped in one column, the highlighted one kept in view."""
        starts = []
        row = 0
        for b in blocks:
            starts.append(row)
            row += len(b)
        if blocks:
            h = min(self.highlighted, len(blocks) - 1)
            first, last = starts[h], starts[h] + len(blocks[h])
            if first < self._scroll:
                self._scroll = first
            elif last > self._scroll + room:
                self._scroll = max(last - room, 0)
            self._scroll = min(self._scroll, max(row - room, 0))
        listing: list[Text] = []
        for i, b in enumerate(blocks):
            for j, line in enumerate(b):
                r = starts[i] + j - self._scroll
                if 0 <= r < room:
                    listing.append(line)
                    self._row_map[y0 + r] = i
        if self._scroll > 0 and listing:
            listing[0] = _MORE_ABOVE
        if starts and self._scroll + room < row and listing:
            listing[-1] = _MORE_BELOW
        return listing
