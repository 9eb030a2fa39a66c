"""The prompt as data: menus of choices built generically from `view.legal`.

No Textual here: `build_menu(view, cat)` turns the legal commands of a view
into a `Menu` of `Entry`s. Commands are grouped by what they are (Build,
Income, each `Ability` by card name and option); a group whose commands differ
in their target fields becomes a sub-menu that narrows one field at a time
(player, then character, district, card, type), so every list shows only
legal targets. A new card needs only catalogue entries in
`ui/i18n/cards.<lang>.toml` (`ability.<Card>`, `ability.<Card>_does`,
`ability.<Card>.<option>`, `build.<Card>`, `choice.<about>.<option>`,
`select.<purpose>` ...), never code here: unknown cards, options, choices and
command kinds get generic labels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS
from engine.commands import (
    Ability,
    Build,
    Choose,
    Confirm,
    DiscardCharacter,
    DrawCards,
    EndTurn,
    Income,
    Keep,
    Pick,
    Select,
    TakeGold,
    Unselect,
)

from .build_list import unbuildable
from .cards import character_label, district_token, district_type
from .i18n import Catalogue

ABILITY_FIELDS = ("player", "character", "district", "card", "kind")
BUILD_FIELDS = ("district", "using", "player")


@dataclass
class Entry:
    """One line of a menu: a command to send (leaf) or a sub-menu."""

    label: Text
    detail: str  # what it will do
    command: Any = None
    submenu: Menu | None = None
    confirm: bool = False  # abilities ask for confirmation after showing what they do
    back: bool = False
    inline: bool = False  # show the detail under the label when there is room (character cards)
    disabled: bool = False  # shown, never chosen (a district in hand that cannot be built now)


@dataclass
class Menu:
    title: str
    hint: str = ""
    entries: list[Entry] = field(default_factory=list)


def _tag(cmd: Any) -> str:
    return type(cmd).__struct_config__.tag


def who(view: Any, cat: Catalogue, seat: int, character: str | None = None) -> str:
    """A player's name, with the character they play when public: "Ana (Magistrate)"."""
    if not 0 <= seat < len(view.players):
        return cat.t("ui.nobody")
    p = view.players[seat]
    if character is None and p.revealed:
        character = p.revealed[-1]
    return f"{p.name} ({cat.character(character)})" if character else p.name


def waiting_sentence(view: Any, cat: Catalogue) -> str:
    """The localized "waiting for Ana (Magistrate)" for the pending decision."""
    pd = view.pending
    if pd is None:
        return cat.t("ui.connecting")
    kind = pd.kind
    if kind == "game_over":
        return cat.t("waiting.game_over")
    if not 0 <= pd.seat < len(view.players):
        return cat.t("waiting.other", name="?")
    name = view.players[pd.seat].name
    character = view.turn.character if view.turn is not None and view.turn.seat == pd.seat else None
    if kind == "pick_character":
        key = "waiting.discard_character" if pd.mode == "discard" else "waiting.pick_character"
        return cat.t(key, name=name)
    if kind in ("play_turn", "keep_cards"):
        return cat.t(f"waiting.{kind}", name=name, character=cat.character(character))
    if kind == "choice":
        return cat.t("waiting.choice", name=who(view, cat, pd.seat, character), about=about_label(cat, pd.about))
    if kind == "select_cards":
        return cat.t("waiting.select_cards", name=who(view, cat, pd.seat, character), about=select_label(cat, pd.about))
    return cat.t("waiting.other", name=who(view, cat, pd.seat, character))


def about_label(cat: Catalogue, about: str | None) -> str:
    """The question of a `Choice`: `choice.<about>`, or the raw key."""
    return cat.t(f"choice.{about}", fallback=about or "?")


def select_label(cat: Catalogue, purpose: str | None) -> str:
    """What a `SelectCards` chooses: `select.<purpose>`, or the raw key."""
    return cat.t(f"select.{purpose}", fallback=purpose or "?")


