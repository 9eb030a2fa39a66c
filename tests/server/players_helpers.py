"""Helpers for the players-database server tests (tests/server/test_players_*.py).

A game server in the test's event loop with its players database (SQLite in the test's
folder, or any URL), real asyncssh clients with keys of their own, and key presses that
choose a menu entry by its label: the test reads the entry's number from the app's menu (the
server runs in the test's loop, as game_helpers' prompt checks do) and presses that digit
over SSH.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

import asyncssh
from game_helpers import DOWN, ENTER, HOME, GameServer, Screen, machine_speed_config, wait_until
from textual.widgets import Input

from server.app import make_app_factory
from server.lobby.lobby import Lobby
from server.players.service import PlayersService
from server.storage.persistence import SaveStore
from server.transport.ssh import start_server
from ui.prompt_keys import DIGITS
from ui.widgets.menu_list import MenuList

CODE = re.compile(r"Code: ([A-Z0-9]{4}-[A-Z0-9]{4})")


@dataclass
class PlayersServer(GameServer):
    players: PlayersService | None = None

    async def close(self) -> None:
        await super().close()
        if self.players is not None:
            await self.players.close()

    def session_of(self, key: asyncssh.SSHKey) -> Any:
        return self.session(fingerprint(key))

    def db(self) -> Any:
        assert self.players is not None
        return self.players.store


async def start_players_server(tmp_path, **overrides: Any) -> PlayersServer:
    config = machine_speed_config(tmp_path, **overrides)
    store = SaveStore(config.saves_dir)
    store.lock()
    players = PlayersService.open(config, outbox_retry=(0.05, 0.3))
    await players.start()
    lobby = Lobby(config, store, players=players)
    lobby.resume_saved()
    server = await start_server(config, make_app_factory(lobby))
    return PlayersServer(server, lobby, store, config, players)


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def menu_of(app: Any) -> MenuList | None:
    if app is None:
        return None
    try:
        return app.screen.query_one(MenuList)
    except Exception:
        return None


def item_index(app: Any, label: str) -> int | None:
    menu = menu_of(app)
    if menu is None:
        return None
    return next((i for i, item in enumerate(menu.items) if item.label.startswith(label)), None)


async def press(gs: PlayersServer, key: asyncssh.SSHKey, screen: Screen, label: str, timeout: float = 10.0) -> None:
    """Choose the entry of the session's current menu whose label starts with `label`, by its number."""
    fp = fingerprint(key)
    await until(screen, lambda: item_index(gs.app_of(fp), label) is not None, f"menu entry {label!r}", timeout)
    i = item_index(gs.app_of(fp), label)
    assert i is not None
    menu = menu_of(gs.app_of(fp))
    screen.mark()
    if getattr(menu, "form", False):  # a form: a number moves to its row, Enter does it
        screen.send(HOME + DOWN * i)
        # The menu on screen now (a screen change may have replaced the one seen above).
        await until(
            screen, lambda: getattr(menu_of(gs.app_of(fp)), "highlighted", None) == i, f"the row {label!r}", timeout
        )
        screen.send(ENTER)
    else:
        screen.send(DIGITS[i] if i < len(DIGITS) else HOME + DOWN * i + ENTER)


def typing(app: Any) -> bool:
    """The app's screen shows its text field, focused."""
    try:
        field = app.screen.query_one(Input)
    except Exception:
        return False
    return bool(field.display) and app.screen.focused is field


async def until(screen: Screen, predicate: Any, what: str, timeout: float = 10.0) -> None:
    """Wait for `predicate`, reading the session's output meanwhile (a client that does not read
    stalls its session)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{what} not reached within {timeout}s")
        await screen.pump(0.02)


async def type_line(gs: PlayersServer, key: asyncssh.SSHKey, screen: Screen, text: str) -> None:
    """Type into the text field a menu entry opened (once it is there), then Enter."""
    await until(screen, lambda: typing(gs.app_of(fingerprint(key))), "the text field")
    field = gs.app_of(fingerprint(key)).screen.query_one(Input)
    if field.value:
        screen.send(HOME + b"\x0b")  # to the start, Ctrl+K: clear what it holds
        await until(screen, lambda: field.value == "", "the field emptied")
        await screen.pump(0.1)  # apart from the text: a burst with Ctrl+K in it would be read as a paste
    screen.send(text.encode())
    try:
        await until(screen, lambda: field.value == text, "typed text")
    except AssertionError:
        raise AssertionError(f"typed {text!r}; the field holds {field.value!r}") from None
    screen.send(ENTER)
    await until(screen, lambda: not field.display, "the text field closed")


async def lobby(open_terminal, gs: PlayersServer, key: asyncssh.SSHKey, user: str, size=(100, 30)) -> Screen:
    """A key's session, arrived in the lobby."""
    screen = Screen(await open_terminal(gs.server, username=user, key=key, size=size))
    await screen.wait_for("Citadels · lobby")
    return screen


async def player_known(gs: PlayersServer, key: asyncssh.SSHKey) -> int:
    """Wait until the session of `key` knows its player; its id."""
    await wait_until(lambda: getattr(gs.session_of(key), "player_id", None) is not None, what="the account")
    return gs.session_of(key).player_id
