"""You: your gold, your characters with their ability text, your hand with each
card's type, cost and (for unique districts) effect."""
from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..cards import character_label, district_line
from ..i18n import Catalogue

_enc = msgspec.msgpack.Encoder()


class HandText(Static):
    pass


class HandPanel(VerticalScroll):
    """A scrollable panel holding one Static; redrawn only when your cards change."""

    can_focus = False
    _key: bytes | None = None

    def compose(self):
        yield HandText(id="hand-text")

    def show(self, view: Any, cat: Catalogue) -> bool:
        if view.seat is None:
            return False
        me = view.players[view.seat]
        drawn = view.turn.drawn if view.turn is not None else []
        key = _enc.encode((cat.lang, me.gold, me.hand, me.characters, drawn))
        if key == self._key:
            return False
        self._key = key
        self.query_one(HandText).update(self.render_text(view, cat))
        return True

    @staticmethod
    def render_text(view: Any, cat: Catalogue) -> Text:
        me = view.players[view.seat]
        t = Text(end="")
        t.append(me.name, style="bold")
        t.append(f" · {cat.t('ui.gold_n', n=me.gold)} · {cat.t('ui.cards_n', n=len(me.hand or []))}\n")
        t.append(cat.t("ui.your_characters") + "\n", style="bold underline")
        if not me.characters:
            t.append("  " + cat.t("ui.no_character") + "\n", style="dim")
        for ch in me.characters:
            t.append("  ")
            t.append_text(character_label(cat, ch))
            if ch is not None:
                t.append(" " + cat.character_text(ch), style="italic")
            t.append("\n")
        t.append(cat.t("ui.your_hand") + "\n", style="bold underline")
        hand = me.hand or []
        if not hand:
            t.append("  " + cat.t("ui.hand_empty") + "\n", style="dim")
        for card in sorted(hand, key=lambda c: (c not in _order, _order.get(c, 0), c)):
            t.append("  ")
            t.append_text(district_line(cat, card))
            t.append("\n")
        t.rstrip()
        return t


def _type_order() -> dict[str, int]:
    from engine.cards.districts import DISTRICTS, TYPES

    return {name: TYPES.index(d.type) * 100 + d.cost for name, d in DISTRICTS.items()}


_order = _type_order()