def choice_texts(view: Any, cat: Catalogue, about: str | None, option: str) -> tuple[str, str, bool]:
    """(label, what it does, known) for the answer `option` to the `Choice` `about`.

    Keys, first found: `choice.<about>.<option>`; `choice.<about>.*:*` for "<seat>:<character>";
    `choice.<about>.*` for a seat ({player}) or any other value ({option}, translated);
    `choice.<option>` (yes/no ...). `_does` after the same key says what it does."""
    fields: dict[str, object] = {"option": cat.value(option)}
    seat, _, rest = option.partition(":")
    generic = "*"
    if seat.isdigit():  # a seat, or "<seat>:<character>"
        s = int(seat)
        fields["option"] = fields["player"] = view.players[s].name if 0 <= s < len(view.players) else seat
        if rest:
            fields["character"] = cat.character(rest)
            generic = "*:*"
    key = cat.first(f"choice.{about}.{option}", f"choice.{about}.{generic}", f"choice.{option}")
    if key is None:
        label = cat.t("choice.fallback", option=fields["option"])
        return label, cat.t("cmd.choose_does", option=label), False
    label = cat.t(key, **fields)
    does = cat.t(key + "_does", **fields) if cat.has(key + "_does") else cat.t("cmd.choose_does", option=label)
    return label, does, True


class _Ctx:
    """What labels and descriptions need: the view, the catalogue, the player names."""

    def __init__(self, view: Any, cat: Catalogue) -> None:
        self.view = view
        self.cat = cat

    def player_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.view.players):
            return "?"
        return self.view.players[seat].name

    def built_cost(self, seat: int | None, district: str | None) -> str:
        if district is None:
            return "?"
        d = DISTRICTS.get(district)
        base = self.cat.cost(district) or 0
        if seat is not None and 0 <= seat < len(self.view.players):
            for b in self.view.players[seat].city:
                if b.name == district:
                    return str(base + (1 if b.beautified else 0))
        return str(base) if d else "?"

    def fields(self, cmd: Any) -> dict[str, object]:
        """The command's fields as words: names for seats, translated card names; None when absent
        (a sentence that needs an absent field shows "?")."""
        cat = self.cat
        out: dict[str, object] = {}
        for f in ("character", "player", "district", "card", "kind", "option", "via", "using", "gold", "name"):
            v = getattr(cmd, f, None)
            if v is None:
                out[f] = None
            elif f == "character":
                out[f] = cat.character(v)
                out["rank"] = cat.rank(v)
            elif f == "player":
                out[f] = self.player_name(v)
            elif f in ("district", "card", "via", "using", "name"):
                out[f] = cat.card(v)
            elif f == "kind":
                out[f] = cat.kind(v)
            elif f == "option":
                out[f] = cat.value(v)
            else:
                out[f] = v
        district = getattr(cmd, "district", None)
        out["cost"] = self.built_cost(getattr(cmd, "player", None), district) if district else None
        return out

    # --- labels of target values -------------------------------------------------------
    def value_label(self, f: str, v: Any) -> Text:
        cat = self.cat
        if v is None:
            return Text("—", end="")
        if f == "player":
            p = self.view.players[v] if 0 <= v < len(self.view.players) else None
            if p is None:
                return Text(str(v), end="")
            t = Text(p.name, style="bold", end="")
            t.append(f"  {cat.t('ui.gold_short', n=p.gold)} {cat.t('ui.cards_short', n=p.hand_size)}", style="dim")
            return t
        if f == "character":
            return character_label(self.cat, v)
        if f in ("district", "card", "using"):
            if v in DISTRICTS:
                return district_token(cat, v)
            return Text(cat.card(v), end="")
        if f == "kind":
            return Text(cat.kind(v), end="")
        if f == "gold":
            return Text(str(v), end="")
        return Text(str(v), end="")


# --- leaves ------------------------------------------------------------------------------
def _ability_keys(cmd: Ability) -> list[str]:
    keys = []
    if cmd.option is not None:
        keys.append(f"ability.{cmd.name}.{cmd.option}")
    keys.append(f"ability.{cmd.name}")
    return keys


def ability_label(ctx: _Ctx, cmd: Ability) -> Text:
    cat = ctx.cat
    text = None
    for k in _ability_keys(cmd):
        if cat.has(k):
            text = cat.t(k, **ctx.fields(cmd))
            break
    if text is None:
        if cmd.option is not None:
            text = cat.t("ability.fallback_option", name=cat.card(cmd.name), option=cmd.option)
        else:
            text = cat.t("ability.fallback", name=cat.card(cmd.name))
    t = Text(cat.card(cmd.name), style="bold", end="")
    t.append(" · " + text)
    return t


def ability_does(ctx: _Ctx, cmd: Ability) -> str:
    cat = ctx.cat
    f = ctx.fields(cmd)
    for k in _ability_keys(cmd):
        if cat.has(k + "_does"):
            return cat.t(k + "_does", **f)
    text = cat.character_text(cmd.name) if cmd.name in CHARACTERS else cat.district_text(cmd.name)
    targets = ", ".join(
        f"{k}: {f[k] or '?'}" for k in ABILITY_FIELDS + ("option",) if getattr(cmd, k, None) is not None
    )
    return cat.t("ability.fallback_does", text=text + (f" ({targets})" if targets else ""))


