"""You: your gold, your characters with their ability text, your hand with each
card's type, cost and (for unique districts) effect, as printed in the edition
of the rule set in play (`cat.set_rules`). One widget; it redraws only when
your cards, characters or gold change (or the language or the edition).

Three forms, chosen by the table screen's layout (`set_form`) as space allows:
- `full`: gold and cards, each character with its ability, one card per line
  with a unique district's effect;
- `list`: gold, cards and characters on one line, then one card per line;
- `packed`: the same head, the cards as tokens packed side by side.
Every form shows every card."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from ..cards import character_label, district_line, district_token, hand_order, pack
from ..i18n import Catalogue
from .shared_memo import Memo
from .text_panel import TextPanel, wrapped

_enc = msgspec.msgpack.Encoder()
FORMS = ("full", "list", "packed")
# (catalogue's key, "card" or "character", its name, form, width) -> its lines in a hand, for every app:
# a card or a character reads the same in every hand that holds it (the hand changes on most moves)
_item_lines = Memo(4096)


class HandPanel(TextPanel):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._key: bytes | None = None
        self._data: tuple | None = None
        self.form = "full"
        self._sized: dict[tuple[int, str], list[Text]] = {}  # (width, form) -> lines

    def show(self, view: Any, cat: Catalogue) -> bool:
        if view.seat is None:
            return False
        me = view.players[view.seat]
        key = _enc.encode((cat.key, me.gold, me.hand, me.characters))
        if key == self._key:
            return False
        self._key = key
        self._data = (me, cat)
        self._sized = {}
        self.changed()
        return True

    def clear(self) -> None:
        """No hand shown (a spectator's screen, or another table)."""
        self._key = None
        self._data = None
        self._sized = {}
        self.changed()

    def set_form(self, form: str) -> None:
        if form != self.form:
            self.form = form
            self.changed()

    def height_for(self, width: int, form: str) -> int:
        """Rows needed to show the whole hand at `width` in `form`."""
        return len(self.lines_for(width, form)) if width > 0 else 0

    def lines(self, width: int) -> list[Text]:
        return self.lines_for(width, self.form)

    def lines_for(self, width: int, form: str) -> list[Text]:
        cached = self._sized.get((width, form))
        if cached is None:
            cached = self._sized[(width, form)] = self._make(width, form)
        return cached

    def _make(self, width: int, form: str) -> list[Text]:
        """The hand's lines (its wrapped lines are the shared ones: never changed here or after)."""
        if self._data is None:
            return []
        me, cat = self._data
        console = self.app.console
        hand = sorted(me.hand or [], key=lambda c: hand_order(cat, c))
        out: list[Text] = []
        if form == "full":
            head = Text(end="")  # a Text's own style would make the whole line bold: only the name is
            head.append(me.name, style="bold")
            head.append(f" · {cat.t('ui.gold_n', n=me.gold)} · {cat.t('ui.cards_n', n=len(hand))}")
            out += wrapped(head, width, console)
            out.append(Text(cat.t("ui.your_characters"), style="bold underline", end=""))
            if not me.characters:
                out.append(Text("  " + cat.t("ui.no_character"), style="dim", end=""))
            for ch in me.characters:
                out += _item(cat, "character", ch, form, width, console)
            out.append(Text(cat.t("ui.your_hand"), style="bold underline", end=""))
        else:
            head = Text(end="")
            head.append(cat.t("ui.gold_n", n=me.gold), style="bold")
            head.append(" · " + cat.t("ui.cards_n", n=len(hand)))
            if me.characters:
                for i, ch in enumerate(me.characters):
                    head.append(" · " if i == 0 else ", ")
                    head.append_text(character_label(cat, ch))
            else:
                head.append(" · " + cat.t("ui.no_character_short"), style="dim")
            out += wrapped(head, width, console, indent=2)
        if not hand:
            out.append(Text("  " + cat.t("ui.hand_empty"), style="dim", end=""))
        elif form == "packed":
            out += pack([district_token(cat, c) for c in hand], width, indent=1)
        else:
            for card in hand:
                out += _item(cat, "card", card, form, width, console)
        return out


def _item(cat: Catalogue, kind: str, name: str | None, form: str, width: int, console) -> tuple[Text, ...]:
    """A card ("list": its token; "full": with its effect, wrapped) or a character (with its
    ability, wrapped) on its own lines, as shared by every app (never changed once made)."""
    key = (cat.key, kind, name, form, width)
    lines = _item_lines.get(key) if cat.audit is None else None  # an audit sees every lookup
    if lines is None:
        t = Text(" ", end="")
        if kind == "character":
            t.append_text(character_label(cat, name))
            if name is not None:
                t.append(" " + cat.character_text(name), style="italic")
            lines = wrapped(t, width, console, indent=3)
        elif form == "list":
            t.append_text(district_token(cat, name or ""))
            lines = (t,)
        else:
            t.append_text(district_line(cat, name or ""))
            lines = wrapped(t, width, console, indent=3)
        _item_lines.put(key, lines)
    return lines
