"""The prompt as data: menus of choices built generically from `view.legal`.

No Textual here: `build_menu(view, cat)` turns the legal commands of a view
into a `Menu` of `Entry`s. Commands are grouped by what they are (Build,
Income, each `Ability` by card name and option); a group whose commands differ
in their target fields becomes a sub-menu that narrows one field at a time
(player, then character, district, card, type), so every list shows only
legal targets; a sub-menu's entries are made when it is first opened
(`ui.prompt_menu.LazyMenu`: most never are). A new card needs only catalogue entries in
the catalogues (`ui/i18n/locale/`) (`ability.<Card>`, `ability.<Card>_does`,
`ability.<Card>.<option>`, `build.<Card>`, `choice.<about>.<option>`,
`select.<purpose>` ...), never code here: unknown cards, options, choices and
command kinds get generic labels.

Confirmations: choices first, then one confirmation that names every target
and what it costs (`confirm_menu`), for abilities that act on someone or cost
something, and for ending the turn while something is still possible; none for
what only gives (income, the Merchant's gold: `NO_CONFIRM`). The Magician's
redraw is chosen here first (`Checklist`: the cards, then "Discard these and
draw 2"), then sent as its commands in order, so "discard 0, draw 0" is never
offered. Which key chooses an entry: `ui.prompt_keys`. Labels: `ui.prompt_labels`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from rich.text import Text

from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS, TYPES
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
from .cards import district_token, district_type
from .i18n import Catalogue
from .prompt_labels import (
    ABILITY_FIELDS,
    BUILD_FIELDS,
    Ctx,
    ability_does,
    ability_label,
    build_does,
    build_label,
    card_text,
    income_info,
)
from .prompt_menu import Checklist, Entry, LazyMenu, Menu
from .prompt_texts import about_label, choice_texts, select_label, title_for, waiting_sentence, who
from .widgets.shared_memo import Memo

# Abilities that only give their user something (from the bank, the deck, or the richest player as the
# rules say), with no target to choose and nothing to lose: sent at once, like taking income.
NO_CONFIRM = frozenset({"Merchant", "Architect", "Queen", "Tax Collector", "Abbot", "Scholar"})
# Abilities whose cards are chosen here before anything is sent: (name, option) -> the SelectCards purpose.
CHOSEN_FIRST: dict[tuple[str, str | None], str] = {("Magician", "redraw"): "Magician"}


def _tag(cmd: Any) -> str:
    return type(cmd).__struct_config__.tag


def command_ident(cmd: Any) -> tuple:
    """A command as an entry's identity: its kind and fields, the seat left out."""
    fields = msgspec.structs.asdict(cmd)
    return ("cmd", _tag(cmd), *sorted((k, v) for k, v in fields.items() if k != "seat" and v is not None))


# --- leaves ------------------------------------------------------------------------------
def leaf(ctx: Ctx, cmd: Any, label: Text | None = None, ident: Any = None) -> Entry:
    """The entry that sends `cmd`: its label and what it will do."""
    e = _leaf(ctx, cmd, label)
    e.ident = ident if ident is not None else command_ident(cmd)
    return e


