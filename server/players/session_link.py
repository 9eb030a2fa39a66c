"""`SessionPlayers`: one session's `ui.players_link.PlayersLink`, on the server's players database.

What a session may see: its own profile, games and account (name, keys); the leaderboards;
the profile of any player by id (leaderboards link to them) or of whoever sits at its table
(the table menu); a past game by id as a replay. All of it is finished games' data (a
profile, a history and a replay are built from recorded games only: nothing of a game in
progress, no one's keys but your own). Each call awaits the database off the event loop
and raises `PlayersError` with one line when it refuses or is away.

The session is a `server.app.PlayerSession` (`key`, `guest`, `player_id`, `table`, `info`);
the lobby (`same`, `known`, `players`) keeps who is who.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from engine.savefile import Save, SaveError
from ui.players_data import FAMILIES, GamesData, LeaderboardData, ProfileData
from ui.players_link import AccountData, KeyData, PlayersError

from .accounts import AccountError
from .outbox import is_outage
from .screens_data import games_data, leaderboard_data, profile_data
from .service import UNAVAILABLE, PlayersService, PlayersUnavailable

log = logging.getLogger("citadels.server.players.session_link")

GAMES_SHOWN = 50
NO_ACCOUNT = "Guests have no account: connect with an SSH key to keep a profile, a name and your games."
PENDING = "Your account is being looked up (the players database is slow): try again in a moment."


class SessionPlayers:
    def __init__(self, session: Any, lobby: Any, service: PlayersService) -> None:
        self.session = session
        self.lobby = lobby
        self.service = service

    @property
    def db(self) -> Any:
        return self.service.db

    def _me(self) -> int:
        if self.session.guest:
            raise PlayersError(NO_ACCOUNT)
        pid = getattr(self.session, "player_id", None)
        if pid is None:
            raise PlayersError(PENDING)
        return pid

    def _you(self) -> int | None:
        return None if self.session.guest else getattr(self.session, "player_id", None)

    async def _ask(self, call: Any) -> Any:
        """Await a database call; its refusals and outages become one line for the player."""
        try:
            return await call
        except AccountError as e:
            raise PlayersError(_sentence(str(e))) from None
        except SaveError as e:
            raise PlayersError(_sentence(str(e))) from None
        except PlayersUnavailable as e:
            raise PlayersError(str(e)) from None
        except Exception as e:
            if not is_outage(e):  # not the database being away: a fault to look into
                log.exception("players screen request failed")
            raise PlayersError(UNAVAILABLE) from None

    # --- profiles, leaderboards, games ---------------------------------------------------------------
    async def my_profile(self) -> ProfileData:
        data = await self.profile(self._me())
        if data.name == f"#{data.player_id}":  # no name claimed: the one you play under, not "#2"
            data = dataclasses.replace(data, name=self.session.name)
        return data

    async def profile(self, player_id: int) -> ProfileData:
        found = await self._ask(self.db.profile(player_id))
        if found is None:
            raise PlayersError("No such player.")
        return profile_data(found, self._you())

    async def seat_profile(self, seat: int) -> ProfileData:
        t = self.session.table
        if t is None or not 0 <= seat < len(t.seats):
            raise PlayersError("Nobody sits there.")
        s = t.seats[seat]
        if s.bot is not None:
            bot = await self._ask(self.db.find_player(s.bot))
            if bot is None or bot.kind != "bot":
                if self.service.policy.rate_bots:
                    raise PlayersError(f"Bots of level {s.bot} have no rated game here yet.")
                raise PlayersError(f"Bots of level {s.bot} are not rated on this server.")
            return await self.profile(bot.id)
        if s.guest or s.key is None:
            raise PlayersError(f"{s.name} plays as a guest: guests have no profile.")
        pid = self.service.directory.player_of(s.key)
        if pid is None:  # a key this server has not seen (on a cluster: a player connected to another node)
            pid = await self._ask(self.db.key_owner(s.key))
        if pid is None:
            raise PlayersError(f"{s.name}'s account is not known yet: try again in a moment.")
        return await self.profile(pid)

    async def leaderboards(self) -> dict[str, LeaderboardData]:
        you = self._you()
        boards = {}
        for family in FAMILIES:
            board = await self._ask(self.db.leaderboard(family, 20, you))
            boards[family] = leaderboard_data(board, you)
        return boards

    async def my_games(self) -> GamesData:
        games = await self._ask(self.db.games(self._me(), GAMES_SHOWN, 0))
        return games_data(games, GAMES_SHOWN)

    async def replay(self, game_id: int) -> Save:
        save = await self._ask(self.db.export_save(game_id))
        if save is None:
            raise PlayersError(f"No game #{game_id}.")
        return save

    # --- your account ---------------------------------------------------------------------------------
    async def account(self) -> AccountData:
        pid = self._me()
        keys = await self._ask(self.service.keys_of(pid))
        name = self.service.directory.name_of(pid)
        return AccountData(
            player_id=pid,
            name=name or self.session.name,
            claimed=name is not None,
            keys=[
                KeyData(
                    fingerprint=k.fingerprint,
                    label=k.label,
                    added_at=k.added_at,
                    last_used_at=k.last_used_at,
                    this=k.fingerprint == self.session.key,
                )
                for k in keys
            ],
        )

    async def claim_name(self, name: str) -> str:
        from server.lobby.errors import LobbyError

        pid = self._me()
        try:
            self.lobby.check_name_free(self.session, name)
        except LobbyError as e:
            raise PlayersError(str(e)) from None
        return await self._ask(self.lobby.claim(self.session, pid, name))

    async def new_key_code(self) -> str:
        return await self._ask(self.service.new_key_code(self._me()))

    async def add_key(self, code: str) -> str:
        if self.session.guest:
            raise PlayersError(NO_ACCOUNT)
        label = (self.session.info.username or "")[:64] or None
        player = await self._ask(self.service.add_key_with_code(code, self.session.key, label))
        self.lobby.key_moved(self.session, player)
        who = player.name or f"#{player.id}"
        return f"This key now belongs to {who}: your seats, saved games and ratings are here too."

    async def remove_key(self, fingerprint: str) -> None:
        pid = self._me()
        if fingerprint == self.session.key:
            raise PlayersError("You are connected with this key: remove it from a session of another key.")
        await self._ask(self.service.remove_key(pid, fingerprint))
        self.lobby.key_removed(fingerprint)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
