"""Help, one key away: the card reference for this game's line-up, the keys,
and a short summary of the rules, in the edition of the rule set in play
(`view.rules`: names, ranks, costs and rule texts through `Catalogue.set_rules`).

The catalogue's texts are written with line breaks for the editor: prose is
reflowed here into paragraphs (a line break is kept only after the end of a
sentence or a colon, before a capital), which the screen wraps to its width;
the keys are a two-column grid whose descriptions wrap in their column."""

from __future__ import annotations

import itertools
import re
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.rules import RULESETS

from ..cards import character_label, district_token
from ..i18n import Catalogue

_SENTENCE_END = re.compile(r"[.:;!?)]$")


def reflow(text: str) -> str:
    """Prose written with line breaks, as paragraphs: lines joined with a space, except after the
    end of a sentence followed by a capital (a new item: "Characters: ..."); blank lines kept."""
    out = []
    for para in re.split(r"\n\s*\n", text.strip("\n")):
        lines = [ln.strip() for ln in para.split("\n") if ln.strip()]
        joined = lines[0] if lines else ""
        for prev, line in itertools.pairwise(lines):
            new_item = _SENTENCE_END.search(prev) and (line[:1].isupper() or not line[:1].isalnum())
            joined += ("\n" if new_item else " ") + line
        out.append(joined)
    return "\n\n".join(out)


def keys_grid(text: str) -> Table:
    """ "key   what it does" lines as a grid: the descriptions wrap in their own column."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for line in text.strip("\n").split("\n"):
        key, what = (re.split(r"\s{2,}", line.strip(), maxsplit=1) + [""])[:2]
        grid.add_row(key, what)
    return grid


def _parts(cat: Catalogue, view: Any | None) -> tuple[Text, str, Text]:
    """(cards, legend and the keys' title; the keys' lines; the rules with their title)."""
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
    legend = cat.t("help.legend", gold=cat.t("ui.gold_short", n=5), cards=cat.t("ui.cards_short", n=3))
    t.append(reflow(legend) + "\n\n")
    t.append(cat.t("help.keys_title"), style="bold underline")
    rules = Text("\n", end="")
    rules.append(cat.t("help.rules_title"), style="bold underline")
    rules.append("\n")
    complete = view.complete_at if view is not None else 7
    ruleset = RULESETS.get(view.rules if view is not None else "2016") or RULESETS["2016"]
    top = max((cat.rank(c) or 0 for c in view.lineup), default=9) if view is not None else 9
    body = cat.t("help.rules", complete=complete, top=top, tiebreak=cat.t(f"help.tiebreak_{ruleset.tiebreak}"))
    rules.append(reflow(body))
    return t, cat.t("help.keys"), rules


def help_text(cat: Catalogue, view: Any | None) -> Text:
    """The whole help as one text (the keys one per line)."""
    intro, keys, rules = _parts(cat, view)
    t = intro.copy()
    t.append("\n" + keys.strip("\n") + "\n")
    t.append_text(rules)
    return t


def help_page(cat: Catalogue, view: Any | None) -> Group:
    """The help as the screen shows it: prose wrapped to the window, the keys in a grid."""
    intro, keys, rules = _parts(cat, view)
    return Group(intro, keys_grid(keys), rules)


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
            yield Static(help_page(self.cat, self._view), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    async def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(result)
