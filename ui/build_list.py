"""The build list shows every district in hand: the ones that cannot be built now are listed after the
others, dimmed, with the reason (the gold missing, a copy already in the city). From the view alone:
the printed cost against the gold (a card that lowers a cost, the Factory, makes some of them
buildable, and those are then among the legal builds, not here); nothing here is ever sent."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from .cards import district_label, district_type, hand_order, type_fg
from .i18n import Catalogue


def unbuildable(view: Any, cat: Catalogue, buildable: set[str]) -> list[tuple[Text, str]]:
    """(label, why) of each district in hand (once per name) that is not among `buildable`."""
    if view.seat is None:
        return []
    me = view.players[view.seat]
    city = {b.name for b in me.city}
    out = []
    for card in sorted(set(me.hand or []) - buildable, key=lambda c: hand_order(cat, c)):
        cost = cat.cost(card) or 0
        label = Text(f" {district_label(cat, card)} ", style=type_fg(cat, district_type(card)) + " dim", end="")
        if cost > me.gold:
            why = cat.t("build_list.short", n=cost - me.gold)
            detail = cat.t("build_list.short_does", district=cat.district(card), cost=cost, gold=me.gold)
        elif card in city:
            why = cat.t("build_list.in_city")
            detail = cat.t("build_list.in_city_does", district=cat.district(card))
        else:
            why = cat.t("build_list.not_now")
            detail = cat.t("build_list.not_now_does", district=cat.district(card))
        label.append(" " + why, style="dim italic")
        out.append((label, detail))
    return out
