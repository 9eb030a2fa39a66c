"""Marshal (rank 8): 1 gold per military district (income, see the data table).

May seize (once, at any time of the turn) a district of cost 3 or less (an
Artist's beautified district costs 1 more) from another player's city, paying
its owner its cost, and adds it to his city. Not from a complete city (his own
may be complete); not a district identical to one already in his city (even
with a Quarry). The Bishop protects (city.shielded), the Keep cannot be seized
(city.rank8_immune), the Great Wall makes him pay more (city.rank8_price; that
extra goes to the bank). The seized district keeps its beautification and any
cards under it (Museum). It is not built: no tax, no build limit.

Events: seized (seat, player, district, gold = paid to the owner, count = extra paid to the bank).
"""

from __future__ import annotations

from typing import Final

from .. import caches
from ..build import check_complete
from ..city import copy_tag, has, is_complete, rank8_immune, rank8_price, shielded, value
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import Built, GameState, Turn

MAX_COST: Final = 3


def _candidates(g: GameState, me: int, seat: int) -> dict[tuple[str, str | None], tuple[Built, int]]:
    """The seizable districts of `seat`'s city: (Built, price) by (name, copy tag)."""
    out: dict[tuple[str, str | None], tuple[Built, int]] = {}
    for b in g.players[seat].city:
        key = (b.name, copy_tag(b, g.players[seat].city))
        if key in out or value(b) > MAX_COST or has(g, me, b.name) or rank8_immune(g, seat, b):
            continue
        out[key] = (b, value(b) + rank8_price(g, seat, b))
    return out


class Marshal(Role):
    name = "Marshal"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        gold = g.players[t.seat].gold
        out = []
        for seat, p in enumerate(g.players):
            if seat == t.seat or not p.city or is_complete(g, seat) or shielded(g, seat):
                continue
            for (name, tag), (_b, price) in _candidates(g, t.seat, seat).items():
                if price <= gold:
                    out.append(ABILITY(t.seat, self.name, player=seat, district=name, option=tag))
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None and cmd.district is not None
        t.used.append(self.name)
        owner = cmd.player
        b, price = _candidates(g, cmd.seat, owner)[(cmd.district, cmd.option)]
        cost = value(b)
        g.players[cmd.seat].gold -= price
        g.players[owner].gold += cost
        g.players[owner].city.remove(b)
        caches.city_changed(g.players[owner])
        caches.add_district(g, cmd.seat, b)
        ev.append(
            EVENT(
                "seized",
                seat=cmd.seat,
                player=owner,
                district=b.name,
                gold=cost,
                count=price - cost,
                character=self.name,
            )
        )
        check_complete(g, cmd.seat, ev)

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if cmd.player is None or not 0 <= cmd.player < len(g.players) or cmd.player == cmd.seat:
            return "Name another player whose district to seize."
        if is_complete(g, cmd.player):
            return "A district in a complete city cannot be seized."
        if shielded(g, cmd.player):
            return "The Bishop protects that player's districts this round."
        b = next((b for b in g.players[cmd.player].city if b.name == cmd.district), None)
        if b is None:
            return "That city has no such district."
        if rank8_immune(g, cmd.player, b):
            return f"The {b.name} cannot be seized."
        if has(g, cmd.seat, b.name):
            return f"Your city already has a {b.name}: the Marshal cannot seize an identical district."
        if value(b) > MAX_COST:
            return "The Marshal seizes only districts that cost 3 or less."
        return "You do not have enough gold to pay for that district."


role(Marshal)