def _build_label(ctx: _Ctx, cmd: Build) -> Text:
    return district_token(ctx.cat, cmd.district)


def build_label(cat: Catalogue, via: str) -> str:
    """The label of the builds paid another way, by `via` (`build.<via>`)."""
    key = f"build.{via}"
    return cat.t(key) if cat.has(key) else cat.t("cmd.build_via", via=cat.card(via))


def build_does(ctx: _Ctx, cmd: Build) -> str:
    cat = ctx.cat
    if cmd.via is None:
        cost = cat.cost(cmd.district)
        return cat.t(
            "cmd.build_one_does",
            district=cat.district(cmd.district),
            cost="?" if cost is None else cost,
            type=cat.type_name(district_type(cmd.district)),
        )
    if cat.has(f"build.{cmd.via}_does"):
        return cat.t(f"build.{cmd.via}_does", **ctx.fields(cmd))
    text = cat.t("cmd.build_via_does", district=cat.district(cmd.district), via=cat.card(cmd.via))
    extra = [
        str(v)
        for v in (
            cat.card(cmd.using) if cmd.using else None,
            ctx.player_name(cmd.player) if cmd.player is not None else None,
        )
        if v
    ]
    return text + (f" ({', '.join(extra)})" if extra else "")


def _income_info(ctx: _Ctx) -> tuple[str, str]:
    t = ctx.view.turn
    income_type, income_kind = ctx.cat.income(t.character if t is not None else None)
    if income_type is None:
        return "?", "?"
    res = "cards" if income_kind == "cards" else "gold"
    return ctx.cat.kind(res), ctx.cat.type_name(income_type)


def leaf(ctx: _Ctx, cmd: Any, label: Text | None = None) -> Entry:
    """The entry that sends `cmd`: its label and what it will do."""
    cat = ctx.cat
    view = ctx.view
    if isinstance(cmd, Ability):
        return Entry(label or ability_label(ctx, cmd), ability_does(ctx, cmd), command=cmd, confirm=True)
    if isinstance(cmd, Build):
        return Entry(label or _build_label(ctx, cmd), build_does(ctx, cmd), command=cmd)
    if isinstance(cmd, Pick):
        lab = label or character_label(cat, cmd.character)
        return Entry(lab, cat.character_text(cmd.character), command=cmd, inline=True)
    if isinstance(cmd, DiscardCharacter):
        lab = label or Text(cat.t("cmd.discard", character=cat.ranked(cmd.character)), end="")
        return Entry(
            lab,
            cat.t("cmd.discard_does", character=cat.character(cmd.character)) + " " + cat.character_text(cmd.character),
            command=cmd,
            inline=True,
        )
    if isinstance(cmd, TakeGold):
        return Entry(Text(cat.t("cmd.take_gold"), end=""), cat.t("cmd.take_gold_does"), command=cmd)
    if isinstance(cmd, DrawCards):
        return Entry(Text(cat.t("cmd.draw_cards"), end=""), cat.t("cmd.draw_cards_does"), command=cmd)
    if isinstance(cmd, EndTurn):
        return Entry(Text(cat.t("cmd.end_turn"), end=""), cat.t("cmd.end_turn_does"), command=cmd)
    if isinstance(cmd, Keep):
        lab = Text(cat.t("cmd.keep", card="").strip() + " ", end="")
        lab.append_text(district_token(cat, cmd.card))
        detail = cat.t("cmd.keep_does", card=cat.district(cmd.card))
        if district_type(cmd.card) == "unique":
            detail += " " + cat.district_text(cmd.card)
        return Entry(label or lab, detail, command=cmd)
    if isinstance(cmd, Income):
        res, kind = _income_info(ctx)
        if cmd.gold is None:
            return Entry(
                label or Text(cat.t("cmd.income"), end=""),
                cat.t("cmd.income_does", resource=res, type=kind),
                command=cmd,
            )
        total = max((c.gold or 0 for c in view.legal if isinstance(c, Income)), default=cmd.gold)
        text = cat.t("cmd.income_mix", gold=cmd.gold, cards=total - cmd.gold)
        return Entry(
            label or Text(text, end=""),
            cat.t("cmd.income_mix_does", gold=cmd.gold, cards=total - cmd.gold),
            command=cmd,
        )
    if isinstance(cmd, Choose):
        about = view.pending.about if view.pending is not None else None
        text, does, _ = choice_texts(view, cat, about, cmd.option)
        if label is None and cmd.option in DISTRICTS:  # a card to take: shown as a card (type, cost)
            label = district_token(cat, cmd.option)
        return Entry(label or Text(text, end=""), does, command=cmd)
    if isinstance(cmd, Select):
        lab = Text("[ ] ", end="")
        lab.append_text(district_token(cat, cmd.card) if cmd.card in DISTRICTS else Text(cat.card(cmd.card)))
        return Entry(lab, cat.t("cmd.select_does", card=cat.card(cmd.card)), command=cmd)
    if isinstance(cmd, Unselect):
        lab = Text("[x] ", end="")
        lab.append_text(district_token(cat, cmd.card) if cmd.card in DISTRICTS else Text(cat.card(cmd.card)))
        return Entry(lab, cat.t("cmd.unselect_does", card=cat.card(cmd.card)), command=cmd)
    if isinstance(cmd, Confirm):
        pd = view.pending
        n = len(pd.selected) if pd is not None else 0
        purpose = pd.about if pd is not None else None
        key = f"select.{purpose}_confirm"
        text = cat.t(key, n=n) if cat.has(key) else cat.t("cmd.confirm")
        return Entry(Text(text, style="bold", end=""), cat.t("cmd.confirm_does", n=n), command=cmd)
    kind = _tag(cmd)
    return Entry(
        Text(cat.t(f"cmd.{kind}", fallback=cat.t("cmd.unknown", kind=kind)), end=""),
        cat.t(f"cmd.{kind}_does", fallback=cat.t("cmd.unknown_does", kind=kind)),
        command=cmd,
    )


