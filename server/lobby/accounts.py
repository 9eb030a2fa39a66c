"""Players who last, in the lobby: a key's player found at login, names claimed, seats and saves by player.

- **Identity**: a seat, a table's creator and a save's owners name the SSH key that sat there
  (saves stay readable without the database); `same(a, b)` asks whether two keys are one
  player's (`PlayerDirectory.identity`), so a player's second key finds the seats, tables and
  saves of the first. Old saves, whose owners are keys, work the same way.
- **Login never waits on the database**: `account_arrives` takes the key's player and name from
  memory at once (nothing is known of a brand-new key, or while the database is away: the
  session goes on under its key and the SSH user name); `_catch_up` then asks the database (off
  the loop, retried while it is away) and puts right what memory did not know: the player, their
  name, a seat held by their other key.
- **Names**: a name claimed by a player is theirs alone (case-insensitively); anybody else
  asking for it is refused, and an unclaimed name that is another player's is shown with a
  piece of the key's fingerprint ("ana-Xq3f"). The lobby's rename claims the name for a player
  with an account: it is used once the database confirms it (a refusal comes back as a notice).

Without a players database (`players` None: `accounts = false`, or a test's lobby) keys are
identities as before and nothing here changes anything.

A mixin of `server.lobby.lobby.Lobby` (which provides `players`, `sessions`, `tables`,
`names`, `seat_of`, `loaded_game`, `creator_back`, `snapshot`, `_unique_name` and `_changed`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from typing import Any

from engine.text import MAX_NAME
from server.lobby.errors import LobbyError
from server.logging_setup import log_event
from ui.lobby_link import LobbyUpdate

log = logging.getLogger("citadels.server.lobby.accounts")

MAX_LABEL = 64


def key_tag(fingerprint: str, n: int = 4) -> str:
    """A few letters of a key's fingerprint, to tell apart two people showing one name."""
    body = fingerprint.split(":", 1)[-1]
    return "".join(ch for ch in body if ch.isalnum())[:n] or "key"


