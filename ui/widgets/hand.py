"""You: your gold, your characters with their ability text, your hand with each
card's type, cost and (for unique districts) effect, as printed in the edition
of the rule set in play (`cat.set_rules`). One widget; it redraws only when
your cards, characters or gold change (or the language or the edition)."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from engine.cards.districts import DISTRICTS, TYPES

from ..cards import character_label, district_line
from ..i18n import Catalogue
from .text_panel import TextPanel, wrap

_enc = msgspec.msgpack.Encoder()
_TYPE_ORDER = {name: TYPES.index(d.type) * 100 for name, d in DISTRICTS.items()}


def _order(cat: Catalogue, card: str) -> tuple[int, str]:
    t = _TYPE_ORDER.get(card)
    return (999 if t is None else t + (cat.cost(card) or 0), card)


class HandPanel(TextPanel):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._key: bytes | None = None
        self._data: tuple | None = None

    def show(self, view: Any, cat: Catalogue) -> bool:
        if view.seat is None:
            return False
        me = view.players[view.seat]
        key = _enc.encode((cat.key, me.gold, me.hand, me.characters))
        if key == self._key:
            return False
        self._key = key
        self._data = (me, cat)
        self.changed()
        return True

    def lines(self, width: int) -> list[Text]:
        if self._data is None:
            return []
        me, cat = self._data
        console = self.app.console
        out: list[Text] = []
        head = Text(me.name, style="bold", end="")
        head.append(f" · {cat.t('ui.gold_n', n=me.gold)} · {cat.t('ui.cards_n', n=len(me.hand or []))}")
        out += wrap(head, width, console)
        out.append(Text(cat.t("ui.your_characters"), style="bold underline", end=""))
        if not me.characters:
            out.append(Text("  " + cat.t("ui.no_character"), style="dim", end=""))
        for ch in me.characters:
            t = Text(" ", end="")
            t.append_text(character_label(cat, ch))
            if ch is not None:
                t.append(" " + cat.character_text(ch), style="italic")
            out += wrap(t, width, console, indent=3)
        out.append(Text(cat.t("ui.your_hand"), style="bold underline", end=""))
        hand = me.hand or []
        if not hand:
            out.append(Text("  " + cat.t("ui.hand_empty"), style="dim", end=""))
        for card in sorted(hand, key=lambda c: _order(cat, c)):
            t = Text(" ", end="")
            t.append_text(district_line(cat, card))
            out += wrap(t, width, console, indent=3)
        return out
