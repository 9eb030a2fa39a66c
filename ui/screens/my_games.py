""" "My games": a player's finished games, newest first, each with its date, rules, your place and
score and whether it was rated. Enter posts `GamesScreen.ReplayRequested` with the game's id (the
app opens the replay).

    app.push_screen(GamesScreen(cat, games_data))
"""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.message import Message

from ..i18n import Catalogue
from ..players_data import GameRowData, GamesData
from ..widgets.key_bar import KeyBar
from ..widgets.menu_list import Item, MenuList
from .players_common import PlayersScreen, family_short


class GamesScreen(PlayersScreen):
    KEYS = "games_keys"

    class ReplayRequested(Message):
        def __init__(self, game_id: int) -> None:
            super().__init__()
            self.game_id = game_id

    def __init__(self, cat: Catalogue, data: GamesData) -> None:
        super().__init__(cat, id="my-games")
        self.data = data

    def compose(self):
        yield MenuList(id="players-menu")
        yield KeyBar(id="players-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(MenuList).focus()

    def ask_replay(self, game_id: int) -> None:
        self.post_message(self.ReplayRequested(game_id))

    def row_text(self, row: GameRowData) -> str:
        mine = row.yours
        if mine is None:
            result = "—"
        elif mine.winner:
            result = self.P("games_won", score=mine.score)
        else:
            result = self.P("games_result", place=mine.place, players=len(row.seats), score=mine.score)
        text = self.P(
            "games_row",
            id=row.game_id,
            date=f"{row.finished_at:%Y-%m-%d}",
            family=family_short(self.cat, row.family),
            result=result,
            rated=self.P("rated" if row.rated else "unrated"),
        )
        others = [("★" if s.winner else "") + s.name for s in row.seats if not s.you]
        return text + " · " + ", ".join(others) if others else text

    def refresh_page(self) -> None:
        super().refresh_page()
        header = [Text(self.P("games_title"), style="bold reverse", end="")]
        if not self.data.rows:
            header.append(Text(self.P("games_empty"), style="italic", end=""))
        elif self.data.more:
            header.append(Text(self.P("games_more", n=len(self.data.rows)), style="dim", end=""))
        items = [Item(self.row_text(row), enter=partial(self.ask_replay, row.game_id)) for row in self.data.rows]
        self.query_one(MenuList).set(header, items)
