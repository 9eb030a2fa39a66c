"""The leaderboard of one rule family at a time: place, player, rating, games, wins; your own row
under the top ones when you are not among them. ←/→ change the family; Enter on a player posts
`LeaderboardScreen.ProfileRequested` (the app answers with a `ProfileScreen`).

    app.push_screen(LeaderboardScreen(cat, {"2016": board, "classic": ..., "2000": ...}, family="2016"))
"""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.message import Message

from ..i18n import Catalogue
from ..players_data import LeaderboardData, LeaderRowData
from ..widgets.key_bar import KeyBar
from ..widgets.menu_list import Item, MenuList
from .players_common import PlayersScreen, family_title, next_family, rating_text

NAME_WIDTH = 22


class LeaderboardScreen(PlayersScreen):
    KEYS = "leaderboard_keys"

    class ProfileRequested(Message):
        def __init__(self, player_id: int) -> None:
            super().__init__()
            self.player_id = player_id

    def __init__(self, cat: Catalogue, boards: dict[str, LeaderboardData], family: str = "2016") -> None:
        super().__init__(cat, id="leaderboard")
        self.boards = boards
        self.family = family

    def compose(self):
        yield MenuList(id="players-menu")
        yield KeyBar(id="players-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(MenuList).focus()

    def ask_profile(self, player_id: int) -> None:
        self.post_message(self.ProfileRequested(player_id))

    def switch(self, delta: int) -> None:
        self.family = next_family(self.family, delta)
        self.refresh_page(keep=False)

    def _widths(self) -> tuple[int, int, int]:
        """The rating, games and wins columns: as wide as their (translated) headings."""
        return (
            max(7, len(self.P("col_rating"))),
            max(5, len(self.P("col_games"))),
            max(4, len(self.P("col_wins"))),
        )

    def _heading(self) -> str:
        r, g, w = self._widths()
        return (
            f"  {'#':>3}  {self.P('col_player'):<{NAME_WIDTH}} "
            f"{self.P('col_rating'):>{r}} {self.P('col_games'):>{g}} {self.P('col_wins'):>{w}}"
        )

    def _label(self, row: LeaderRowData) -> str:
        name = row.name
        if row.bot:
            name += " " + self.P("bot_mark")
        if row.you:
            name += " " + self.P("you_mark")
        if len(name) > NAME_WIDTH:
            name = name[: NAME_WIDTH - 1] + "…"
        r, g, w = self._widths()
        return f"{row.place:>3}  {name:<{NAME_WIDTH}} {rating_text(row.rating):>{r}} {row.games:>{g}} {row.wins:>{w}}"

    def refresh_page(self, keep: bool = True) -> None:
        super().refresh_page()
        board = self.boards.get(self.family) or LeaderboardData(family=self.family, rows=[], players=0)
        title = self.P("leaderboard_title", family=family_title(self.cat, self.family))
        header = [Text(title, style="bold reverse", end="")]
        left, right = partial(self.switch, -1), partial(self.switch, 1)
        if not board.rows:
            # One line to stand on, so that ←/→ still change the rules.
            empty = Item(self.P("leaderboard_empty"), style="italic", left=left, right=right)
            self.query_one(MenuList).set(header, [empty], keep=keep, numbered=False)
            return
        header.append(Text(self.P("leaderboard_count", players=board.players), style="dim", end=""))
        header.append(Text(self._heading(), style="bold", end=""))
        rows = list(board.rows)
        if board.you is not None and all(r.player_id != board.you.player_id for r in rows):
            rows.append(board.you)
        items = [
            Item(
                self._label(row),
                enter=partial(self.ask_profile, row.player_id),
                style="bold" if row.you else "",
                left=left,
                right=right,
            )
            for row in rows
        ]
        # Unnumbered: a number beside the place ("1   1  Bruno") would read as a second place.
        self.query_one(MenuList).set(header, items, keep=keep, numbered=False)
