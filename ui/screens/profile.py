"""A player's profile: games, wins and average score; the favourite characters; the rating in each
rule family with its place and its recent course (a sparkline). Built from a `ProfileData`.

    app.push_screen(ProfileScreen(cat, profile_data))       # Esc goes back
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..i18n import Catalogue
from ..players_data import FAMILIES, ProfileData
from ..widgets.key_bar import KeyBar
from .players_common import PlayersScreen, family_short, rating_text, sparkline


def profile_renderable(cat: Catalogue, data: ProfileData) -> Group:
    P = lambda key, **kw: cat.t(f"players.{key}", **kw)
    parts: list = [Text(P("profile_title_you" if data.you else "profile_title", name=data.name), style="bold reverse")]
    if data.games:
        percent = round(100 * data.wins / data.games)
        parts.append(
            Text(P("summary", games=data.games, wins=data.wins, percent=percent, average=f"{data.average_score:.1f}"))
        )
    else:
        parts.append(Text(P("no_games"), style="italic"))
    if data.favourites:
        listed = ", ".join(P("favourite", character=cat.character(c), times=n) for c, n in data.favourites)
        parts.append(Text(P("favourites", list=listed)))
    if data.bot:
        parts.append(Text(P("bot_note"), style="dim italic"))
    parts += [Text(""), Text(P("ratings_title"), style="bold")]
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", expand=False)
    table.add_column(P("col_rules"))
    table.add_column(P("col_rating"), justify="right")
    table.add_column(P("col_place"), justify="right")
    table.add_column(P("col_games"), justify="right")
    table.add_column(P("col_wins"), justify="right")
    rated = {r.family: r for r in data.ratings}
    for family in FAMILIES:
        r = rated.get(family)
        if r is None:
            table.add_row(family_short(cat, family), "—", Text(P("not_rated"), style="dim"), "0", "0")
        else:
            table.add_row(
                family_short(cat, family),
                Text(rating_text(r.rating), style="bold"),
                P("place_of", place=r.place, of=r.of),
                str(r.games),
                str(r.wins),
            )
    parts.append(table)
    trends = [r for f in FAMILIES if (r := rated.get(f)) is not None and len(r.history) > 1]
    if trends:
        parts.append(Text(""))
        width = max(len(family_short(cat, r.family)) for r in trends)
        for r in trends:
            line = Text(f"{family_short(cat, r.family):<{width}}  ", style="dim")
            line.append(sparkline(r.history), style="bold")
            first, last = rating_text(r.history[0]), rating_text(r.history[-1])
            line.append("  " + P("trend", n=len(r.history), first=first, last=last), style="dim")
            parts.append(line)
    return Group(*parts)


class ProfileScreen(PlayersScreen):
    KEYS = "profile_keys"

    def __init__(self, cat: Catalogue, data: ProfileData) -> None:
        super().__init__(cat, id="profile")
        self.data = data

    def compose(self):
        with VerticalScroll(id="players-scroll"):
            yield Static(id="profile-text")
        yield KeyBar(id="players-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#players-scroll").focus()

    def refresh_page(self) -> None:
        super().refresh_page()
        self.query_one("#profile-text", Static).update(profile_renderable(self.cat, self.data))
