"""Witch (rank 1): first gathers, then must name another character to bewitch; her
turn then pauses (no building, no district effects but those of gathering).

When the bewitched character is called, its player only gathers resources (with
gathering-time district effects) and the turn ends: no build, no ability, not
even "extra" resources; a bewitched King or Patrician still takes the crown
(their `on_reveal`). The Witch then resumes as that character: its abilities,
extra resources, passive effects and restrictions, with her own hand, stash and
city (never the bewitched player's unique districts, since her turn's seat is
hers). If nobody holds the bewitched character she does not resume.

State: the round's `Bewitchment` (public: `bewitched(g)` for the cards that
heed it); the bewitched player's short turn is a gather-only turn
(`Turn.gather_only == "Witch"`), her own a paused one (`Turn.paused`).

Events (kinds):
- `bewitched`: seat (the Witch) names `character`; public.
- `witch_resumed`: seat (the Witch) resumes as `character`, `player` the bewitched player; public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from .. import flow
from ..cardstate import RoundScoped
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn
from ._targets import nameable

if TYPE_CHECKING:
    from ..view import View

NAME: Final = "Witch"


class Bewitchment(RoundScoped):
    """The character the Witch named this round (public)."""

    character: str

    def show(self, g: GameState, seat: int | None, v: View, everything: bool) -> None:
        v.markers.bewitched = self.character


def bewitched(g: GameState) -> str | None:
    """The character bewitched this round, if any."""
    b = Bewitchment.get(g) if g.cards else None  # no call when no card keeps a state
    return b.character if b is not None else None


class Witch(Role):
    name = NAME
    gather_only_reason = "bewitched"
    gather_only_why = "A bewitched character only gathers resources; the turn then ends."
    paused_why = "Your turn is paused until the bewitched character is called."

    def on_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        # She must gather first, and her turn is paused from the start: nothing
        # but gathering (with its district effects) and naming a character.
        t.gather_first = True
        t.paused = True

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used or not t.gathered:
            return []
        return [ABILITY(t.seat, self.name, character=c) for c in nameable(g, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.character is not None
        t.used.append(self.name)
        Bewitchment(character=cmd.character).put(g)
        ev.append(EVENT("bewitched", seat=cmd.seat, character=cmd.character))
        flow.end_turn(g, ev)  # the turn pauses: no end-of-turn effects now

    def must(self, g: GameState, t: Turn) -> str | None:
        if self.name not in t.used:
            return "The Witch must name a character to bewitch."
        return None

    def why(self, g: GameState, cmd: Ability) -> str | None:
        t = g.turn
        if t is not None and not t.gathered:
            return "The Witch gathers resources first, then names a character to bewitch."
        if cmd.character == self.name:
            return "The Witch names another character."
        if cmd.character in g.selection.faceup:
            return f"The {cmd.character} was discarded face up."
        return None

    def on_any_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        if bewitched(g) == t.character and not t.resumed and self.name in g.holders:
            t.gather_only = self.name  # its player only gathers (see flow.finish_gather)

    def on_any_turn_end(self, g: GameState, t: Turn, ev: Events) -> bool:
        if t.gather_only != self.name or bewitched(g) != t.character:
            return False
        witch = g.holders.get(self.name)
        if witch is None:
            return False
        ev.append(EVENT("witch_resumed", seat=witch, player=t.seat, character=t.character))
        flow.begin_turn(g, witch, t.character, ev, resumed=True).gathered = True  # she gathered before
        return True

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        if view.markers.bewitched:
            Bewitchment(character=view.markers.bewitched).put(g)
        tv = view.turn
        if g.turn is not None and tv is not None and tv.gather_only_reason == self.gather_only_reason:
            g.turn.gather_only = self.name


role(Witch)
