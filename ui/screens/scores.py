"""The end of the game: each player's score with its breakdown, the winner,
and how a tie was broken."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..i18n import Catalogue


def verdict(cat: Catalogue, view: Any) -> str:
    """The winner sentence, with the tie-break explained when it decided."""
    scores = view.scores or []
    if not scores:
        return ""
    names = {p.seat: p.name for p in view.players}
    top = max(s.total for s in scores)
    tied = [s.seat for s in scores if s.total == top]
    winners = list(view.winners)
    if len(tied) > 1:
        tied_names = cat.names([names[s] for s in tied])
        if len(winners) == 1:
            w = next(s for s in scores if s.seat == winners[0])
            rank_char = next((c for c in view.lineup if (cat.rank(c) or 0) == w.tiebreak), None)
            rank = cat.ranked(rank_char) if rank_char else str(w.tiebreak)
            return cat.t("score.tie_explained", names=tied_names, points=top, winner=names[winners[0]], rank=rank)
        return cat.t("score.tie_shared", names=tied_names, points=top)
    if len(winners) > 1:
        return cat.t("score.winners", names=cat.names([names[s] for s in winners]))
    return cat.t("score.winner", names=names.get(winners[0], "?") if winners else "?")


def score_table(cat: Catalogue, view: Any) -> Table:
    scores = sorted(view.scores or [], key=lambda s: (-s.total, s.seat))
    names = {p.seat: p.name for p in view.players}
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", expand=False)
    table.add_column("")
    for s in scores:
        mark = "★ " if s.seat in view.winners else ""
        table.add_column(mark + names.get(s.seat, "?"), justify="right")
    rows = [
        ("districts", "districts"),
        ("all_types", "all_types"),
        ("first_complete", "first_complete"),
        ("complete", "complete"),
    ]
    for field, key in rows:
        table.add_row(cat.t(f"score.{key}"), *[str(getattr(s, field)) for s in scores])
    bonus_names = list(dict.fromkeys(n for s in scores for n in s.bonuses))
    for b in bonus_names:
        table.add_row(cat.t("score.bonus", name=cat.card(b)), *[str(s.bonuses.get(b, 0)) for s in scores])
    table.add_row(Text(cat.t("score.total"), style="bold"), *[Text(str(s.total), style="bold") for s in scores])
    table.add_row(
        Text(cat.t("score.tiebreak"), style="dim"),
        *[Text(str(s.tiebreak) if s.tiebreak >= 0 else "—", style="dim") for s in scores],
    )
    return table


def scores_renderable(cat: Catalogue, view: Any) -> Group:
    parts: list[Any] = [
        Text(cat.t("score.title"), style="bold reverse"),
        Text(""),
        score_table(cat, view),
        Text(""),
        Text(verdict(cat, view), style="bold"),
    ]
    choices = [
        f"{view.players[s.seat].name}: " + ", ".join(f"{cat.card(k)} → {cat.kind(v)}" for k, v in s.choices.items())
        for s in (view.scores or [])
        if s.choices
    ]
    if choices:
        parts.append(Text(cat.t("score.choices", choices="; ".join(choices)), style="dim"))
    parts += [Text(""), Text(cat.t("score.close"), style="dim")]
    return Group(*parts)


class ScoresScreen(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss", show=False), Binding("f3", "dismiss", show=False)]

    def __init__(self, cat: Catalogue, view: Any) -> None:
        super().__init__(id="scores")
        self.cat = cat
        self._view = view

    def compose(self):
        with VerticalScroll(id="scores-scroll"):
            yield Static(scores_renderable(self.cat, self._view), id="scores-text")

    def on_mount(self) -> None:
        self.query_one("#scores-scroll").focus()

    async def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(result)