def _leaf(ctx: Ctx, cmd: Any, label: Text | None) -> Entry:
    cat = ctx.cat
    view = ctx.view
    if isinstance(cmd, Ability):
        purpose = CHOSEN_FIRST.get((cmd.name, cmd.option))
        if purpose is not None and view.seat is not None:
            hand = sorted(view.players[view.seat].hand or [], key=lambda c: _hand_order(cat, c))
            cl = Checklist(purpose, hand, cmd, cmd.seat)
            lab = label or ability_label(ctx, cmd)
            return Entry(lab, ability_does(ctx, cmd), submenu=checklist_menu(cat, cl, lab.plain, set()))
        confirm = cmd.name not in NO_CONFIRM
        return Entry(label or ability_label(ctx, cmd), ability_does(ctx, cmd), command=cmd, confirm=confirm)
    if isinstance(cmd, Build):
        return Entry(label or district_token(cat, cmd.district), build_does(ctx, cmd), command=cmd)
    if isinstance(cmd, Pick):
        lab = label or Text(cat.character(cmd.character), style="bold", end="")
        return Entry(lab, cat.character_text(cmd.character), command=cmd, inline=True, rank=cat.rank(cmd.character))
    if isinstance(cmd, DiscardCharacter):
        lab = label or Text(cat.character(cmd.character), style="bold", end="")
        return Entry(
            lab,
            cat.t("cmd.discard_does", character=cat.character(cmd.character)) + " " + cat.character_text(cmd.character),
            command=cmd,
            inline=True,
            rank=cat.rank(cmd.character),
        )
    if isinstance(cmd, TakeGold):
        return Entry(Text(cat.t("cmd.take_gold"), end=""), cat.t("cmd.take_gold_does"), command=cmd)
    if isinstance(cmd, DrawCards):
        return Entry(Text(cat.t("cmd.draw_cards"), end=""), cat.t("cmd.draw_cards_does"), command=cmd)
    if isinstance(cmd, EndTurn):
        others = [c for c in view.legal if not isinstance(c, EndTurn)]
        return Entry(
            Text(cat.t("cmd.end_turn"), end=""),
            cat.t("cmd.end_turn_does"),
            command=cmd,
            end_turn=True,
            confirm=bool(others),
        )
    if isinstance(cmd, Keep):
        lab = Text(cat.t("cmd.keep", card="").strip() + " ", end="")
        lab.append_text(district_token(cat, cmd.card))
        detail = cat.t("cmd.keep_does", card=cat.district(cmd.card))
        if district_type(cmd.card) == "unique":
            detail += " " + cat.district_text(cmd.card)
        return Entry(label or lab, detail, command=cmd)
    if isinstance(cmd, Income):
        res, kind = income_info(ctx)
        if cmd.gold is None:
            return Entry(
                label or Text(cat.t("cmd.income"), end=""),
                cat.t("cmd.income_does", resource=res, type=kind),
                command=cmd,
            )
        total = max((c.gold or 0 for c in view.legal if isinstance(c, Income)), default=cmd.gold)
        cards = total - cmd.gold  # a zero is not said: "Take 2 cards", not "Take 0 gold and 2 cards"
        mix = "cmd.income_mix" if cmd.gold and cards else "cmd.income_mix_gold" if cmd.gold else "cmd.income_mix_cards"
        text = cat.t(mix, gold=cmd.gold, cards=cards)
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
        rank = cat.rank(cmd.option) if cmd.option in CHARACTERS else None
        return Entry(label or Text(text, end=""), does, command=cmd, rank=rank)
    if isinstance(cmd, (Select, Unselect)):
        return _select_row(cat, cmd.card, isinstance(cmd, Unselect), cmd)
    if isinstance(cmd, Confirm):
        return _select_done(cat, view, cmd)
    kind = _tag(cmd)
    return Entry(
        Text(cat.t(f"cmd.{kind}", fallback=cat.t("cmd.unknown", kind=kind)), end=""),
        cat.t(f"cmd.{kind}_does", fallback=cat.t("cmd.unknown_does", kind=kind)),
        command=cmd,
    )


def _hand_order(cat: Catalogue, card: str) -> tuple:
    """Cards in the order the hand shows them: by type, then cost (ui/widgets/hand.py)."""
    d = DISTRICTS.get(card)
    return (TYPES.index(d.type) if d else len(TYPES), cat.cost(card) or 0, card)


def _card_text(cat: Catalogue, card: str) -> Text:
    return district_token(cat, card) if card in DISTRICTS else Text(cat.card(card), end="")


def _select_row(cat: Catalogue, card: str, chosen: bool, cmd: Any) -> Entry:
    """A card of a multi-card choice, marked [x] when chosen; `cmd` (None: cannot be chosen now)."""
    lab = Text("[x] " if chosen else "[ ] ", style="" if cmd is not None else "dim", end="")
    lab.append_text(_card_text(cat, card))
    does = cat.t("cmd.unselect_does" if chosen else "cmd.select_does", card=cat.card(card))
    return Entry(lab, does if cmd is not None else cat.t("prompt.cannot_choose", card=cat.card(card)), command=cmd)


