"""The replay's right panel: the hand(s) the chosen point of view may see, and the scores at the end.

A seat's view: that seat's characters and hand (and the cards it is choosing
from). Everything: every player's characters and hand, the face-down discards,
the characters being passed, the cards being kept from. At the end of a
finished game the score table and the winner come first.
"""

from __future__ import annotations

from typing import Any

import msgspec
from rich.text import Text

from ..cards import character_label, district_token, pack
from ..i18n import Catalogue
from ..screens.scores import score_table, verdict
from .players import seat_order
from .text_panel import TextPanel, wrap

_enc = msgspec.msgpack.Encoder()


class ReplayHands(TextPanel):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._key: bytes | None = None
        self._data: tuple | None = None

    def show(self, view: Any, cat: Catalogue, seat: int, scores: bool) -> None:
        seats = range(len(view.players)) if view.everything else [seat]
        key = _enc.encode(
            (
                cat.lang,
                seat,
                scores,
                [view.players[s] for s in seats],
                view.facedown,
                view.pool,
                view.turn.drawn if view.turn else None,
                view.scores if scores else None,
            )
        )
        if key == self._key:
            return
        self._key = key
        self._data = (view, cat, seat, scores)
        self._offset = 0
        self.changed()

    @staticmethod
    def _scores(view: Any, cat: Catalogue, width: int, console) -> list[Text]:
        """The score table with its breakdown when it fits, else one line per player; then the winner."""
        out: list[Text] = []
        if width >= 18 + 7 * len(view.scores):
            options = console.options.update_width(width)
            for segs in console.render_lines(score_table(cat, view), options, pad=False):
                out.append(Text.assemble(*((s.text, s.style) for s in segs if not s.control), end=""))
        else:
            names = {p.seat: p.name for p in view.players}
            for sc in sorted(view.scores, key=lambda s: (-s.total, s.seat)):
                line = Text("★ " if sc.seat in view.winners else "  ", style="bold yellow", end="")
                line.append(f"{names.get(sc.seat, '?')} ", style="bold")
                line.append(cat.t("replay.points", n=sc.total))
                out.append(line)
        out += wrap(Text(verdict(cat, view), style="bold", end=""), width, console)
        out.append(Text("", end=""))
        return out

    def lines(self, width: int) -> list[Text]:
        if self._data is None:
            return []
        view, cat, seat, scores = self._data
        console = self.app.console
        out: list[Text] = []
        if scores and view.scores:
            out += self._scores(view, cat, width, console)
        order = seat_order(view) if view.everything else [seat]
        for s in order:
            p = view.players[s]
            head = Text(p.name, style="bold", end="")
            for ch in p.characters:
                head.append("  ")
                head.append_text(character_label(cat, ch))
                if ch is not None and ch not in p.revealed and view.phase != "over":
                    head.append(f" ({cat.t('ui.facedown')})", style="dim")
            out += wrap(head, width, console, indent=2)
            hand = p.hand or []
            if hand:
                out += pack([district_token(cat, c) for c in sorted(hand)], width, indent=2)
            else:
                out.append(Text("  " + cat.t("replay.no_cards"), style="dim", end=""))
        if view.turn is not None and view.turn.drawn:
            t = Text(cat.t("replay.drawn", name=view.players[view.turn.seat].name) + " ", style="italic", end="")
            out += wrap(t, width, console)
            out += pack([district_token(cat, c) for c in view.turn.drawn], width, indent=2)
        if view.pool:
            t = Text(cat.t("replay.pool") + " ", style="italic", end="")
            t.append(", ".join(cat.ranked(c) for c in view.pool))
            out += wrap(t, width, console, indent=2)
        if view.everything and view.facedown:
            t = Text(cat.t("replay.facedown") + " ", style="italic", end="")
            t.append(", ".join(cat.ranked(c) for c in view.facedown))
            out += wrap(t, width, console, indent=2)
        return out