# --- narrowing groups into target lists ---------------------------------------------------
def narrow(ctx: _Ctx, cmds: list[Any], fields: tuple[str, ...], title: str) -> list[Entry]:
    """Entries for a group of commands: one field at a time, only legal values."""
    for f in fields:
        values = list(dict.fromkeys(getattr(c, f, None) for c in cmds))
        if len(values) > 1:
            break
    else:
        return [leaf(ctx, c) for c in cmds]
    out = []
    for v in values:
        sub = [c for c in cmds if getattr(c, f, None) == v]
        label = ctx.value_label(f, v)
        if len(sub) == 1:
            e = leaf(ctx, sub[0], label=label)
            out.append(e)
        else:
            sub_title = f"{title} › {label.plain.strip()}"
            out.append(Entry(label, "", submenu=_submenu(ctx, sub, fields, sub_title)))
    return out


def _target_word(ctx: _Ctx, cmds: list[Any], fields: tuple[str, ...]) -> str:
    for f in fields:
        if len({getattr(c, f, None) for c in cmds}) > 1:
            return ctx.cat.t(f"prompt.pick_target_{f}", fallback=f)
    return ""


def _submenu(ctx: _Ctx, cmds: list[Any], fields: tuple[str, ...], title: str) -> Menu:
    entries = narrow(ctx, cmds, fields, title)
    hint = ctx.cat.t("prompt.choose_target", what=_target_word(ctx, cmds, fields))
    return Menu(title=title, hint=hint, entries=entries)


def _group_key(cmd: Any) -> tuple | None:
    """Commands with the same key are offered together; None: on their own."""
    if isinstance(cmd, Ability):
        return ("ability", cmd.name, cmd.option)
    if isinstance(cmd, Build):
        return ("build", cmd.via)
    if isinstance(cmd, Income):
        return ("income",)
    return None


def _group_entry(ctx: _Ctx, key: tuple, cmds: list[Any]) -> Entry:
    cat = ctx.cat
    kind = key[0]
    if kind == "ability":
        label = ability_label(ctx, cmds[0])
        if len(cmds) == 1:
            return leaf(ctx, cmds[0])
        title = label.plain
        generic = msg_ability_generic(ctx, cmds[0])
        return Entry(label, generic, submenu=_submenu(ctx, cmds, ABILITY_FIELDS, title))
    if kind == "build":
        via = key[1]
        if via is None:
            others = unbuildable(ctx.view, cat, {c.district for c in cmds})
            if len(cmds) == 1 and not others:
                lab = Text(cat.t("cmd.build_one", district="").strip() + " ", end="")
                lab.append_text(district_token(cat, cmds[0].district))
                return leaf(ctx, cmds[0], label=lab)
            label = Text(cat.t("cmd.build"), end="")
            menu = _submenu(ctx, cmds, BUILD_FIELDS, cat.t("cmd.build"))
            menu.entries += [Entry(lab, why, disabled=True) for lab, why in others]  # every card in hand
            return Entry(label, cat.t("cmd.build_does"), submenu=menu)
        label = Text(build_label(cat, via), end="")
        if len(cmds) == 1 and cmds[0].district == via:  # a card with its own way to be built
            lab = Text(cat.t("cmd.build_special", district="").strip() + " ", end="")
            lab.append_text(district_token(cat, via))
            lab.append(" " + cat.t("cmd.build_special_how"), style="italic")
            return leaf(ctx, cmds[0], label=lab)
        if len(cmds) == 1:
            return leaf(ctx, cmds[0], label=label + Text(": ") + district_token(cat, cmds[0].district))
        return Entry(
            label,
            cat.character_text(via) if via in CHARACTERS else cat.district_text(via),
            submenu=_submenu(ctx, cmds, BUILD_FIELDS, label.plain),
        )
    if kind == "income":
        if len(cmds) == 1:
            return leaf(ctx, cmds[0])
        res, type_ = _income_info(ctx)
        label = Text(cat.t("cmd.income"), end="")
        return Entry(
            label,
            cat.t("cmd.income_does", resource=res, type=type_),
            submenu=Menu(
                title=label.plain,
                hint=cat.t("prompt.choose_target", what=cat.t("prompt.pick_target_gold")),
                entries=[leaf(ctx, c) for c in cmds],
            ),
        )
    return leaf(ctx, cmds[0])  # pragma: no cover


