"""The lobby's new-table form (`NewTableForm`, mixed into `ui.screens.lobby.LobbyScreen`) and the
words that say what its values mean (`FormTexts`).

A form, not a list: a number moves to a row and never changes a value; ←/→
step through a row's values and Enter opens a picker that lists them, each
with what it means: a line-up with its characters, a timer with its seconds,
a rule set with its characters. Nothing is created before "Create the table".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.text import Text

from engine.cards.lineups import PRESETS  # data only: the presets' characters and uniques
from engine.rules import RULESETS

from ..i18n import Catalogue
from ..lobby_link import LobbyOptions, TableSpec
from ..widgets.menu_list import Choice, Item


def _cycle(values: list, current: Any, delta: int) -> Any:
    if not values:
        return current
    i = values.index(current) if current in values else 0
    return values[(i + delta) % len(values)]


class FormTexts:
    """What the form's values mean, in the player's language."""

    def __init__(self, cat: Catalogue, options: LobbyOptions) -> None:
        self.cat = cat
        self.options = options

    def L(self, key: str, **kw: Any) -> str:
        return self.cat.t(f"lobby.{key}", **kw)

    def lineup_label(self, name: str) -> str:
        if name == "first-game":
            return self.L("lineup_first")
        if name in ("random", "custom"):
            return self.L(f"lineup_{name}")
        for p in self.options.presets:
            if p[0] == name:
                return p[2] if self.cat.lang == "es" else p[1]
        return name

    def characters(self, names: list[str], rules: str | None = None) -> str:
        """ "1 Assassin · 2 Thief · …": ranks and names in the edition of `rules`."""
        cat = Catalogue(self.cat.lang, rules) if rules else self.cat
        return " · ".join(cat.ranked(c) for c in sorted(names, key=lambda c: cat.rank(c) or 0))

    def lineup_detail(self, name: str) -> str:
        preset = PRESETS.get(name)
        if preset is not None:
            return self.characters([*preset.characters, *([preset.rank9] if preset.rank9 else [])])
        return self.L(f"lineup_{name}_detail", fallback="")

    def rules_detail(self, name: str) -> str:
        """The characters of a rule set with its own line-up (the older editions)."""
        r = RULESETS.get(name)
        if r is None or not r.characters:
            return ""
        basic = [c for c in r.characters if (Catalogue(self.cat.lang, name).rank(c) or 0) <= 8][:8]
        text = self.characters(basic, name)
        if r.max_substitutes:
            text += " " + self.L("rules_substitutes", n=r.max_substitutes)
        return text

    def seconds(self, mode: str) -> float | None:
        return self.options.timer_seconds.get(mode)

    def timer_short(self, mode: str) -> str:
        """ "relaxed (120 s)"."""
        s = self.seconds(mode)
        name = self.L(f"timer_{mode}")
        return name if s is None else self.L("timer_with_seconds", name=name, s=f"{s:g}")

    def timer_detail(self, mode: str) -> str:
        s = self.seconds(mode)
        return self.L("timer_none_detail") if s is None else self.L("timer_detail", s=f"{s:g}")


def valued(
    label: str,
    keys: list[Any],
    choices: list[Choice],
    current: Any,
    set_value: Callable[[Any], Any],
    detail: str = "",
    wrap: bool = True,
) -> Item:
    """A form row whose value is one of `keys` (shown as `choices`): ←/→ step (round, unless `wrap`
    is False: numbers stop at their ends), Enter lists them."""
    i = keys.index(current) if current in keys else 0

    def step(d: int) -> None:
        j = (i + d) % len(keys) if wrap else min(max(i + d, 0), len(keys) - 1)
        if keys[j] != current:
            set_value(keys[j])

    return Item(
        label,
        choices[i].label,
        left=lambda: step(-1),
        right=lambda: step(1),
        detail=detail,
        choices=choices,
        current=i,
        pick=lambda j: set_value(keys[j]),
    )


class NewTableForm:
    """The pages "create" (the form) and "uniques" (choosing 14 unique districts) of the lobby."""

    cat: Catalogue
    spec: TableSpec
    notice: str | None
    snap: Any
    link: Any
    prompt: Any
    page: str
    L: Callable[..., str]
    go: Callable[..., None]
    render_page: Callable[..., None]

    if TYPE_CHECKING:  # LobbyScreen's (asked of the server once)

        @property
        def options(self) -> LobbyOptions: ...

    @property
    def texts(self) -> FormTexts:
        return FormTexts(self.cat, self.options)

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
        return self.texts.lineup_label(name)

    def _yes_no(self, label: str, value: bool, set_value: Callable[[bool], Any]) -> Item:
        words = [Choice(self.L("no")), Choice(self.L("yes"))]
        return valued(label, [False, True], words, value, set_value)

    def _create(self) -> tuple[list[Text], list[Item]]:
        spec, opts, rules = self.spec, self.options, self._rules()
        texts = self.texts
        header = [
            Text(self.L("create_title"), style="bold reverse", end=""),
            Text(self.L("edit_hint"), style="dim", end=""),
        ]
        counts = list(range(rules.min_players, rules.max_players + 1))
        rule_names = [r.name for r in opts.rules]
        items = [
            Item(
                self.L("f_name"),
                spec.name or "…",
                enter=lambda: self.prompt.ask(
                    self.L("prompt_table_name"), spec.name, lambda v: self._set(name=v.strip()[:40])
                ),
            ),
            valued(
                self.L("f_players"),
                counts,
                [Choice(str(n)) for n in counts],
                spec.players,
                lambda v: self._set(players=v),
                wrap=False,
            ),
            valued(
                self.L("f_rules"),
                rule_names,
                [Choice(r.title, "" if r.presets else texts.rules_detail(r.name)) for r in opts.rules],
                spec.rules,
                lambda v: self._set(rules=v),
                detail="" if rules.presets else texts.rules_detail(rules.name),
            ),
        ]
        if rules.presets:
            lineups = self._lineups()
            items.append(
                valued(
                    self.L("f_lineup"),
                    lineups,
                    [Choice(texts.lineup_label(n), texts.lineup_detail(n)) for n in lineups],
                    spec.lineup,
                    lambda v: self._set(lineup=v),
                    detail=texts.lineup_detail(spec.lineup),
                )
            )
            if spec.lineup == "custom":
                items += self._custom_items()
        for v in rules.variants:

            def set_variant(want: bool, v: str = v) -> None:
                self._set(variants=[x for x in self.spec.variants if x != v] + ([v] if want else []))

            items.append(self._yes_no(self.L("f_variant", name=v), v in spec.variants, set_variant))
        bots = list(range(spec.players))
        kinds = opts.bot_kinds
        items += [
            valued(
                self.L("f_bots"),
                bots,
                [Choice(str(n)) for n in bots],
                spec.bots,
                lambda v: self._set(bots=v),
                wrap=False,
            ),
            valued(
                self.L("f_bot_kind"), kinds, [Choice(k) for k in kinds], spec.bot_kind, lambda v: self._set(bot_kind=v)
            ),
            valued(
                self.L("f_timer"),
                opts.timers,
                [Choice(texts.timer_short(m), texts.timer_detail(m)) for m in opts.timers],
                spec.timer,
                lambda v: self._set(timer=v),
                detail=texts.timer_detail(spec.timer),
            ),
            self._yes_no(self.L("f_private"), spec.private, lambda v: self._set(private=v)),
            self._yes_no(self.L("f_spectator_chat"), spec.spectator_chat, lambda v: self._set(spectator_chat=v)),
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

            def set_rank(c: str, r: int = r) -> None:
                cs = list(self.spec.characters or [])
                cs[r - 1] = c
                self._set(characters=cs)

            label = self.L("f_rank9") if r == 9 else self.L("f_rank", rank=r)
            words = [
                Choice(self.cat.character(c), self.cat.character_text(c)) if c else Choice(self.L("none"))
                for c in values
            ]
            items.append(valued(label, values, words, chars[r - 1], set_rank))
        presets = [p[0] for p in opts.presets]
        keys = presets + ["random", "choose"]
        words = [Choice(self.L("uniques_from", name=self._lineup_label(p))) for p in presets]
        words += [Choice(self.L("uniques_random")), Choice(self.L("uniques_choose"))]
        current = self._uniques_source()
        if current == "choose":
            words[-1] = Choice(self.L("uniques_chosen", n=len(spec.uniques or [])))

        def set_uniques(key: str) -> None:
            if key == "choose":
                self.spec = replace(self.spec, uniques=list(self.spec.uniques or []))
                self.go("uniques")
            elif key == "random":
                self._set(uniques=None)
            else:
                self._set(uniques=self._preset_uniques(key))

        items.append(valued(self.L("f_uniques"), keys, words, current, set_uniques))
        return items

    def _preset_uniques(self, name: str) -> list[str]:
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
