"""The end of the game: each player's score with its breakdown, the winner,
how a tie was broken, and where to go next: play again with the same seats,
watch the replay, back to the lobby (the choices the app offers, chosen by
number, arrows and Enter, or a click; Esc goes back to the table, F3 comes
back here)."""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..i18n import Catalogue
from ..widgets.menu_list import Item, MenuList


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


def _choice_name(cat: Catalogue, key: str) -> str:
    """What an end-of-game choice is about: "type:Haunted Quarter" is the Haunted Quarter's type."""
    _, _, card = key.rpartition(":")
    return cat.card(card)


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
        f"{view.players[s.seat].name}: "
        + ", ".join(f"{_choice_name(cat, k)} → {cat.value(v)}" for k, v in s.choices.items())
        for s in (view.scores or [])
        if s.choices
    ]
    if choices:
        parts.append(Text(cat.t("score.choices", choices="; ".join(choices)), style="dim"))
    return Group(*parts)


class ScoresScreen(ModalScreen):
    """The scores over the table. `choices`: (key, label) of where to go next; the screen is
    dismissed with the key chosen (None: Esc, back to the table)."""

    BINDINGS = [Binding("escape", "dismiss", show=False), Binding("f3", "dismiss", show=False)]

    def __init__(self, cat: Catalogue, view: Any, choices: list[tuple[str, str]] | None = None) -> None:
        super().__init__(id="scores")
        self.cat = cat
        self._view = view
        self.choices = list(choices or [])

    def compose(self):
        with Vertical(id="scores-box"):
            with VerticalScroll(id="scores-scroll"):
                yield Static(scores_renderable(self.cat, self._view), id="scores-text")
            yield MenuList(id="scores-menu")
            yield Static(self.cat.t("score.close"), id="scores-close")

    def on_mount(self) -> None:
        menu = self.query_one(MenuList)
        menu.set([], [Item(label, enter=partial(self.dismiss, key)) for key, label in self.choices])
        menu.styles.height = len(self.choices)
        menu.display = bool(self.choices)
        (menu if self.choices else self.query_one("#scores-scroll")).focus()
        self._fit(self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The score table scrolls in what the frame, the choices and the key line leave."""
        menu_rows = len(self.choices) + 1 if self.choices else 0
        self.query_one("#scores-scroll").styles.max_height = max(height - 2 - menu_rows - 1, 3)

    async def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(result)
