"""The table menu (Ctrl+Q at a table): back to the game, to the lobby, the creator's actions, quit.
It talks to the server only through a `ui.lobby_link.LobbyLink`.

A form (`MenuList(form=True)`): a number moves to its row, Enter does it; a setting (spectators
may write in the chat) is a value changed with ←/→ or its picker, never by a number."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Input

from ..i18n import Catalogue
from ..lobby_link import LobbyLink
from ..widgets.key_bar import KeyBar
from ..widgets.menu_list import Choice, Item, MenuList, TextPrompt
from . import players_menu

if TYPE_CHECKING:
    from ..app import CitadelsApp


class TableMenuScreen(ModalScreen):
    """Ctrl+Q at a table: back to the game, to the lobby, the creator's actions, quit."""

    BINDINGS = [Binding("escape", "close", show=False)]

    def __init__(self, cat: Catalogue, link: LobbyLink) -> None:
        super().__init__(id="table-menu")
        self.cat = cat
        self.link = link
        self.notice: str | None = None
        self.prompt = TextPrompt(self)

    def L(self, key: str, **kw: Any) -> str:
        return self.cat.t(f"lobby.{key}", **kw)

    @property
    def game_app(self) -> CitadelsApp:
        """The app this menu is shown in (the served game's, a CitadelsApp)."""
        # Textual types a screen's `app` as App[Any], whichever App subclass runs it
        return cast("CitadelsApp", self.app)

    def compose(self):
        yield MenuList(id="table-menu-list")
        inp = Input(id="table-menu-input", max_length=60)
        inp.cursor_blink = False
        inp.display = False
        yield inp
        yield KeyBar(id="table-menu-keys")

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False
        self.query_one(MenuList).focus()
        self.render_menu()

    def render_menu(self) -> None:
        info = self.link.table_menu()
        header = [Text(self.L("menu_title"), style="bold reverse", end="")]
        if self.notice:
            header.append(Text(self.notice, style="bold", end=""))
        header.append(Text("", end=""))
        items = [
            Item(self.L("menu_back"), enter=self.action_close),
            Item(self.L("menu_lobby_watch" if info.spectator else "menu_lobby"), enter=self._to_lobby),
        ]
        if info.creator:
            for seat, name in info.absent:

                def to_bot(s: int = seat) -> None:
                    self._result(self.link.replace_with_bot(s))

                items.append(Item(self.L("menu_replace", name=name), enter=to_bot))
            allowed = info.spectator_chat

            def set_chat(want: bool) -> None:
                if want != allowed:
                    self._result(self.link.set_spectator_chat(want))

            items.append(
                Item(
                    self.L("f_spectator_chat"),
                    self.L("yes" if allowed else "no"),
                    left=lambda: set_chat(not allowed),
                    right=lambda: set_chat(not allowed),
                    choices=[Choice(self.L("no")), Choice(self.L("yes"))],
                    current=1 if allowed else 0,
                    pick=lambda i: set_chat(bool(i)),
                )
            )
            if info.saving:
                items.append(
                    Item(self.L("menu_save"), enter=lambda: self.prompt.ask(self.L("prompt_save"), "", self._save))
                )
        if not info.spectator:
            on = self.game_app.options.alerts
            items.append(Item(self.L("menu_alerts_off" if on else "menu_alerts_on"), enter=self._toggle_alerts))
        items += players_menu.table_items(self.cat, info.profiles, self.post_message)
        items.append(Item(self.L("menu_quit"), enter=self.app.exit))
        menu = self.query_one(MenuList)
        menu.picker_hint = self.L("picker_hint")
        menu.set(header, items, form=True)
        self._keys()

    def _keys(self) -> None:
        picking = self.query_one(MenuList).picking
        self.query_one(KeyBar).show(self.L("keys_picker" if picking else "keys_menu"))

    def _toggle_alerts(self) -> None:
        app = self.game_app
        app.set_alerts(not app.options.alerts)
        self.render_menu()

    def _result(self, error: str | None) -> None:
        self.notice = error
        self.render_menu()

    def _save(self, name: str) -> None:
        async def run() -> None:
            error = await self.link.save_as(name)
            self._result(error or self.L("saved"))

        self.run_worker(run(), exclusive=True)

    def _to_lobby(self) -> None:
        self.dismiss(None)
        self.link.to_lobby()

    def action_close(self) -> None:
        if self.prompt.active:
            self.prompt.done(None)
            return
        if self.query_one(MenuList).close_picker():
            self._keys()
            return
        self.dismiss(None)

    @on(MenuList.PickerChanged)
    def _picker_changed(self, event: MenuList.PickerChanged) -> None:
        event.stop()
        self._keys()

    @on(Input.Submitted, "#table-menu-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.prompt.done(event.value)
