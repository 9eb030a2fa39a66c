"""Warlord (rank 8): gold per military district; may destroy one district for its
cost minus 1, not in a complete city (his own included), not a district the
Bishop protects or the Keep; the Great Wall adds 1. Destroyed districts go to
the deck bottom (with any cards under a Museum)."""
from __future__ import annotations

from .. import deck
from ..build import remove_built
from ..city import copy_tag, distinct_copies, find_copy, is_complete, rank8_immune, rank8_price, shielded, value
from ..commands import Ability
from ..events import Event
from ..hooks import Role, role


def destroy_price(g, seat, b) -> int:
    return max(value(b) - 1, 0) + rank8_price(g, seat, b)


@role
class Warlord(Role):
    name = "Warlord"

    def abilities(self, g, t):
        if self.name in t.used:
            return []
        gold = g.players[t.seat].gold
        out = []
        for seat, p in enumerate(g.players):
            if not p.city or is_complete(g, seat) or shielded(g, seat):
                continue
            for b in distinct_copies(p.city):
                if not rank8_immune(g, seat, b) and destroy_price(g, seat, b) <= gold:
                    out.append(Ability(t.seat, self.name, player=seat, district=b.name, option=copy_tag(b, p.city)))
        return out

    def act(self, g, cmd, ev):
        g.turn.used.append(self.name)
        victim = cmd.player
        b = find_copy(g, victim, cmd.district, cmd.option)
        price = destroy_price(g, victim, b)
        g.players[cmd.seat].gold -= price
        remove_built(g, victim, b)
        deck.to_bottom(g, [b.name] + b.under)
        ev.append(Event("destroyed", seat=cmd.seat, player=victim, district=b.name, gold=price,
                        character=self.name))

    def why(self, g, cmd):
        if cmd.player is None or not 0 <= cmd.player < len(g.players):
            return "Name a player whose district to destroy."
        if is_complete(g, cmd.player):
            return "A district in a complete city cannot be destroyed."
        if shielded(g, cmd.player):
            return "The Bishop protects that player's districts this round."
        if all(b.name != cmd.district for b in g.players[cmd.player].city):
            return "That city has no such district."
        return None
