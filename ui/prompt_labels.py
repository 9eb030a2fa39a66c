"""Labels and sentences of the prompt's commands: a command's fields as words, what it will do.

`Ctx` holds the view and the catalogue; `ability_label`/`ability_does`, `build_does` and
`value_label` turn a command (or one of its target values) into the words the prompt shows,
from the catalogue's keys (`ability.<Card>`, `ability.<Card>_does`, `build.<via>` ...; see
the catalogues, `ui/i18n/locale/`), with generic stand-ins for cards the catalogue does not know.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS
from engine.commands import Ability, Build

from .cards import district_token, district_type
from .i18n import Catalogue
from .prompt_prices import ability_price

ABILITY_FIELDS = ("player", "character", "district", "card", "kind")
BUILD_FIELDS = ("district", "using", "player")


class Ctx:
    """What labels and descriptions need: the view, the catalogue, the player names."""

    def __init__(self, view: Any, cat: Catalogue) -> None:
        self.view = view
        self.cat = cat

    def player_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.view.players):
            return "?"
        return self.view.players[seat].name

    def hand_size(self, seat: int | None) -> int | None:
        if seat is None or not 0 <= seat < len(self.view.players):
            return None
        return self.view.players[seat].hand_size

    def built_cost(self, seat: int | None, district: str | None, tag: str | None = None) -> str:
        """A district's cost in `seat`'s city, +1 if beautified; `tag` "beautified" names that copy
        (engine.city.find_copy: otherwise a plain copy first)."""
        if district is None:
            return "?"
        d = DISTRICTS.get(district)
        base = self.cat.cost(district) or 0
        if seat is not None and 0 <= seat < len(self.view.players):
            copies = [b for b in self.view.players[seat].city if b.name == district]
            if copies:
                want = tag == "beautified"
                b = next((b for b in copies if b.beautified == want), copies[0])
                return str(base + (1 if b.beautified else 0))
        return str(base) if d else "?"

    def fields(self, cmd: Any) -> dict[str, Any]:
        """The command's fields as words: names for seats, translated card names; None when absent
        (a sentence that needs an absent field shows "?"). Also {cost} (a targeted district's),
        {price}/{to_owner} (what a rank-8 ability pays), {my_cards}/{their_cards} (hand sizes)."""
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
        tag = getattr(cmd, "option", None)
        out["cost"] = self.built_cost(getattr(cmd, "player", None), district, tag) if district else None
        price = ability_price(self.view, cmd)
        out["price"] = price.total if price is not None else None
        out["to_owner"] = price.to_owner if price is not None else None
        out["my_cards"] = self.hand_size(getattr(cmd, "seat", None))
        out["their_cards"] = self.hand_size(getattr(cmd, "player", None))
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
        if f == "character":  # the rank is the entry's key (ui.prompt_keys): the name alone
            return Text(cat.character(v), style="bold", end="")
        if f in ("district", "card", "using"):
            if v in DISTRICTS:
                return district_token(cat, v)
            return Text(cat.card(v), end="")
        if f == "kind":
            return Text(cat.kind(v), end="")
        return Text(str(v), end="")


# --- abilities -------------------------------------------------------------------------------
def _ability_keys(cmd: Ability) -> list[str]:
    keys = []
    if cmd.option is not None:
        keys.append(f"ability.{cmd.name}.{cmd.option}")
    keys.append(f"ability.{cmd.name}")
    return keys


def ability_label(ctx: Ctx, cmd: Ability) -> Text:
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


# `<ability key>_does<suffix>`, told instead when the field is 0.
ZERO_SENTENCES = (("_does_free", "price"), ("_does_they_have_none", "their_cards"), ("_does_you_have_none", "my_cards"))


def ability_does(ctx: Ctx, cmd: Ability) -> str:
    cat = ctx.cat
    f = ctx.fields(cmd)
    # a zero is another sentence: "it costs you nothing", not "you pay 0 gold"
    zero = [s for s, field in ZERO_SENTENCES if f.get(field) == 0]
    for k in _ability_keys(cmd):
        for suffix in zero:
            if cat.has(k + suffix):
                return cat.t(k + suffix, **f)
        if cat.has(k + "_does"):
            return cat.t(k + "_does", **f)
    text = cat.character_text(cmd.name) if cmd.name in CHARACTERS else cat.district_text(cmd.name)
    targets = ", ".join(
        f"{k}: {f[k] or '?'}" for k in ABILITY_FIELDS + ("option",) if getattr(cmd, k, None) is not None
    )
    return cat.t("ability.fallback_does", text=text + (f" ({targets})" if targets else ""))


def card_text(cat: Catalogue, name: str) -> str:
    """A card's rule text: a character's or a unique district's."""
    return cat.character_text(name) if name in CHARACTERS else cat.district_text(name)


# --- builds and income -------------------------------------------------------------------------
def build_label(cat: Catalogue, via: str) -> str:
    """The label of the builds paid another way, by `via` (`build.<via>`)."""
    key = f"build.{via}"
    return cat.t(key) if cat.has(key) else cat.t("cmd.build_via", via=cat.card(via))


def build_does(ctx: Ctx, cmd: Build) -> str:
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


def income_info(ctx: Ctx) -> tuple[str, str]:
    """(resource, district type) of the income of the character playing."""
    t = ctx.view.turn
    income_type, income_kind = ctx.cat.income(t.character if t is not None else None)
    if income_type is None:
        return "?", "?"
    res = "cards" if income_kind == "cards" else "gold"
    return ctx.cat.kind(res), ctx.cat.type_name(income_type)
