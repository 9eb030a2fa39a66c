"""The lobby screen: tables, a new table, the waiting room.

They talk to the server only through a `ui.lobby_link.LobbyLink` and read only
`LobbySnapshot`s (a `LobbyUpdate` message brings a new one). Everything is a
numbered list in one `MenuList` widget (digits, arrows + Enter, the mouse),
plus one `Input` shown only while a text is typed (its cursor does not blink)
and a key bar: three widgets, nothing animated, a repaint of the changed lines
only. The new-table form is a form (`MenuList(form=True)`): a number moves to a
row, never changes a value; values change with ←/→ or with the picker Enter
opens, which says what each value means (a line-up's characters, a timer's
seconds).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from ..i18n import Catalogue
from ..lobby_link import LobbyLink, LobbyOptions, LobbySnapshot, Room, TableRow, TableSpec
from ..widgets.key_bar import KeyBar
from ..widgets.menu_list import Item, MenuList, TextPrompt
from . import players_menu
from .lobby_form import NewTableForm

# The server's line-up labels (server.tables.seats.LINEUP_LABELS) -> lobby.<key>.
LINEUP_KEYS = {"first game": "lineup_first", "random": "lineup_random", "custom": "lineup_custom"}


class LobbyScreen(NewTableForm, Screen):
    """Tables, a new table, the waiting room."""

    BINDINGS = [Binding("escape", "back", show=False)]

    def __init__(self, cat: Catalogue, link: LobbyLink) -> None:
        super().__init__(id="lobby")
        self.cat = cat
        self.link = link
        self.snap: LobbySnapshot | None = None
        self.page = "main"  # main / table / create / uniques
        self.selected: str | None = None  # a table's id (page "table")
        self.spec = TableSpec()
        self.notice: str | None = None
        self._options: LobbyOptions | None = None
        self.prompt = TextPrompt(self)

    def L(self, key: str, **kw: Any) -> str:
        return self.cat.t(f"lobby.{key}", **kw)

    def compose(self):
        yield MenuList(id="lobby-menu")
        inp = Input(id="lobby-input", max_length=40)
        inp.cursor_blink = False
        inp.display = False
        yield inp
        yield KeyBar(id="lobby-keys")

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False
        self.query_one(MenuList).focus()
        if self.snap is None:
            self.snap = self.link.snapshot()
        self.render_page(keep=False)

    # --- from the app --------------------------------------------------------------------------
    def update(self, snap: LobbySnapshot, notice: str | None = None) -> None:
        """A snapshot from the lobby; one made before the snapshot shown (a broadcast queued while the
        screen read a fresh one) is dropped, its notice kept: it would show a moment already past (a
        finished table's page instead of the new game's room, its "1" no longer "Start the game")."""
        if self.snap is None or snap.seq >= self.snap.seq:
            self.snap = snap
        elif not notice:
            return
        if notice:
            self.notice = notice
        if self.is_mounted:
            self.render_page()

    def set_language(self, cat: Catalogue) -> None:
        self.cat = cat
        if self.is_mounted:
            self.render_page()

    @property
    def options(self) -> LobbyOptions:
        if self._options is None:
            self._options = self.link.options()
        return self._options

    # --- actions ---------------------------------------------------------------------------------
    def _do(self, result: str | None) -> None:
        self.notice = result
        if self.snap is not None or result:
            self.snap = self.link.snapshot()
            self.render_page()

    def go(self, page: str, selected: str | None = None) -> None:
        self.page = page
        self.selected = selected
        self.notice = None
        self.render_page(keep=False)

    def action_back(self) -> None:
        if self.prompt.active:
            self.prompt.done(None)
            return
        menu = self.query_one(MenuList)
        if menu.close_picker():
            self._keys()
            return
        if self.page == "uniques":
            self.go("create")
        elif self.page != "main":
            self.go("main")

    @on(MenuList.PickerChanged)
    def _picker_changed(self, event: MenuList.PickerChanged) -> None:
        event.stop()
        self._keys()

    @on(Input.Submitted, "#lobby-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.prompt.done(event.value)

    # --- pages -----------------------------------------------------------------------------------
    def render_page(self, keep: bool = True) -> None:
        snap = self.snap
        if snap is None:
            return
        if snap.room is not None and self.page in ("main", "table"):
            # in a room, the table page it was joined from is behind you: the list when the room goes
            self.page, self.selected = "main", None
            header, items = self._room(snap, snap.room)
        elif self.page == "create":
            header, items = self._create()
        elif self.page == "uniques":
            header, items = self._uniques()
        elif self.page == "table":
            header, items = self._table(snap)
        elif self.page == "load":
            header, items = self._load(snap)
        else:
            header, items = self._main(snap)
        if self.notice:
            header.append(Text(self.notice, style="bold reverse", end=""))
        header.append(Text("", end=""))
        menu = self.query_one(MenuList)
        menu.picker_hint = self.L("picker_hint")
        menu.set(header, items, keep=keep, form=self.page in ("create", "uniques") and snap.room is None)
        self._keys()

    def _keys(self) -> None:
        menu = self.query_one(MenuList)
        key = "keys_picker" if menu.picking else "keys_form" if menu.form else "keys"
        self.query_one(KeyBar).show(self.L(key))

    def _title(self, snap: LobbySnapshot) -> list[Text]:
        return [
            Text(self.L("title"), style="bold reverse", end=""),
            Text(self.L("you", name=snap.you, identity=snap.identity), style="dim", end=""),
        ]

    def _lineup(self, label: str) -> str:
        """The server's line-up label in the player's language (a preset's own name stays as it is)."""
        key = LINEUP_KEYS.get(label)
        return self.L(key) if key is not None else label

    def _row_text(self, row: TableRow) -> str:
        text = self.L(
            "row",
            name=row.name,
            rules=row.rules,
            lineup=self._lineup(row.lineup),
            taken=row.taken,
            seats=row.seats,
            state=self.L(f"state_{row.state}"),
        )
        if row.private:
            text += f" · {self.L('private')}"
        if row.yours:
            text += f" · {self.L('yours')}"
        return text

    def _main(self, snap: LobbySnapshot) -> tuple[list[Text], list[Item]]:
        header = self._title(snap)
        items: list[Item] = []
        if snap.playing:
            items.append(Item(self.L("return_game"), enter=lambda: self._do(self.link.back_to_table()), style="bold"))
        for row in snap.tables:
            items.append(Item(self._row_text(row), enter=partial(self.go, "table", row.id)))
        if not snap.tables:
            header.append(Text(self.L("no_tables"), style="italic", end=""))
        items += [
            Item(self.L("new_table"), enter=self._new_table),
            Item(
                self.L("join_code"),
                enter=lambda: self.prompt.ask(self.L("prompt_code"), "", lambda v: self._do(self.link.join_code(v))),
            ),
            Item(self.L("rename"), enter=self._rename),
        ]
        items += players_menu.lobby_items(self.cat, snap.accounts, self.post_message)
        if self.link.saved_games():
            items.append(Item(self.L("load"), enter=lambda: self.go("load")))
        items.append(Item(self.L("quit"), enter=self.app.exit))
        return header, items

    def _load(self, snap: LobbySnapshot) -> tuple[list[Text], list[Item]]:
        header = self._title(snap)
        header.append(Text(self.L("load_title"), style="bold", end=""))
        items: list[Item] = []
        for name in self.link.saved_games():

            def load(n: str = name) -> None:
                self._loaded(self.link.load_saved(n))

            items.append(Item(name, enter=load))
        items.append(Item(self.L("back"), enter=lambda: self.go("main")))
        return header, items

    def _loaded(self, error: str | None) -> None:
        if error is None:
            self.page = "main"
        self._do(error)

    def _rename(self) -> None:
        self.prompt.ask(
            self.L("prompt_name"), self.snap.you if self.snap else "", lambda v: self._do(self.link.rename(v))
        )

    def _table(self, snap: LobbySnapshot) -> tuple[list[Text], list[Item]]:
        row = next((r for r in snap.tables if r.id == self.selected), None)
        if row is None:
            return self._main(snap)
        header = self._title(snap)
        header.append(Text(row.name, style="bold", end=""))
        header.append(
            Text(
                self.L(
                    "table_info",
                    rules=row.rules,
                    lineup=self._lineup(row.lineup),
                    taken=row.taken,
                    seats=row.seats,
                    timer=self.texts.timer_short(row.timer),
                    spectators=row.spectators,
                ),
                end="",
            )
        )
        items = []
        if row.state == "waiting" and row.taken < row.seats:
            items.append(Item(self.L("join"), enter=lambda: self._do(self.link.join(row.id))))
        if row.state != "waiting":
            items.append(Item(self.L("watch"), enter=lambda: self._do(self.link.watch(row.id))))
        items.append(Item(self.L("back"), enter=lambda: self.go("main")))
        return header, items

    def _room(self, snap: LobbySnapshot, room: Room) -> tuple[list[Text], list[Item]]:
        row = room.table
        header = self._title(snap)
        header.append(Text(self.L("room_title", name=row.name), style="bold", end=""))
        header.append(
            Text(
                self.L(
                    "table_info",
                    rules=row.rules,
                    lineup=self._lineup(row.lineup),
                    taken=row.taken,
                    seats=row.seats,
                    timer=self.texts.timer_short(row.timer),
                    spectators=row.spectators,
                ),
                end="",
            )
        )
        if room.code:
            header.append(Text(self.L("room_code", code=room.code), style="bold", end=""))
        for s in room.seats:
            line = Text(f"  {s.index + 1}. ", end="")
            if s.kind == "open":
                line.append(self.L("seat_open"), style="dim")
            else:
                line.append(
                    s.name, style="bold" if s.you else ""
                )  # a bot's name says "(bot)" (server.lobby.lobby.BOT_MARK)
                if s.you:
                    line.append(" " + self.L("seat_you"))
                if s.away:
                    line.append(" " + self.L("seat_away"), style="italic")
            header.append(line)
        open_seats = sum(1 for s in room.seats if s.kind == "open")
        away = [s.name for s in room.seats if s.away]
        if room.saved:
            header.append(Text(self.L("saved_room"), style="italic", end=""))
        items: list[Item] = []
        if room.creator:
            if room.can_start:
                items.append(Item(self.L("start"), enter=lambda: self._do(self.link.start()), style="bold"))
            elif room.saved and away:
                header.append(Text(self.L("saved_waiting", names=", ".join(away)), style="italic", end=""))
            else:
                header.append(Text(self.L("waiting_players", open=open_seats), style="italic", end=""))
            if open_seats:
                items.append(Item(self.L("add_bot"), enter=lambda: self._do(self.link.add_bot())))
            for s in room.seats:
                if s.kind != "open" and not s.you:
                    label = self.L("saved_bot" if room.saved else "remove", name=s.name)
                    if not (room.saved and s.kind == "bot"):

                        def remove(i: int = s.index) -> None:
                            self._do(self.link.remove(i))

                        items.append(Item(label, enter=remove))
            items.append(Item(self.L("close_table"), enter=lambda: self._do(self.link.leave())))
        else:
            header.append(Text(self.L("waiting_start"), style="italic", end=""))
            items.append(Item(self.L("leave_table"), enter=lambda: self._do(self.link.leave())))
        items.append(Item(self.L("rename"), enter=self._rename))
        return header, items