def _select_done(cat: Catalogue, view: Any, cmd: Any) -> Entry:
    pd = view.pending
    n = len(pd.selected) if pd is not None else 0
    purpose = pd.about if pd is not None else None
    key = cat.first(*([f"select.{purpose}_confirm_none"] if n == 0 else []), f"select.{purpose}_confirm")
    cards = cat.names([cat.card(c) for c in pd.selected] if pd is not None else [])
    text = cat.t(key, n=n, cards=cards) if key is not None else cat.t("cmd.confirm")
    return Entry(Text(text, style="bold", end=""), cat.t("cmd.confirm_does", n=n), command=cmd)


def select_entries(ctx: Ctx) -> list[Entry]:
    """A SelectCards decision as rows that stay in place: one per card (each copy), marked when chosen,
    then Done; the legal Select/Unselect/Confirm commands behind them."""
    view, cat = ctx.view, ctx.cat
    pd = view.pending
    legal = view.legal
    entries: list[Entry] = []
    for card in dict.fromkeys(pd.options):
        chosen = pd.selected.count(card)
        for i in range(pd.options.count(card)):
            marked = i < chosen
            cmd = Unselect(pd.seat, card) if marked else Select(pd.seat, card)
            e = _select_row(cat, card, marked, cmd if cmd in legal else None)
            e.ident = ("copy", card, i)
            entries.append(e)
    for cmd in legal:
        if isinstance(cmd, Confirm):
            e = _select_done(cat, view, cmd)
            e.ident = ("done",)
            entries.append(e)
    return entries


# --- the Magician's cards, chosen before anything is sent -------------------------------------------
def checklist_menu(cat: Catalogue, cl: Checklist, title: str, chosen: set[int]) -> Menu:
    """The checklist with the rows in `chosen` marked; its last step once enough are chosen."""
    entries = []
    for i, card in enumerate(cl.cards):
        lab = Text("[x] " if i in chosen else "[ ] ", end="")
        lab.append_text(_card_text(cat, card))
        does = cat.t("cmd.unselect_does" if i in chosen else "cmd.select_does", card=cat.card(card))
        entries.append(Entry(lab, does, toggle=i, ident=("copy", card, cl.cards[:i].count(card))))
    cards = [cl.cards[i] for i in sorted(chosen)]
    if len(cards) >= cl.least:
        names = cat.names([cat.card(c) for c in cards])
        plan = [cl.start, *(Select(cl.seat, c) for c in cards), Confirm(cl.seat)]
        entries.append(
            Entry(
                Text(cat.t(f"select.{cl.purpose}_plan", n=len(cards), cards=names), style="bold", end=""),
                cat.t(f"select.{cl.purpose}_plan_does", n=len(cards), cards=names),
                plan=plan,
                ident=("done",),
            )
        )
    hint = cat.t(f"select.{cl.purpose}_hint") if cat.has(f"select.{cl.purpose}_hint") else ""
    hint = (hint + " " + cat.t("prompt.checklist_hint", n=len(cards))).strip()
    return Menu(title=title, hint=hint, entries=entries, checklist=cl)


# --- narrowing groups into target lists ---------------------------------------------------
def _tail(ctx: Ctx, cmd: Any, fields: tuple[str, ...]) -> Text:
    """The targets of `cmd` in `fields` as tokens: " · R1 Temple" (a single choice shows all it does)."""
    out = Text(end="")
    for f in fields:
        v = getattr(cmd, f, None)
        if v is not None and f in ("district", "card", "character", "using", "kind"):
            out.append(" · ", style="dim")
            out.append_text(ctx.value_label(f, v))
    return out


