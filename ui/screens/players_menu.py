"""The entries that open the players' screens, for the lobby's main page and the table menu.

Each posts a `ui.players_link.PlayersRequested`; the app opens the screen (ui/players_nav.py).
Kept apart so that the lobby and the table menu each add them with one line.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..i18n import Catalogue
from ..players_link import PlayersRequested
from ..widgets.menu_list import Item


def _ask(post: Callable[[Any], Any], what: str, seat: int | None = None) -> None:
    post(PlayersRequested(what, seat))  # a new message each time: one is delivered once


def lobby_items(cat: Catalogue, accounts: str, post: Callable[[Any], Any]) -> list[Item]:
    """`accounts`: the snapshot's ("" no players database, "guest", "pending", "player")."""
    if not accounts:
        return []

    def P(key: str) -> str:
        return cat.t(f"players.{key}")

    board = Item(P("menu_leaderboard"), enter=lambda: post(PlayersRequested("leaderboard")))
    if accounts == "guest":
        return [board]
    return [
        Item(P("menu_profile"), enter=lambda: post(PlayersRequested("profile"))),
        board,
        Item(P("menu_games"), enter=lambda: post(PlayersRequested("games"))),
        Item(P("menu_account"), enter=lambda: post(PlayersRequested("account"))),
    ]


def table_items(cat: Catalogue, seats: list[tuple[int, str]], post: Callable[[Any], Any]) -> list[Item]:
    """ "Profile of NAME" for each (seat, name) whose profile may be opened."""
    return [
        Item(cat.t("players.menu_seat_profile", name=name), enter=partial(_ask, post, "seat", seat))
        for seat, name in seats
    ]
