"""The account screen (ui/screens/account.py): your name, a one-time code to add a key, typing a code
from the new key's session, your keys listed and removed. Behaviour through Pilot on a real SQLite
players database (a `PlayersLink` over `server.players.store.PlayerStore`, as the server's is over
its async store), and snapshots at 80x24 and 120x40 in English and Spanish from fixed data.

Update the baselines with `pytest tests/ui/test_account_screen.py --snapshot-update` after looking
at the new pictures (tests/ui/__snapshots__/test_account_screen/).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from textual.app import App
from textual.binding import Binding
from textual.widgets import Input
from ui_helpers import screen_text

from server.players.accounts import AccountError
from server.players.store import PlayerStore
from ui.app import CitadelsApp
from ui.i18n import Catalogue
from ui.players_link import AccountData, KeyData, PlayersError
from ui.screens.account import AccountScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = ["en", "es"]  # snapshots: en at 80x24 in the fast tier, the rest slow (tests/conftest.py)


class StoreLink:
    """The account part of a `PlayersLink` on a real players database, for one key."""

    def __init__(self, store: PlayerStore, fingerprint: str, user: str) -> None:
        self.store = store
        self.fingerprint = fingerprint
        self.user = user
        self.player = store.player_for_key(fingerprint, user)

    def _do(self, fn, *args):
        try:
            return fn(*args)
        except AccountError as e:
            raise PlayersError(str(e)) from None

    async def account(self) -> AccountData:
        p = self.store.get_player(self.player.id)
        keys = self.store.keys_of(self.player.id)
        return AccountData(
            player_id=p.id,
            name=p.name or self.user,
            claimed=p.name is not None,
            keys=[
                KeyData(k.fingerprint, k.label, k.added_at, k.last_used_at, this=k.fingerprint == self.fingerprint)
                for k in keys
            ],
        )

    async def claim_name(self, name: str) -> str:
        return self._do(self.store.claim_name, self.player.id, name)

    async def new_key_code(self) -> str:
        return self._do(self.store.new_key_code, self.player.id)

    async def add_key(self, code: str) -> str:
        pid = self._do(self.store.add_key_with_code, code, self.fingerprint, self.user)
        self.player = self.store.get_player(pid)
        return f"This key now belongs to #{pid}."

    async def remove_key(self, fingerprint: str) -> None:
        if fingerprint == self.fingerprint:
            raise PlayersError("You are connected with this key: remove it from a session of another key.")
        self._do(self.store.remove_key, self.player.id, fingerprint)


class AccountApp(App):
    CSS_PATH = CitadelsApp.CSS_PATH
    BINDINGS = [Binding("f2", "switch_language", show=False)]

    def __init__(self, link, data: AccountData, lang: str = "en") -> None:
        super().__init__()
        self.cat = Catalogue(lang)
        self.link = link
        self.data = data

    def on_mount(self) -> None:
        self.push_screen(AccountScreen(self.cat, self.link, self.data))

    def action_switch_language(self) -> None:
        self.cat = Catalogue(self.cat.other())
        self.screen.set_language(self.cat)


async def settle(pilot, n: int = 5) -> None:
    for _ in range(n):
        await pilot.pause()


async def type_in(pilot, app, text: str) -> None:
    field = app.screen.query_one(Input)
    field.value = ""
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


def item(app, start: str) -> str:
    menu = app.screen.query_one("MenuList")
    i = next(i for i, it in enumerate(menu.items) if it.label.startswith(start))
    return str(i + 1)


@pytest.fixture
def store(tmp_path):
    s = PlayerStore.open(f"sqlite:///{tmp_path / 'players.sqlite3'}", migrate_schema=True)
    yield s
    s.close()


@pytest.mark.slow  # the whole account flow through two apps on one database (the key bar and the picture stay fast)
async def test_claim_a_name_show_a_code_add_a_key_and_remove_one(store):
    ana = StoreLink(store, "SHA256:anakey1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ana")
    ben = StoreLink(store, "SHA256:benkey1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "ben")
    store.claim_name(ben.player.id, "Ben")
    app = AccountApp(ana, await ana.account())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert f"Your account · player #{ana.player.id}" in text
        assert "Name: ana (not claimed: anyone may take it)" in text
        assert "this session's key" in text
        # A name taken by another player (in another case) is refused on the screen, nothing changes.
        await pilot.press(item(app, "Claim a name"))
        await type_in(pilot, app, "BEN")
        assert "the name 'BEN' is taken" in screen_text(app)
        assert store.get_player(ana.player.id).name is None
        await pilot.press(item(app, "Claim a name"))
        await type_in(pilot, app, "Ana")
        text = screen_text(app)
        assert "The name Ana is yours." in text and "Name: Ana (yours: nobody else can use it)" in text
        # A code for a second key, typed from that key's session (its own screen).
        await pilot.press(item(app, "Add another key"))
        await settle(pilot)
        text = screen_text(app)
        code = text.split("Code: ")[1][:9]
        assert code[4] == "-" and "valid 10 minutes, once" in text
    laptop = StoreLink(store, "SHA256:anakey2cccccccccccccccccccccccccccccccccccc", "ana-laptop")
    app2 = AccountApp(laptop, await laptop.account())
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(item(app2, "I have a code"))
        await type_in(pilot, app2, "WRONG-CODE")
        assert "that code is wrong or has expired" in screen_text(app2)
        await pilot.press(item(app2, "I have a code"))
        await type_in(pilot, app2, code.lower())
        text = screen_text(app2)
        assert f"This key now belongs to #{ana.player.id}." in text and "Name: Ana" in text
        assert len(store.keys_of(ana.player.id)) == 2
        # The first key is listed and removable (Enter twice); this session's own key is not.
        first = item(app2, "Key SHA256:anakey1")
        await pilot.press(first)
        await settle(pilot)
        assert "Press Enter again to remove" in screen_text(app2)
        await pilot.press(first)
        await settle(pilot)
        assert "Key removed." in screen_text(app2)
        assert [k.fingerprint for k in store.keys_of(ana.player.id)] == [laptop.fingerprint]
        await pilot.press(item(app2, "Key SHA256:anakey2"))  # the key in use: nothing happens
        await settle(pilot)
        assert [k.fingerprint for k in store.keys_of(ana.player.id)] == [laptop.fingerprint]
        await pilot.press("f2")
        await settle(pilot)
        assert "Tu cuenta" in screen_text(app2)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app2.screen, AccountScreen)


class FixedLink:
    """Fixed answers, for pictures that do not change from run to run."""

    async def new_key_code(self) -> str:
        return "KQ7M-X2PD"

    async def account(self) -> AccountData:
        return sample_account()


def sample_account() -> AccountData:
    day = datetime(2026, 11, 25, 18, 30, tzinfo=UTC)
    return AccountData(
        player_id=12,
        name="Ana Lucía",
        claimed=True,
        keys=[
            KeyData("SHA256:Xq3fZ9mP0aLr7TnB2cVd8eWg4hYk1jUo6iSs5tRq", "ana", day, day, this=True),
            KeyData("SHA256:Lk2pQ8wE5rT1yU7iO3pA9sD4fG6hJ0kL2zX8cV5b", "ana-laptop", day, None),
        ],
    )


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_account_snapshot(snap_compare, lang, size):
    async def run_before(pilot):
        await pilot.press("2")  # show a code
        await settle(pilot)

    assert snap_compare(AccountApp(FixedLink(), sample_account(), lang), terminal_size=size, run_before=run_before)


async def test_while_a_text_is_typed_the_key_bar_says_enter_and_esc(store):
    """The key bar still offered the menu's "1-9 choose" while the player typed a name or a code (the
    digits go into the text): it says Enter and Esc, and the menu's keys come back after."""
    from ui.widgets.key_bar import KeyBar

    ana = StoreLink(store, "SHA256:anakey1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ana")
    app = AccountApp(ana, await ana.account())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        menu_keys = app.screen.query_one(KeyBar).plain
        await pilot.press(item(app, "Claim a name"))
        await settle(pilot)
        assert app.screen.query_one(KeyBar).plain == "Enter done · Esc cancel"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.query_one(KeyBar).plain == menu_keys
