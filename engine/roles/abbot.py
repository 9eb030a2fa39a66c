"""Abbot (rank 5): income per religious district as any mix of gold and cards,
declared before taking (turn.income_options offers Income(gold=k) for every
split; the School of Magic counts as one resource of either kind).

If at any moment of his turn he is not the richest player, the richest player
must give him 1 gold: an Ability(player=...) naming one of the richest players
(he chooses among tied richest); nothing if he is among the tied richest.
Once per turn; he claims it when he likes (abilities are used when the player
chooses, and a richer player may appear after he builds).

2000 edition (The Dark City): income 1 gold per religious district, no cards
(engine/cards/editions.py INCOME); the richest player gives him 1 gold, and nothing if
several players are tied richest (the Abbot himself counted: nothing if he is among
them). One Ability(player=the richest), once, at any time of his turn.

Events: abbot_tithe (seat = the Abbot, player = the giver, gold = 1).
"""

from __future__ import annotations

from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


def richest_others(g: GameState, seat: int) -> list[int]:
    """The richest players if they are strictly richer than `seat`, else []."""
    mine = g.players[seat].gold
    top = max((p.gold for s, p in enumerate(g.players) if s != seat), default=0)
    if top <= mine:
        return []
    return [s for s, p in enumerate(g.players) if s != seat and p.gold == top]


class Abbot(Role):
    name = "Abbot"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        rich = richest_others(g, t.seat)
        if g.rules.edition == "2000" and len(rich) > 1:
            return []  # a tie for the richest: nothing
        return [ABILITY(t.seat, self.name, player=s) for s in rich]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None
        t.used.append(self.name)
        g.players[cmd.player].gold -= 1
        g.players[cmd.seat].gold += 1
        ev.append(EVENT("abbot_tithe", seat=cmd.seat, player=cmd.player, gold=1, character=self.name))

    def why(self, g: GameState, cmd: Ability) -> str | None:
        rich = richest_others(g, cmd.seat)
        if not rich:
            return "You are among the richest players: nobody gives you gold."
        if g.rules.edition == "2000" and len(rich) > 1:
            return "The richest players are tied: nobody gives you gold."
        return "Only the richest player gives you 1 gold (choose one of the richest if they are tied)."


role(Abbot)
