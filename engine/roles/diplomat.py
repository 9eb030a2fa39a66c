"""Diplomat (rank 8): 1 gold per military district (income, see the data table).

May exchange (once, at any time of the turn) one district of his city for one
in another player's city, paying that player the cost difference from his
stash when theirs costs more (nothing back when his costs more). Costs include
the Artist's +1. Not a district of a complete city (his own city may be
complete). He may not receive a district identical to one in his city, nor
give one identical to one in theirs (so never the same name both ways; the
Quarry does not help). The Bishop protects the other player's districts
(city.shielded); the Keep cannot be exchanged, neither taken nor given (its text
forbids the rank-8 ability on it; our reading for giving); the Great Wall
applies to the district he takes, not the one he gives (city.rank8_price on
theirs only; that extra goes to the bank). Districts move with their
beautification and any cards under them (Museum). Nothing is built: no tax,
no build limit. A Monument exchanged may complete a city (both are checked).

Command: Ability(name="Diplomat", player=other, district=theirs, card=his own district);
with two copies of one district in a city (Quarry) and one beautified, `option`
tells which of theirs and `kind` which of his ("beautified" or None).

2000 edition (The Dark City): the same rules (open points decided: no district of a
complete city, nothing identical either way, as in 2016); the Graveyard is not used
with him (engine/edition_setup.py); the Plague passes with an exchange.

Events: exchanged (seat, player, district = taken, card = given, gold = paid to
the other player, count = extra paid to the bank).
"""

from __future__ import annotations

from .. import caches
from ..build import check_complete
from ..city import copy_tag, has, is_complete, rank8_immune, rank8_price, shielded, value
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, contact, role
from ..state import Built, GameState, Turn

Copies = dict[tuple[str, str | None], Built]  # districts by (name, copy tag)


def _price(g: GameState, me: int, mine: Built, seat: int, theirs: Built) -> tuple[int, int]:
    """(gold to the other player, extra gold to the bank)."""
    return max(value(theirs, g) - value(mine, g), 0), rank8_price(g, seat, theirs)


def _mine(g: GameState, me: int) -> Copies:
    out: Copies = {}
    for b in g.players[me].city:
        key = (b.name, copy_tag(b, g.players[me].city))
        if key not in out and not rank8_immune(g, me, b):
            out[key] = b
    return out


def _theirs(g: GameState, me: int, seat: int) -> Copies:
    out: Copies = {}
    for b in g.players[seat].city:
        key = (b.name, copy_tag(b, g.players[seat].city))
        if key not in out and not rank8_immune(g, seat, b) and not has(g, me, b.name):
            out[key] = b
    return out


class Diplomat(Role):
    name = "Diplomat"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        me = t.seat
        mine = _mine(g, me)
        if not mine:
            return []
        gold = g.players[me].gold
        out = []
        for seat, p in enumerate(g.players):
            if seat == me or not p.city or is_complete(g, seat) or shielded(g, seat):
                continue
            theirs = _theirs(g, me, seat)
            for tb in theirs.values():
                for mb in mine.values():
                    if has(g, seat, mb.name):
                        continue
                    diff, extra = _price(g, me, mb, seat, tb)
                    if diff + extra <= gold:
                        out.append(
                            ABILITY(
                                me,
                                self.name,
                                player=seat,
                                district=tb.name,
                                card=mb.name,
                                option=copy_tag(tb, p.city),
                                kind=copy_tag(mb, g.players[me].city),
                            )
                        )
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None and cmd.district is not None and cmd.card is not None
        t.used.append(self.name)
        me, other = cmd.seat, cmd.player
        mb = _mine(g, me)[(cmd.card, cmd.kind)]
        tb = _theirs(g, me, other)[(cmd.district, cmd.option)]
        diff, extra = _price(g, me, mb, other, tb)
        g.players[me].gold -= diff + extra
        g.players[other].gold += diff
        g.players[me].city.remove(mb)
        g.players[other].city.remove(tb)
        caches.add_district(g, me, tb)
        caches.add_district(g, other, mb)
        ev.append(
            EVENT(
                "exchanged",
                seat=me,
                player=other,
                district=tb.name,
                card=mb.name,
                gold=diff,
                count=extra,
                character=self.name,
            )
        )
        check_complete(g, me, ev)
        check_complete(g, other, ev)
        contact(g, me, other, self.name, ev)  # the Plague (2000 variant)

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if cmd.player is None or not 0 <= cmd.player < len(g.players) or cmd.player == cmd.seat:
            return "Name another player to exchange a district with."
        if is_complete(g, cmd.player):
            return "You cannot take a district from a complete city."
        if shielded(g, cmd.player):
            return "The Bishop protects that player's districts this round."
        tb = next((b for b in g.players[cmd.player].city if b.name == cmd.district), None)
        mb = next((b for b in g.players[cmd.seat].city if b.name == cmd.card), None)
        if tb is None:
            return "That city has no such district."
        if mb is None:
            return "Give one of the districts of your own city."
        if rank8_immune(g, cmd.player, tb) or rank8_immune(g, cmd.seat, mb):
            return "That district cannot be exchanged."
        if has(g, cmd.seat, tb.name):
            return f"Your city already has a {tb.name}: you cannot receive an identical district."
        if has(g, cmd.player, mb.name):
            return f"That city already has a {mb.name}: you cannot give an identical district."
        return "You do not have enough gold to pay the cost difference."


role(Diplomat)
