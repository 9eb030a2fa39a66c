"""Help, one key away: the card reference for this game's line-up, the keys,
and a short summary of the rules, in the edition of the rule set in play
(`view.rules`: names, ranks, costs and rule texts through `Catalogue.set_rules`)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.rules import RULESETS

from ..cards import character_label, district_token
from ..i18n import Catalogue


def help_text(cat: Catalogue, view: Any | None) -> Text:
    if view is not None:
        cat.set_rules(view.rules)  # already so in the app; a replay's or a test's view too
    t = Text(end="")
    t.append(cat.t("help.title") + "  ", style="bold reverse")
    t.append("  " + cat.t("help.close") + "\n\n", style="dim")
    if view is not None:
        t.append(cat.t("help.characters_title") + "\n", style="bold underline")
        for ch in view.lineup:
            t.append_text(character_label(cat, ch))
            t.append("  " + cat.character_text(ch) + "\n")
        t.append("\n" + cat.t("help.districts_title") + "\n", style="bold underline")
        for d in sorted(view.uniques, key=cat.district):
            t.append_text(district_token(cat, d))
            t.append("  " + (cat.district_text(d) or cat.t("help.no_text")) + "\n")
        t.append("\n")
    t.append(cat.t("help.legend_title") + "\n", style="bold underline")
    t.append(cat.t("help.legend", gold=cat.t("ui.gold_short", n=5), cards=cat.t("ui.cards_short", n=3)) + "\n\n")
    t.append(cat.t("help.keys_title") + "\n", style="bold underline")
    t.append(cat.t("help.keys") + "\n\n")
    t.append(cat.t("help.rules_title") + "\n", style="bold underline")
    complete = view.complete_at if view is not None else 7
    rules = RULESETS.get(view.rules if view is not None else "2016") or RULESETS["2016"]
    top = max((cat.rank(c) or 0 for c in view.lineup), default=9) if view is not None else 9
    t.append(cat.t("help.rules", complete=complete, top=top, tiebreak=cat.t(f"help.tiebreak_{rules.tiebreak}")))
    return t


class HelpScreen(ModalScreen):
    BINDINGS = [
        Binding("escape", "dismiss", show=False),
        Binding("f1", "dismiss", show=False),
        Binding("question_mark", "dismiss", show=False),
    ]

    def __init__(self, cat: Catalogue, view: Any | None) -> None:
        super().__init__(id="help")
        self.cat = cat
        self._view = view

    def compose(self):
        with VerticalScroll(id="help-scroll"):
            yield Static(help_text(self.cat, self._view), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    async def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(result)