def narrow(ctx: Ctx, cmds: list[Any], fields: tuple[str, ...], title: str) -> list[Entry]:
    """Entries for a group of commands: one field at a time, only legal values."""
    for f in fields:
        values = list(dict.fromkeys(getattr(c, f, None) for c in cmds))
        if len(values) > 1:
            break
    else:
        return [leaf(ctx, c) for c in cmds]
    rest = fields[fields.index(f) + 1 :]
    out = []
    for v in values:
        sub = [c for c in cmds if getattr(c, f, None) == v]
        label = ctx.value_label(f, v)
        rank = ctx.cat.rank(v) if f == "character" else None
        if len(sub) == 1:
            e = leaf(ctx, sub[0], label=label + _tail(ctx, sub[0], rest), ident=("value", f, v))
        else:
            sub_title = f"{title} › {label.plain.strip()}"
            e = Entry(label, "", submenu=_submenu(ctx, sub, fields, sub_title), ident=("value", f, v))
        e.rank = rank
        out.append(e)
    return out


def _target_word(ctx: Ctx, cmds: list[Any], fields: tuple[str, ...]) -> str:
    for f in fields:
        if len({getattr(c, f, None) for c in cmds}) > 1:
            return ctx.cat.t(f"prompt.pick_target_{f}", fallback=f)
    # one choice left (a single card to build): still say what it is, not "Choose :"
    return ctx.cat.t(f"prompt.pick_target_{fields[0]}", fallback=fields[0]) if fields else ""


def _submenu(
    ctx: Ctx, cmds: list[Any], fields: tuple[str, ...], title: str, more: Callable[[], list[Entry]] | None = None
) -> Menu:
    """The list of `cmds`' targets, narrowed by `fields`; `more`: entries only shown, after them."""

    def entries() -> list[Entry]:
        return narrow(ctx, cmds, fields, title) + (more() if more is not None else [])

    if ctx.cat.audit is not None:  # an audit sees every lookup: every sub-menu made, in order
        made = entries()
        hint = ctx.cat.t("prompt.choose_target", what=_target_word(ctx, cmds, fields))
        return Menu(title=title, hint=hint, entries=made)
    hint = ctx.cat.t("prompt.choose_target", what=_target_word(ctx, cmds, fields))
    return LazyMenu(title, hint, make=entries)


def _unbuildable_in_hand(view: Any, buildable: set[str]) -> bool:
    """Would `unbuildable(view, cat, buildable)` list a card (without making its labels)?"""
    return view.seat is not None and bool(set(view.players[view.seat].hand or []) - buildable)


def _group_key(cmd: Any) -> tuple | None:
    """Commands with the same key are offered together; None: on their own."""
    if isinstance(cmd, Ability):
        return ("ability", cmd.name, cmd.option)
    if isinstance(cmd, Build):
        return ("build", cmd.via)
    if isinstance(cmd, Income):
        return ("income",)
    return None


def _group_entry(ctx: Ctx, key: tuple, cmds: list[Any]) -> Entry:
    e = _group(ctx, key, cmds)
    e.ident = key  # the same entry whether it leads to one command or to a list of them
    return e


def _group(ctx: Ctx, key: tuple, cmds: list[Any]) -> Entry:
    cat = ctx.cat
    kind = key[0]
    if kind == "ability":
        label = ability_label(ctx, cmds[0])
        if len(cmds) == 1:
            return leaf(ctx, cmds[0], ident=key)
        return Entry(label, card_text(cat, cmds[0].name), submenu=_submenu(ctx, cmds, ABILITY_FIELDS, label.plain))
    if kind == "build":
        via = key[1]
        if via is None:
            buildable = {c.district for c in cmds}
            if len(cmds) == 1 and not _unbuildable_in_hand(ctx.view, buildable):
                lab = Text(cat.t("cmd.build_one", district="").strip() + " ", end="")
                lab.append_text(district_token(cat, cmds[0].district))
                return leaf(ctx, cmds[0], label=lab, ident=key)
            label = Text(cat.t("cmd.build"), end="")

            def shown() -> list[Entry]:  # every card in hand: those that cannot be built now after the others
                return [Entry(lab, does, disabled=True) for lab, does in unbuildable(ctx.view, cat, buildable)]

            menu = _submenu(ctx, cmds, BUILD_FIELDS, cat.t("cmd.build"), shown)
            return Entry(label, cat.t("cmd.build_does"), submenu=menu)
        label = Text(build_label(cat, via), end="")
        if len(cmds) == 1 and cmds[0].district == via:  # a card with its own way to be built
            lab = Text(cat.t("cmd.build_special", district="").strip() + " ", end="")
            lab.append_text(district_token(cat, via))
            lab.append(" " + cat.t("cmd.build_special_how"), style="italic")
            return leaf(ctx, cmds[0], label=lab, ident=key)
        if len(cmds) == 1:
            return leaf(ctx, cmds[0], label=label + Text(": ") + district_token(cat, cmds[0].district), ident=key)
        return Entry(label, card_text(cat, via), submenu=_submenu(ctx, cmds, BUILD_FIELDS, label.plain))
    if kind == "income":
        if len(cmds) == 1:
            return leaf(ctx, cmds[0], ident=key)
        res, type_ = income_info(ctx)
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


