"""The replay's own two lines on top: where we are (move, round, what happened) and whose view is shown."""

from __future__ import annotations

from rich.text import Text

from ..i18n import Catalogue
from .line_widget import LineWidget


class ReplayBar(LineWidget):
    """Line 1: "Replay · move 57/312 · round 4 · Ana (Warlord) destroys Ben's Market for 1 gold."
    Line 2: the points of view (number keys), the chosen one highlighted."""

    _data: tuple | None = None

    def show(
        self,
        cat: Catalogue,
        position: int,
        total: int,
        round_: int,
        headline: str,
        names: list[str],
        seats: list[int],
        seat: int,
        everything: bool,
        finished: bool,
    ) -> None:
        data = (cat.lang, position, total, round_, headline, tuple(names), tuple(seats), seat, everything, finished)
        if data == self._data:
            return
        self._data = data
        self._cat = cat
        self.invalidate()

    def build(self, width: int, height: int) -> list[Text]:
        if self._data is None:
            return []
        _lang, position, total, round_, headline, names, seats, seat, everything, finished = self._data
        cat = self._cat
        top = Text(no_wrap=True, overflow="ellipsis", end="")
        top.append(f" {cat.t('replay.title')} ", style="bold reverse")
        top.append(" " + cat.t("replay.move", n=position, of=total), style="bold")
        top.append(" · " + cat.t("ui.round", n=round_))
        if position == total:
            top.append(" · " + cat.t("replay.end" if finished else "replay.end_unfinished"), style="bold")
        top.append(" · " + headline)
        top.truncate(width, overflow="ellipsis")
        low = Text(no_wrap=True, overflow="ellipsis", end="")
        low.append(" " + cat.t("replay.view") + " ", style="dim")
        for s in seats:
            label = f" {s + 1} {names[s]} "
            low.append(label, style="bold reverse" if s == seat else "")
        if everything:
            low.append(f" 0 {cat.t('replay.everything')} ", style="bold reverse" if seat < 0 else "")
        low.truncate(width, overflow="ellipsis")
        return [top, low]
