"""Emperor (rank 4): 1 gold per noble district (income, see the data table).

At some moment of his turn he must take the crown from its holder and give it to
a different player, not to himself (nor leave it with its holder), and takes
from that player, his choice, 1 gold from their stash or 1 random card from their
hand; nothing if they have neither. The turn cannot end before (must).
One Ability(player=..., option="gold" | "card" | "nothing") per possible target;
"nothing" only when that player has neither.

The ability acts for the seat playing the turn (`turn.seat`), so a Witch resuming
as a bewitched Emperor chooses the new crowned player and takes the resource.

Killed: at round end his card is revealed and, as the Emperor's adviser, his
player gives the crown the same way without taking anything: a Choice
(about "Emperor.crown", options = the eligible seats as strings) for his
player; the flow waits for it before the next round or the end of the game.
Never used with 2 players (setup.check_lineup); with 3 or more players there is
always someone who is neither the holder nor the Emperor.

2000 edition (The Dark City): the crowned player chooses what to give: 1 gold or 1
card of their choice from their hand (nothing if they have neither). One
Ability(player=...) per eligible player (option None), then a Choice (about
"Emperor.tribute", options "gold" and the distinct cards of that hand, seen only by
that player); the Emperor's turn goes on once it is answered. Open point decided: a
killed Emperor is handled as in 2016 (his adviser gives the crown at round end).

Events: crown_moved (from engine.crown, character "Emperor"), emperor_took
(player, gold=1 or card private to both players, option "gold"/"card"/"nothing"),
revealed (option "adviser") for the killed Emperor at round end.
"""

from __future__ import annotations

from typing import Final

from .. import flow
from ..commands import Ability
from ..crown import give_crown
from ..finals import ABILITY, CHOICE, EVENT
from ..hooks import Events, Role, choice, role
from ..rng import Rng
from ..state import GameState, Turn, current_turn

TRIBUTE: Final = "Emperor.tribute"  # 2000: the crowned player's choice of what to give


def eligible(g: GameState, seat: int) -> list[int]:
    """Who may receive the crown from `seat`: neither its holder nor `seat`."""
    return [s for s in range(len(g.players)) if s != seat and s != g.crown]


class Emperor(Role):
    name = "Emperor"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        if g.rules.edition == "2000":
            return [ABILITY(t.seat, self.name, player=s) for s in eligible(g, t.seat)]
        out = []
        for s in eligible(g, t.seat):
            p = g.players[s]
            if p.gold:
                out.append(ABILITY(t.seat, self.name, player=s, option="gold"))
            if p.hand:
                out.append(ABILITY(t.seat, self.name, player=s, option="card"))
            if not p.gold and not p.hand:
                out.append(ABILITY(t.seat, self.name, player=s, option="nothing"))
        return out

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None
        t.used.append(self.name)
        target = cmd.player
        give_crown(g, target, ev, self.name)
        victim, me = g.players[target], g.players[cmd.seat]
        if g.rules.edition == "2000":  # the crowned player chooses what to give
            if victim.gold or victim.hand:
                g.pending = CHOICE(
                    target, TRIBUTE, (["gold"] if victim.gold else []) + list(dict.fromkeys(victim.hand))
                )
            else:
                ev.append(EVENT("emperor_took", seat=cmd.seat, player=target, option="nothing"))
            return
        if cmd.option == "gold":
            victim.gold -= 1
            me.gold += 1
            ev.append(EVENT("emperor_took", seat=cmd.seat, player=target, gold=1, option="gold"))
        elif cmd.option == "card":
            rng = Rng(g.rng)
            card = victim.hand.pop(rng.below(len(victim.hand)))
            g.rng = rng.state
            me.hand.append(card)
            ev.append(
                EVENT(
                    "emperor_took",
                    seat=cmd.seat,
                    player=target,
                    card=card,
                    count=1,
                    option="card",
                    private=[cmd.seat, target],
                )
            )
        else:
            ev.append(EVENT("emperor_took", seat=cmd.seat, player=target, option="nothing"))

    def must(self, g: GameState, t: Turn) -> str | None:
        if self.name not in t.used:
            return "The Emperor must first give the crown to another player."
        return None

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if cmd.player is None or not 0 <= cmd.player < len(g.players):
            return "Name the player who receives the crown."
        if cmd.player == cmd.seat:
            return "The Emperor cannot give the crown to himself."
        if cmd.player == g.crown:
            return "That player already holds the crown: give it to a different player."
        p = g.players[cmd.player]
        if cmd.option == "gold" and not p.gold:
            return "That player has no gold to take."
        if cmd.option == "card" and not p.hand:
            return "That player has no cards to take."
        if cmd.option == "nothing" and (p.gold or p.hand):
            return "Take 1 gold or 1 random card from that player."
        return None

    def end_round(self, g: GameState, ev: Events) -> bool:
        seat = g.holders.get(self.name)
        if seat is None or g.markers.killed != self.name:
            return False
        ev.append(EVENT("revealed", seat=seat, character=self.name, option="adviser"))
        g.revealed.setdefault(self.name, seat)
        g.pending = CHOICE(seat, about="Emperor.crown", options=[str(s) for s in eligible(g, seat)])
        return True


role(Emperor)


@choice("Emperor.tribute")
def tribute(g: GameState, seat: int, option: str, ev: Events) -> None:
    emperor = current_turn(g).seat
    victim, me = g.players[seat], g.players[emperor]
    if option == "gold":
        victim.gold -= 1
        me.gold += 1
        ev.append(EVENT("emperor_took", seat=emperor, player=seat, gold=1, option="gold"))
    else:
        victim.hand.remove(option)
        me.hand.append(option)
        ev.append(
            EVENT(
                "emperor_took", seat=emperor, player=seat, card=option, count=1, option="card", private=[emperor, seat]
            )
        )


@choice("Emperor.crown")
def adviser_gives_crown(g: GameState, seat: int, option: str, ev: Events) -> None:
    give_crown(g, int(option), ev, "Emperor")
    flow.end_round(g, ev)  # go on with the end of the round
