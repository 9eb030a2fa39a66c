"""Your account: your name (claim one: it is then yours alone), your SSH keys (list, remove), and a
second key added with a one-time code: this session shows the code, the new key's session types it.

    app.push_screen(AccountScreen(cat, link, account_data))       # Esc goes back

Everything goes through a `ui.players_link.PlayersLink` (awaited in workers: the database
answers off the server's loop); a refusal is shown on the screen in one line.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual import on
from textual.widgets import Input

from ..i18n import Catalogue
from ..players_link import AccountData, KeyData, PlayersError, PlayersLink
from ..widgets.key_bar import KeyBar
from ..widgets.menu_list import Item, MenuList, TextPrompt
from .players_common import PlayersScreen

SHOWN_FINGERPRINT = 24  # characters of a key's fingerprint shown ("SHA256:" and 17 more)


def short_key(fingerprint: str) -> str:
    return fingerprint if len(fingerprint) <= SHOWN_FINGERPRINT else fingerprint[:SHOWN_FINGERPRINT] + "…"


class AccountScreen(PlayersScreen):
    KEYS = "account_keys"

    def __init__(self, cat: Catalogue, link: PlayersLink, data: AccountData) -> None:
        super().__init__(cat, id="account")
        self.link = link
        self.data = data
        self.code: str | None = None  # the code this session showed
        self.notice: str | None = None
        self.removing: str | None = None  # a key asked to be removed once: Enter again removes it
        self._stale = False  # an answer came while another screen was on view
        self.prompt = TextPrompt(self)

    def compose(self):
        yield MenuList(id="players-menu")
        inp = Input(id="players-input", max_length=40)
        inp.cursor_blink = False
        inp.display = False
        yield inp
        yield KeyBar(id="players-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(MenuList).focus()

    # --- requests (awaited in a worker) ------------------------------------------------------------
    def _run(self, call: Any, done: Any = None) -> None:
        """Await `call()`; `done(result)` gives the line to show (None: none), a refusal shows itself."""

        async def work() -> None:
            try:
                result = await call()
            except PlayersError as e:
                self.notice = str(e)
            else:
                self.notice = done(result) if done is not None else None
                try:
                    self.data = await self.link.account()
                except PlayersError as e:
                    self.notice = str(e)
            # The answer can come after the screen was closed or while it is being closed (a used code
            # takes the player to their seat): only the screen on view draws it, else on its return.
            if self.is_attached and self.is_current:
                self.refresh_page()
            else:
                self._stale = True

        self.run_worker(work(), group="account", exclusive=True)

    def claim(self, name: str) -> None:
        self._run(partial(self.link.claim_name, name), lambda shown: self.P("account_claimed", name=shown))

    def show_code(self) -> None:
        def shown(code: str) -> None:
            self.code = code

        self._run(self.link.new_key_code, shown)

    def use_code(self, code: str) -> None:
        self._run(partial(self.link.add_key, code), lambda text: text)

    def remove_key(self, key: KeyData) -> None:
        if self.removing != key.fingerprint:
            self.removing = key.fingerprint
            self.notice = self.P("account_remove_again", fp=short_key(key.fingerprint))
            self.refresh_page()
            return
        self.removing = None
        self._run(partial(self.link.remove_key, key.fingerprint), lambda _: self.P("account_removed"))

    # --- the page ---------------------------------------------------------------------------------
    def key_text(self, key: KeyData) -> str:
        text = self.P("account_key", fp=short_key(key.fingerprint))
        if key.label:
            text += " · " + self.P("account_key_from", user=key.label)
        when = key.last_used_at or key.added_at
        text += " · " + self.P("account_key_used", date=f"{when:%Y-%m-%d}")
        if key.this:
            text += " · " + self.P("account_this_key")
        return text

    def on_screen_resume(self) -> None:
        if self._stale:
            self.refresh_page()

    def refresh_page(self) -> None:
        self._stale = False
        super().refresh_page()
        d = self.data
        header = [Text(self.P("account_title", id=d.player_id), style="bold reverse", end="")]
        header.append(Text(self.P("account_name" if d.claimed else "account_name_unclaimed", name=d.name), end=""))
        if self.code is not None:
            header.append(Text(self.P("account_code", code=self.code), style="bold", end=""))
            header.append(Text(self.P("account_code_help"), style="dim", end=""))
        if self.notice:
            header.append(Text(self.notice, style="bold reverse", end=""))
        header.append(Text("", end=""))
        items = [
            Item(
                self.P("account_rename" if d.claimed else "account_claim"),
                enter=lambda: self.prompt.ask(self.P("account_prompt_name"), d.name, self.claim),
            ),
            Item(self.P("account_show_code"), enter=self.show_code),
            Item(
                self.P("account_use_code"),
                enter=lambda: self.prompt.ask(self.P("account_prompt_code"), "", self.use_code),
            ),
        ]
        for key in d.keys:
            label = self.key_text(key)
            if key.this or len(d.keys) == 1:
                items.append(Item(label, style="dim"))  # the key in use, or the last one: not removable here
            else:
                items.append(Item(label + " · " + self.P("account_remove"), enter=partial(self.remove_key, key)))
        items.append(Item(self.P("account_back"), enter=self.action_back))
        self.query_one(MenuList).set(header, items)

    def action_back(self) -> None:
        if self.prompt.active:
            self.prompt.done(None)
            return
        super().action_back()

    @on(Input.Submitted, "#players-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.prompt.done(event.value)
