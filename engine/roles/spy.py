"""Spy (rank 2): names another player and a district type (noble, religious,
trade, military or unique) and looks at that player's hand; for each matching
card takes 1 gold from that player's stash (as far as it goes) and gains 1 card
from the deck (for every match, even when the gold ran out).

Events (kinds):
- `spied`: seat (the Spy) looks at `player`'s hand, `option` the type named; `cards` the hand
  (private to the Spy and the player); `count` matching cards, `gold` taken (public).
- `spy_gained`: seat (the Spy) gains `count` cards, `cards` them (private to the Spy).
"""

from __future__ import annotations

from .. import deck
from ..cards.districts import DISTRICTS, TYPES
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn
from ._targets import others


class Spy(Role):
    name = "Spy"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        return [ABILITY(t.seat, self.name, player=s, kind=k) for s in others(g, t.seat) for k in TYPES]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None and cmd.kind is not None
        t.used.append(self.name)
        spy, victim = g.players[cmd.seat], g.players[cmd.player]
        hand = list(victim.hand)
        matches = sum(1 for c in hand if DISTRICTS[c].type == cmd.kind)
        gold = min(matches, victim.gold)
        victim.gold -= gold
        spy.gold += gold
        ev.append(
            EVENT(
                "spied",
                seat=cmd.seat,
                player=cmd.player,
                option=cmd.kind,
                cards=hand,
                count=matches,
                gold=gold,
                private=[cmd.seat, cmd.player],
            )
        )
        if matches:
            got = deck.gain_cards(g, cmd.seat, matches)
            ev.append(EVENT("spy_gained", seat=cmd.seat, count=len(got), cards=got, private=[cmd.seat]))

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if cmd.player == cmd.seat:
            return "The Spy looks at another player's hand."
        if cmd.kind not in TYPES:
            return f"Name a district type: {', '.join(TYPES)}."
        return None


role(Spy)