def waiting_menu(view: Any, cat: Catalogue) -> Menu:
    """`build_menu` of a view with nothing to choose (who we wait for): its texts shared by the apps
    of a process, keyed by everything `waiting_sentence` and the game over's `title_for` read."""
    if cat.audit is not None:  # an audit sees every lookup
        return build_menu(view, cat)
    pd, turn = view.pending, view.turn
    key: tuple = (cat.key, None)
    if pd is not None:
        p = view.players[pd.seat] if 0 <= pd.seat < len(view.players) else None
        key = (
            cat.key,
            (pd.kind, pd.seat, pd.mode, pd.about),
            (p.name, p.revealed[-1] if p.revealed else None) if p is not None else None,
            (turn.seat, turn.character) if turn is not None else None,
        )
    texts = _waiting.get(key)
    if texts is None:
        menu = build_menu(view, cat)
        texts = _waiting.put(key, (menu.title, menu.hint))
    return Menu(title=texts[0], hint=texts[1])


def build_menu(view: Any, cat: Catalogue) -> Menu:
    """The top menu for this seat: its legal commands, grouped; or who we wait for."""
    if not view.legal:
        if view.pending is not None and view.pending.kind == "game_over":
            title, hint = title_for(view, cat)
            return Menu(title=title, hint=hint)
        return Menu(title=waiting_sentence(view, cat))
    ctx = Ctx(view, cat)
    title, hint = title_for(view, cat)
    if view.pending is not None and view.pending.kind == "select_cards" and view.pending.options:
        return Menu(title=title, hint=hint, entries=select_entries(ctx))
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
    for e in entries:
        if e.end_turn and e.confirm:
            others = [x.label.plain for x in entries if not x.end_turn]
            e.confirm_hint = cat.t("prompt.end_turn_still", what=cat.names(others))
    return Menu(title=title, hint=hint, entries=entries)


_waiting = Memo(1024)  # waiting_menu's key -> (title, hint)


def confirm_menu(cat: Catalogue, entry: Entry, title: str = "") -> Menu:
    """The one confirmation: the whole sentence of what will happen (every target named, the price),
    chosen with Enter; Esc goes back."""
    if entry.end_turn:
        yes = Entry(Text(cat.t("cmd.end_turn"), style="bold", end=""), entry.detail, command=entry.command, enter=True)
        return Menu(title=cat.t("prompt.end_turn_confirm"), hint=entry.confirm_hint, entries=[yes])
    yes = Entry(Text(entry.detail, style="bold", end=""), "", command=entry.command, enter=True)
    return Menu(title=title or entry.label.plain, hint=cat.t("prompt.confirm_hint"), entries=[yes])


Builder = Callable[[Any, Catalogue], Menu]

__all__ = [
    "ABILITY_FIELDS",
    "BUILD_FIELDS",
    "Checklist",
    "Entry",
    "Menu",
    "about_label",
    "build_menu",
    "checklist_menu",
    "confirm_menu",
    "leaf",
    "select_label",
    "title_for",
    "waiting_menu",
    "waiting_sentence",
    "who",
]
