"""Warlord (rank 8): gold per military district; may destroy one district for its
cost minus 1, not in a complete city (his own included), not a district the
Bishop protects or the Keep; the Great Wall adds 1. Destroyed districts go to
the deck bottom (with any cards under a Museum).

Older editions (g.rules): in the 2000 rules (`rank8_at_end`) he destroys "at the end
of his turn": the ability is offered once he has gathered, and using it ends his
turn (build and take income first); a complete city is one of 8 districts there
(7 once a Bell Tower is announced: city.complete_at). A Graveyard owner other than
the Warlord may then take the destroyed district into hand for 1 gold (Classic and
2000: `Unique.on_rank8_destroyed`; the card waits in the turn's `aside` meanwhile).
The Plague passes between the Warlord and his victim (`hooks.contact`).
"""

from __future__ import annotations

from .. import caches, deck, flow
from ..build import remove_built
from ..cards.editions import COST_TABLE
from ..cardstate import TurnScoped
from ..city import (
    complete_at,
    copy_tag,
    distinct_copies,
    find_copy,
    is_complete,
    owned_uniques,
    rank8_price,
    shielded,
    value,
)
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import UNIQUES, Events, Role, contact, role
from ..state import Built, GameState, Turn


class DestroysAtEnd(TurnScoped):
    """2000: he destroyed at the end of his turn; it ends once the destruction is settled."""


def destruction_settled(g: GameState, ev: Events) -> None:
    """A decision about the destroyed district was answered (the Graveyard): the turn goes on, or
    ends if he destroyed at its end."""
    if g.turn is not None and DestroysAtEnd.get(g.turn) is not None:
        flow.end_turn(g, ev)


def destroy_price(g: GameState, seat: int, b: Built, cc: caches.CityCache | None = None) -> int:
    """What destroying `b` in `seat`'s city costs: its cost minus 1, and the Great Wall's extra.
    `cc`: that city's cache, when the caller has it."""
    price = max(value(b, g) - 1, 0)
    if cc is None:
        cc = caches.city(g, seat)
    return price + rank8_price(g, seat, b) if cc.rank8_extra_cost else price


class Warlord(Role):
    name = "Warlord"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used or (g.rules.rank8_at_end and not t.gathered):
            return []
        gold = g.players[t.seat].gold
        out: list[Ability] = []
        target = complete_at(g)
        any_shield = bool(caches.lineup(g).shields)
        me, name = t.seat, self.name
        costs = COST_TABLE[g.rules.edition]
        for seat, p in enumerate(g.players):
            if not p.city:
                continue
            cc = caches.city(g, seat)  # is_complete, asked with the city's cache at hand
            if cc.size >= target or (any_shield and shielded(g, seat)):
                continue
            # no two districts alike (the common case): distinct_copies would give the city itself
            for b in p.city if len(cc.names) == len(p.city) else distinct_copies(p.city):
                if costs[b.name] - 1 > gold:
                    continue  # too dear whatever is added (destroy_price: at least the printed cost minus 1)
                u = UNIQUES.get(b.name)  # city.rank8_immune: only a unique district may be immune
                if u is not None and u.rank8_immune(g, seat, b.name):
                    continue
                if destroy_price(g, seat, b, cc) <= gold:
                    tag = copy_tag(b, p.city) if b.beautified else None  # only a beautified copy is tagged
                    out.append(ABILITY(me, name, player=seat, district=b.name, option=tag))
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None
        t.used.append(self.name)
        victim = cmd.player
        b = find_copy(g, victim, cmd.district, cmd.option)
        assert b is not None
        price = destroy_price(g, victim, b)
        g.players[cmd.seat].gold -= price
        remove_built(g, victim, b)
        ev.append(EVENT("destroyed", seat=cmd.seat, player=victim, district=b.name, gold=price, character=self.name))
        contact(g, cmd.seat, victim, self.name, ev)
        if g.rules.rank8_at_end:
            DestroysAtEnd().put(t)  # the turn ends once the destruction is settled
        if g.rules.edition != "2016":
            t.aside.append(b.name)  # waits: a Graveyard may take it
            deck.to_bottom(g, b.under)
            for s in range(len(g.players)):
                for u in owned_uniques(g, s):
                    if u.on_rank8_destroyed(g, s, victim, b.name, ev):
                        return  # its decision settles the card, then `destruction_settled`
            t.aside.remove(b.name)
            deck.to_bottom(g, [b.name])
        else:
            deck.to_bottom(g, [b.name] + b.under)
        destruction_settled(g, ev)

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if g.rules.rank8_at_end and g.turn is not None and not g.turn.gathered:
            return "The Warlord destroys at the end of his turn: gather resources first."
        if cmd.player is None or not 0 <= cmd.player < len(g.players):
            return "Name a player whose district to destroy."
        if is_complete(g, cmd.player):
            return "A district in a complete city cannot be destroyed."
        if shielded(g, cmd.player):
            return "The Bishop protects that player's districts this round."
        if all(b.name != cmd.district for b in g.players[cmd.player].city):
            return "That city has no such district."
        return None


role(Warlord)