def msg_ability_generic(ctx: _Ctx, cmd: Ability) -> str:
    name = cmd.name
    return ctx.cat.character_text(name) if name in CHARACTERS else ctx.cat.district_text(name)


def title_for(view: Any, cat: Catalogue) -> tuple[str, str]:
    """The prompt's title and hint for the decision this seat must make."""
    pd = view.pending
    kind = pd.kind if pd is not None else ""
    if kind == "pick_character":
        faceup = cat.names([cat.ranked(c) for c in view.faceup])
        if pd.mode == "discard":
            return cat.t("prompt.discard"), cat.t("prompt.discard_hint")
        return cat.t("prompt.pick"), cat.t("prompt.pick_hint", n=len(view.pool), faceup=faceup)
    if kind == "play_turn" and view.turn is not None:
        if view.turn.gather_only_reason:  # the Witch's victim, or a killed player with the Hospital
            return cat.t(
                f"gather_only.{view.turn.gather_only_reason}", character=cat.character(view.turn.character)
            ), ""
        key = "prompt.play_turn" if view.turn.gathered else "prompt.play_turn_gather"
        return cat.t(key, character=cat.character(view.turn.character)), ""
    if kind == "keep_cards":
        return cat.t("prompt.keep_cards", n=pd.min or 1), cat.t("prompt.keep_hint")
    if kind == "choice":
        return cat.t("prompt.choice", about=about_label(cat, pd.about)), ""
    if kind == "select_cards":
        hint = cat.t("prompt.select_hint", n=len(pd.selected), min=pd.min, max=pd.max)
        if cat.has(f"select.{pd.about}_hint"):
            hint = cat.t(f"select.{pd.about}_hint") + " " + hint
        return cat.t("prompt.select_cards", about=select_label(cat, pd.about)), hint
    if kind == "game_over":
        return cat.t("prompt.game_over"), cat.t("prompt.game_over_hint")
    return cat.t("ui.prompt"), ""


def build_menu(view: Any, cat: Catalogue) -> Menu:
    """The top menu for this seat: its legal commands, grouped; or who we wait for."""
    if not view.legal:
        if view.pending is not None and view.pending.kind == "game_over":
            title, hint = title_for(view, cat)
            return Menu(title=title, hint=hint)
        return Menu(title=waiting_sentence(view, cat))
    ctx = _Ctx(view, cat)
    groups: dict[tuple, list[Any]] = {}
    order: list[tuple] = []
    for i, cmd in enumerate(view.legal):
        key = _group_key(cmd)
        if key is None:
            key = ("single", i)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(cmd)
    entries: list[Entry] = []
    for key in order:
        cmds = groups[key]
        if key[0] == "single":
            entries.append(leaf(ctx, cmds[0]))
        else:
            entries.append(_group_entry(ctx, key, cmds))
    title, hint = title_for(view, cat)
    return Menu(title=title, hint=hint, entries=entries)


def confirm_menu(cat: Catalogue, entry: Entry) -> Menu:
    """The confirmation step for an ability: what it will do, confirm or go back."""
    yes = Entry(Text(cat.t("prompt.confirm_yes"), style="bold", end=""), entry.detail, command=entry.command)
    return Menu(title=cat.t("prompt.confirm"), hint=entry.label.plain, entries=[yes])


Builder = Callable[[Any, Catalogue], Menu]
