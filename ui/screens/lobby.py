"""The lobby screen: tables, a new table, the waiting room.

They talk to the server only through a `ui.lobby_link.LobbyLink` and read only
`LobbySnapshot`s (a `LobbyUpdate` message brings a new one). Everything is a
numbered list in one `MenuList` widget (digits, arrows + Enter, the mouse;
←/→ change a form's values), plus one `Input` shown only while a text is
typed (its cursor does not blink) and a key bar: three widgets, nothing
animated, a repaint of the changed lines only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from ..i18n import Catalogue
from ..lobby_link import LobbyLink, LobbyOptions, LobbySnapshot, TableRow, TableSpec
from ..widgets.key_bar import KeyBar
from ..widgets.menu_list import Item, MenuList, TextPrompt


def _cycle(values: list, current: Any, delta: int) -> Any:
    if not values:
        return current
    i = values.index(current) if current in values else 0
    return values[(i + delta) % len(values)]


class LobbyScreen(Screen):
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
        self.snap = snap
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
        if self.page == "uniques":
            self.go("create")
        elif self.page != "main":
            self.go("main")

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
            header, items = self._room(snap)
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
        self.query_one(MenuList).set(header, items, keep=keep)
        self.query_one(KeyBar).show(self.L("keys"))

    def _title(self, snap: LobbySnapshot) -> list[Text]:
        return [
            Text(self.L("title"), style="bold reverse", end=""),
            Text(self.L("you", name=snap.you, identity=snap.identity), style="dim", end=""),
        ]

    def _row_text(self, row: TableRow) -> str:
        text = self.L(
            "row",
            name=row.name,
            rules=row.rules,
            lineup=row.lineup,
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
            items.append(Item(self._row_text(row), enter=lambda r=row: self.go("table", r.id)))
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
        if self.link.saved_games():
            items.append(Item(self.L("load"), enter=lambda: self.go("load")))
        items.append(Item(self.L("quit"), enter=self.app.exit))
        return header, items

    def _load(self, snap: LobbySnapshot) -> tuple[list[Text], list[Item]]:
        header = self._title(snap)
        header.append(Text(self.L("load_title"), style="bold", end=""))
        items = [
            Item(name, enter=lambda n=name: self._loaded(self.link.load_saved(n))) for name in self.link.saved_games()
        ]
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
                    lineup=row.lineup,
                    taken=row.taken,
                    seats=row.seats,
                    timer=self.L(f"timer_{row.timer}"),
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

    def _room(self, snap: LobbySnapshot) -> tuple[list[Text], list[Item]]:
        room = snap.room
        row = room.table
        header = self._title(snap)
        header.append(Text(self.L("room_title", name=row.name), style="bold", end=""))
        header.append(
            Text(
                self.L(
                    "table_info",
                    rules=row.rules,
                    lineup=row.lineup,
                    taken=row.taken,
                    seats=row.seats,
                    timer=self.L(f"timer_{row.timer}"),
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
                        items.append(Item(label, enter=lambda i=s.index: self._do(self.link.remove(i))))
            items.append(Item(self.L("close_table"), enter=lambda: self._do(self.link.leave())))
        else:
            header.append(Text(self.L("waiting_start"), style="italic", end=""))
            items.append(Item(self.L("leave_table"), enter=lambda: self._do(self.link.leave())))
        items.append(Item(self.L("rename"), enter=self._rename))
        return header, items

    # --- the new-table form ------------------------------------------------------------------------
    def _new_table(self) -> None:
        opts = self.options
        self.spec = TableSpec(name="", players=4, rules="2016", lineup="first-game", bots=0, bot_kind=opts.default_bot)
        self.go("create")

    def _rules(self):
        return next(r for r in self.options.rules if r.name == self.spec.rules)

    def _set(self, **changes: Any) -> None:
        self.spec = replace(self.spec, **changes)
        self._fix_spec()
        self.render_page()

    def _fix_spec(self) -> None:
        spec, rules = self.spec, self._rules()
        players = min(max(spec.players, rules.min_players), rules.max_players)
        variants = [v for v in spec.variants if v in rules.variants]
        self.spec = replace(spec, players=players, bots=min(spec.bots, players - 1), variants=variants)

    def _lineups(self) -> list[str]:
        return [p[0] for p in self.options.presets] + ["random", "custom"]

    def _lineup_label(self, name: str) -> str:
        if name == "first-game":
            return self.L("lineup_first")
        if name in ("random", "custom"):
            return self.L(f"lineup_{name}")
        for p in self.options.presets:
            if p[0] == name:
                return p[2] if self.cat.lang == "es" else p[1]
        return name

    def _create(self) -> tuple[list[Text], list[Item]]:
        spec, opts, rules = self.spec, self.options, self._rules()
        header = [
            Text(self.L("create_title"), style="bold reverse", end=""),
            Text(self.L("edit_hint"), style="dim", end=""),
        ]
        yes_no = lambda b: self.L("yes" if b else "no")
        rule_names = [r.name for r in opts.rules]
        items = [
            Item(
                self.L("f_name"),
                spec.name or "…",
                enter=lambda: self.prompt.ask(
                    self.L("prompt_table_name"), spec.name, lambda v: self._set(name=v.strip()[:40])
                ),
            ),
            Item(
                self.L("f_players"),
                str(spec.players),
                left=lambda: self._set(players=spec.players - 1),
                right=lambda: self._set(players=spec.players + 1),
            ),
            Item(
                self.L("f_rules"),
                rules.title,
                left=lambda: self._set(rules=_cycle(rule_names, spec.rules, -1)),
                right=lambda: self._set(rules=_cycle(rule_names, spec.rules, 1)),
            ),
        ]
        if rules.presets:
            lineups = self._lineups()
            items.append(
                Item(
                    self.L("f_lineup"),
                    self._lineup_label(spec.lineup),
                    left=lambda: self._set(lineup=_cycle(lineups, spec.lineup, -1)),
                    right=lambda: self._set(lineup=_cycle(lineups, spec.lineup, 1)),
                )
            )
            if spec.lineup == "custom":
                items += self._custom_items()
        for v in rules.variants:
            on_ = v in spec.variants
            flip = lambda v=v, on_=on_: self._set(
                variants=[x for x in spec.variants if x != v] if on_ else [*spec.variants, v]
            )
            items.append(Item(self.L("f_variant", name=v), yes_no(on_), left=flip, right=flip))
        kinds = opts.bot_kinds
        items += [
            Item(
                self.L("f_bots"),
                str(spec.bots),
                left=lambda: self._set(bots=max(spec.bots - 1, 0)),
                right=lambda: self._set(bots=spec.bots + 1),
            ),
            Item(
                self.L("f_bot_kind"),
                spec.bot_kind,
                left=lambda: self._set(bot_kind=_cycle(kinds, spec.bot_kind, -1)),
                right=lambda: self._set(bot_kind=_cycle(kinds, spec.bot_kind, 1)),
            ),
            Item(
                self.L("f_timer"),
                self.L(f"timer_{spec.timer}"),
                left=lambda: self._set(timer=_cycle(opts.timers, spec.timer, -1)),
                right=lambda: self._set(timer=_cycle(opts.timers, spec.timer, 1)),
            ),
            Item(
                self.L("f_private"),
                yes_no(spec.private),
                left=lambda: self._set(private=not spec.private),
                right=lambda: self._set(private=not spec.private),
            ),
            Item(
                self.L("f_spectator_chat"),
                yes_no(spec.spectator_chat),
                left=lambda: self._set(spectator_chat=not spec.spectator_chat),
                right=lambda: self._set(spectator_chat=not spec.spectator_chat),
            ),
            Item(self.L("create"), enter=self._submit, style="bold"),
            Item(self.L("back"), enter=lambda: self.go("main")),
        ]
        return header, items

    def _submit(self) -> None:
        spec = self.spec
        if spec.lineup == "custom":
            spec = replace(spec, characters=[c for c in (spec.characters or []) if c])
        error = self.link.create(spec)
        if error:
            self.notice = error
            self.render_page()
        else:
            self.page = "main"
            self.notice = None
            self.snap = self.link.snapshot()
            self.render_page(keep=False)

    def _custom_items(self) -> list[Item]:
        spec, opts = self.spec, self.options
        by_rank = opts.characters_by_rank
        chars = list(spec.characters or [])
        if len(chars) < 9:
            chars = [by_rank[r][0] if r <= 8 else "" for r in range(1, 10)]
            self.spec = spec = replace(spec, characters=chars)
        items = []
        for r in range(1, 10):
            values = list(by_rank.get(r, [])) + ([""] if r == 9 else [])

            def change(d: int, r: int = r, values: list = values) -> None:
                cs = list(self.spec.characters or [])
                cs[r - 1] = _cycle(values, cs[r - 1], d)
                self._set(characters=cs)

            label = self.L("f_rank9") if r == 9 else self.L("f_rank", rank=r)
            shown = self.cat.character(chars[r - 1]) if chars[r - 1] else self.L("none")
            items.append(Item(label, shown, left=lambda c=change: c(-1), right=lambda c=change: c(1)))
        presets = [p[0] for p in opts.presets]
        choices = presets + ["random", "choose"]
        current = self._uniques_source()

        def pick(d: int) -> None:
            nxt = _cycle(choices, current, d)
            if nxt == "choose":
                self._set(uniques=list(self.spec.uniques or []))
            elif nxt == "random":
                self._set(uniques=None)
            else:
                preset = next(p for p in opts.presets if p[0] == nxt)
                self._set(uniques=self._preset_uniques(preset[0]))

        if current == "choose":
            value = self.L("uniques_chosen", n=len(spec.uniques or []))
        elif current == "random":
            value = self.L("uniques_random")
        else:
            value = self.L("uniques_from", name=self._lineup_label(current))
        items.append(
            Item(
                self.L("f_uniques"),
                value,
                left=lambda: pick(-1),
                right=lambda: pick(1),
                enter=lambda: self.go("uniques") if current == "choose" else pick(1),
            )
        )
        return items

    def _preset_uniques(self, name: str) -> list[str]:
        from engine.cards.lineups import PRESETS  # data only: the preset's 14 uniques

        return list(PRESETS[name].uniques)

    def _uniques_source(self) -> str:
        u = self.spec.uniques
        if u is None:
            return "random"
        for p in self.options.presets:
            if sorted(self._preset_uniques(p[0])) == sorted(u):
                return p[0]
        return "choose"

    def _uniques(self) -> tuple[list[Text], list[Item]]:
        chosen = list(self.spec.uniques or [])
        header = [Text(self.L("uniques_title", n=len(chosen)), style="bold reverse", end="")]
        items = [Item(self.L("uniques_done"), enter=lambda: self.go("create"), style="bold")]
        for u in self.options.uniques:

            def flip(u: str = u) -> None:
                cs = list(self.spec.uniques or [])
                if u in cs:
                    cs.remove(u)
                elif len(cs) < 14:
                    cs.append(u)
                self.spec = replace(self.spec, uniques=cs)
                self.render_page()

            items.append(Item(("[x] " if u in chosen else "[ ] ") + self.cat.district(u), enter=flip))
        return header, items