class Accounts:
    players: Any  # server.players.service.PlayersService | None
    sessions: set[Any]
    names: dict[str, str]
    _account_tasks: set[asyncio.Task]

    # --- identity --------------------------------------------------------------------------------
    def identity(self, key: str | None) -> str | None:
        """What ownership compares: the key's player when known, else the key itself."""
        if self.players is None or key is None:
            return key
        return self.players.directory.identity(key)

    def same(self, a: str | None, b: str | None) -> bool:
        """Two keys (or identities) of one player."""
        if a is None or b is None:
            return False
        return a == b or (self.players is not None and self.identity(a) == self.identity(b))

    def account_line(self, session: Any) -> str:
        """Who the lobby says you are, besides your name."""
        if session.guest:
            return "guest"
        key = f"key {session.key[:20]}…"
        if self.players is None:
            return key
        pid = getattr(session, "player_id", None)
        if pid is None:
            return f"{key} · account not known yet"
        claimed = self.players.directory.name_of(pid) is not None
        return f"player #{pid}" + ("" if claimed else ", name not claimed")

    def accounts_state(self, session: Any) -> str:
        """For the lobby screen: "" (no players database), "guest", "pending" or "player"."""
        if self.players is None:
            return ""
        if session.guest:
            return "guest"
        return "pending" if getattr(session, "player_id", None) is None else "player"

    def wire_table(self, table: Any) -> None:
        """A new table finds seats by player and hands its finished game to the players database."""
        if self.players is None:
            return
        table.accounts.identity = self.identity
        table.accounts.player_of = self.players.directory.player_of
        table.accounts.recorder = self.players.record

    def profile_seats(self, t: Any, own: int | None) -> list[tuple[int, str]]:
        """The seats of table `t` whose profile the table menu offers: people with a key, and bot levels
        when bots are rated (not your own seat: the lobby has "My profile")."""
        if self.players is None:
            return []
        rated_bots = self.players.policy.rate_bots
        return [
            (i, s.name)
            for i, s in enumerate(t.seats)
            if i != own
            and ((s.bot is None and s.key is not None and not s.guest) or (s.bot is not None and rated_bots))
        ]

    # --- names -----------------------------------------------------------------------------------
    def shown_name(self, session: Any, wanted: str) -> str:
        """`wanted` unless another player claimed it: then it carries a piece of this key's fingerprint."""
        if self.players is None:
            return wanted
        owner = self.players.directory.owner_of_name(wanted)
        if owner is None or owner == getattr(session, "player_id", None):
            return wanted
        tag = key_tag(session.key) if not session.guest else "guest"
        return f"{wanted[: MAX_NAME - len(tag) - 1]}-{tag}"

    def check_name_free(self, session: Any, name: str) -> None:
        if self.players is None:
            return
        owner = self.players.directory.owner_of_name(name)
        if owner is not None and owner != getattr(session, "player_id", None):
            raise LobbyError(f"The name {name!r} is another player's.", "name_taken")

    def claims_names(self, session: Any) -> bool:
        """A rename of this session is a claim in the players database."""
        return self.players is not None and not session.guest

    def claim_later(self, session: Any, name: str) -> None:
        """Claim `name` for the session's player; it is used once the database says it is theirs."""
        pid = getattr(session, "player_id", None)
        if pid is None:
            raise LobbyError(
                "Your account is not known yet (the players database is slow): try again in a moment.",
                "account_pending",
            )
        self._spawn(self._claim_and_tell(session, pid, name))

    async def claim(self, session: Any, pid: int, name: str) -> str:
        """Claim `name` for player `pid` (AccountError, PlayersUnavailable); every session of theirs
        not seated in a game takes it."""
        shown = await self.players.claim_name(pid, name)
        log_event(log, logging.INFO, "name claimed", player=pid, session=_sid(session))
        for s in list(self.sessions):
            if getattr(s, "player_id", None) == pid and not self.name_fixed(s):
                self.apply_name(s, shown)
        return shown

    async def _claim_and_tell(self, session: Any, pid: int, name: str) -> None:
        from server.players.accounts import AccountError
        from server.players.service import PlayersUnavailable

        try:
            shown = await self.claim(session, pid, name)
        except (AccountError, PlayersUnavailable) as e:
            self._notice(session, str(e)[:1].upper() + str(e)[1:])
            return
        self._notice(session, f"The name {shown} is yours.")

    def apply_name(self, session: Any, name: str) -> None:
        """Use `name` for the session (and its seat in a room, unless a saved game keeps its names)."""
        session.name = name
        if not session.guest:
            self.names[session.key] = name
        t = session.table
        if t is not None and t.phase == "waiting" and session.seat is not None and self.loaded_game(t) is None:  # type: ignore[attr-defined]
            t.seats[session.seat].name = self._unique_name(t, name, session.seat)  # type: ignore[attr-defined]
        self._changed()  # type: ignore[attr-defined]

    # --- login -----------------------------------------------------------------------------------
    def account_arrives(self, session: Any) -> None:
        """At connection: the key's player and name from memory (no query), then the database's word."""
        if self.players is None or session.guest:
            return
        pid, claimed = self.players.identify(session.key)
        session.player_id = pid
        session.name = claimed or self.shown_name(session, session.name)
        self._spawn(self._catch_up(session))

    async def _catch_up(self, session: Any) -> None:
        info = getattr(session, "info", None)
        label = (getattr(info, "username", None) or "")[:MAX_LABEL] or None
        player = await self.players.login(session.key, label, wanted=lambda: session in self.sessions)
        if player is None or session not in self.sessions:
            return
        self.known(session, player)

    def known(self, session: Any, player: Any) -> None:
        """The database has said who the session's key belongs to: put right what memory did not know."""
        was = getattr(session, "player_id", None)
        session.player_id = player.id
        name = player.name or self.shown_name(session, session.name)
        if name != session.name and not self.name_fixed(session):
            self.apply_name(session, name)
        if was != player.id:
            log_event(log, logging.INFO, "account known", session=_sid(session), player=player.id)
            self.back_to_seat(session)
        self._changed()  # type: ignore[attr-defined]
        if session.table is None or not session.at_table:
            session.post(LobbyUpdate(self.snapshot(session)))  # type: ignore[attr-defined]

    def name_fixed(self, session: Any) -> bool:
        """A seated player keeps the name the game knows them by."""
        t = session.table
        return t is not None and session.seat is not None and (t.phase != "waiting" or self.loaded_game(t) is not None)  # type: ignore[attr-defined]

    def back_to_seat(self, session: Any) -> None:
        """A session with no table goes to the seat its player holds (any of their keys), if any."""
        if session.table is not None:
            return
        table, seat = self.seat_of(session.key)  # type: ignore[attr-defined]
        if table is None:
            return
        session.table, session.seat = table, seat
        if table.phase == "playing":
            session.enter_table(table, seat)
        elif self.same(table.meta.creator, session.key):
            self.creator_back(table)  # type: ignore[attr-defined]

    # --- keys ------------------------------------------------------------------------------------
    def key_moved(self, session: Any, player: Any) -> None:
        """The session's key now belongs to `player` (added with a code from their other session)."""
        self.known(session, player)

    def key_removed(self, fingerprint: str) -> None:
        """A key was removed from its account: its sessions no longer speak for that player."""
        for s in list(self.sessions):
            if not s.guest and s.key == fingerprint:
                log_event(log, logging.INFO, "session of a removed key closed", session=_sid(s))
                s.info.close("This key was removed from its account: connect again to play with it as a new player.")

    # --- helpers ---------------------------------------------------------------------------------
    def _notice(self, session: Any, text: str) -> None:
        """A line on the lobby screen (claims start there; at a table it waits for the player's return)."""
        if session in self.sessions:
            session.post(LobbyUpdate(self.snapshot(session), notice=text))  # type: ignore[attr-defined]

    def _spawn(self, coro: Any) -> None:
        loop = asyncio.get_running_loop()
        task = loop.create_task(coro, context=contextvars.Context())
        self._account_tasks.add(task)
        task.add_done_callback(self._account_tasks.discard)

    async def close_accounts(self) -> None:
        for task in list(self._account_tasks):
            task.cancel()
        if self._account_tasks:
            await asyncio.gather(*self._account_tasks, return_exceptions=True)


def _sid(session: Any) -> str | None:
    info = getattr(session, "info", None)
    return getattr(info, "session_id", None)
