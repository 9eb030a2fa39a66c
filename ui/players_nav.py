"""The players' screens opened from an app: a mixin for the app that has a `PlayersLink`.

`PlayersRequested` (the lobby's entries, the table menu's profiles), a leaderboard's
"profile of this player" and "my games"' "replay this game" each become an awaited
request (a worker: the app keeps drawing meanwhile) and then the screen, pushed over the
current one (Esc goes back). A refusal or an unavailable database is a notification.

    class MyApp(PlayersNavigation, App): players_link = ...
"""

from __future__ import annotations

from typing import Any

from engine.savefile import SaveError

from .players_link import PlayersError, PlayersLink, PlayersRequested
from .screens.account import AccountScreen
from .screens.leaderboard import LeaderboardScreen
from .screens.my_games import GamesScreen
from .screens.profile import ProfileScreen
from .screens.replay import ReplayOptions, ReplayScreen

NO_DATABASE = "This server keeps no players database: no profiles, ratings or past games here."


class PlayersNavigation:
    players_link: PlayersLink | None = None
    cat: Any
    options: Any

    def _players_open(self, make: Any) -> None:
        """Await `make(link)` (a coroutine giving a screen) in a worker, then push the screen."""
        link = self.players_link
        if link is None:
            self.notify(NO_DATABASE, severity="warning")  # type: ignore[attr-defined]
            return

        async def work() -> None:
            try:
                screen = await make(link)
            except PlayersError as e:
                self.notify(str(e), severity="error", timeout=8)  # type: ignore[attr-defined]
                return
            self.push_screen(screen)  # type: ignore[attr-defined]

        self.run_worker(work(), group="players", exclusive=True)  # type: ignore[attr-defined]

    def on_players_requested(self, msg: PlayersRequested) -> None:
        msg.stop()
        cat = self.cat
        what, seat = msg.what, msg.seat

        async def make(link: PlayersLink) -> Any:
            if what == "profile":
                return ProfileScreen(cat, await link.my_profile())
            if what == "seat" and seat is not None:
                return ProfileScreen(cat, await link.seat_profile(seat))
            if what == "leaderboard":
                return LeaderboardScreen(cat, await link.leaderboards())
            if what == "games":
                return GamesScreen(cat, await link.my_games())
            if what == "account":
                return AccountScreen(cat, link, await link.account())
            raise PlayersError(f"Unknown screen {what!r}.")

        self._players_open(make)

    def on_leaderboard_screen_profile_requested(self, msg: LeaderboardScreen.ProfileRequested) -> None:
        msg.stop()
        cat, player_id = self.cat, msg.player_id

        async def make(link: PlayersLink) -> Any:
            return ProfileScreen(cat, await link.profile(player_id))

        self._players_open(make)

    def on_games_screen_replay_requested(self, msg: GamesScreen.ReplayRequested) -> None:
        msg.stop()
        game_id, lang = msg.game_id, getattr(self.options, "lang", "en")

        async def make(link: PlayersLink) -> Any:
            save = await link.replay(game_id)  # a finished game: every point of view may be chosen
            try:
                return ReplayScreen(save, ReplayOptions(lang=lang, seat=None, position=0))
            except SaveError as e:
                raise PlayersError(f"Game {game_id} cannot be replayed: {e}") from None

        self._players_open(make)
