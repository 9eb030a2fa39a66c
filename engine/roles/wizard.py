"""Wizard (rank 3): looks at another player's hand and takes one of its cards;
either pays to build it at once (outside the build limit) or adds it to his
hand. This turn he may build districts identical to ones in his city.

Flow: `Ability(Wizard, player=<seat>)` (players with cards), then `Choice`
"Wizard.take" (options: the cards of that hand, seen only by the Wizard), then
`Choice` "Wizard.use": "build" (when he can pay and the card may be built) or
"keep". While that second question is open the card is set aside (`Turn.aside`);
the turn's `WizardLook` keeps whose hand he looked at and whether the card is being
built at once.

2000 edition: only the card built at once may be identical to a district of his city;
his other builds follow the usual rule.

Events (kinds):
- `wizard_looked`: seat (the Wizard) looks at `player`'s hand, `cards` it (private to both).
- `wizard_took`: seat takes `card` from `player` (card private to both; `count` 1 public).
- built districts use the core `built` event with `option` "Wizard".
"""

from __future__ import annotations

from typing import Final

from ..build import cost_for, finish_build
from ..cardstate import TurnScoped
from ..commands import Ability
from ..finals import ABILITY, CHOICE, EVENT
from ..hooks import UNIQUES, Events, Role, choice, role
from ..state import GameState, Turn, current_turn
from ._targets import others

TAKE: Final = "Wizard.take"
USE: Final = "Wizard.use"


class WizardLook(TurnScoped):
    """The player whose hand the Wizard looks at; `now` while the taken card is built at once."""

    victim: int = -1
    now: bool = False


def _building_now(t: Turn) -> bool:
    w = WizardLook.get(t)
    return w is not None and w.now


class Wizard(Role):
    name = "Wizard"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        return [ABILITY(t.seat, self.name, player=s) for s in others(g, t.seat) if g.players[s].hand]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.player is not None
        t.used.append(self.name)
        WizardLook(victim=cmd.player).put(t)
        hand = g.players[cmd.player].hand
        ev.append(
            EVENT(
                "wizard_looked",
                seat=cmd.seat,
                player=cmd.player,
                cards=list(hand),
                count=len(hand),
                private=[cmd.seat, cmd.player],
            )
        )
        g.pending = CHOICE(cmd.seat, TAKE, list(dict.fromkeys(hand)))

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if cmd.player == cmd.seat:
            return "The Wizard looks at another player's hand."
        if cmd.player is not None and 0 <= cmd.player < len(g.players) and not g.players[cmd.player].hand:
            return "That player has no cards."
        return None

    def allows_duplicates(self, g: GameState, t: Turn) -> bool:
        return g.rules.edition != "2000" or _building_now(t)

    def exempt_from_limit(self, g: GameState, t: Turn, district: str) -> bool:
        return _building_now(t)


role(Wizard)


@choice(TAKE)
def take(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    look = WizardLook.drop(t)
    assert look is not None
    victim = look.victim
    g.players[victim].hand.remove(option)
    t.aside.append(option)
    ev.append(EVENT("wizard_took", seat=seat, player=victim, card=option, count=1, private=[seat, victim]))
    options = ["keep"]
    u = UNIQUES.get(option)
    if g.players[seat].gold >= cost_for(g, seat, option) and (u is None or u.can_build(g, seat)):
        options.insert(0, "build")
    g.pending = CHOICE(seat, USE, options)


@choice(USE)
def use(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    card = t.aside.pop()
    g.players[seat].hand.append(card)
    if option != "build":
        return
    cost = cost_for(g, seat, card)
    g.players[seat].gold -= cost
    WizardLook(now=True).put(t)  # built at once: outside the build limit
    finish_build(g, t, card, cost, "Wizard", ev)
    WizardLook.drop(t)
