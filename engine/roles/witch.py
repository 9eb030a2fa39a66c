"""Witch (rank 1): first gathers, then must name another character to bewitch; her
turn then pauses (no building, no district effects but those of gathering).

When the bewitched character is called, its player only gathers resources (with
gathering-time district effects) and the turn ends: no build, no ability, not
even "extra" resources; a bewitched King or Patrician still takes the crown
(their `on_reveal`). The Witch then resumes as that character: its abilities,
extra resources, passive effects and restrictions, with her own hand, stash and
city (never the bewitched player's unique districts, since her turn's seat is
hers). If nobody holds the bewitched character she does not resume.

Events (kinds):
- `bewitched`: seat (the Witch) names `character`; public.
- `witch_resumed`: seat (the Witch) resumes as `character`, `player` the bewitched player; public.
"""

from __future__ import annotations

from ..commands import Ability
from ..events import Event
from ..hooks import Role, role
from ._targets import nameable


@role
class Witch(Role):
    name = "Witch"

    def on_reveal(self, g, t, ev):
        # She must gather first, and her turn is paused from the start: nothing
        # but gathering (with its district effects) and naming a character.
        t.gather_first = True
        t.paused = True

    def abilities(self, g, t):
        if self.name in t.used or not t.gathered:
            return []
        return [Ability(t.seat, self.name, character=c) for c in nameable(g, self.name)]

    def act(self, g, cmd, ev):
        from .. import flow

        t = g.turn
        t.used.append(self.name)
        g.markers.bewitched = cmd.character
        ev.append(Event("bewitched", seat=cmd.seat, character=cmd.character))
        flow.end_turn(g, ev)  # the turn pauses: no end-of-turn effects now

    def must(self, g, t):
        if self.name not in t.used:
            return "The Witch must name a character to bewitch."
        return None

    def why(self, g, cmd):
        t = g.turn
        if not t.gathered:
            return "The Witch gathers resources first, then names a character to bewitch."
        if cmd.character == self.name:
            return "The Witch names another character."
        if cmd.character in g.selection.faceup:
            return f"The {cmd.character} was discarded face up."
        return None

    def on_any_reveal(self, g, t, ev):
        if g.markers.bewitched == t.character and not t.resumed and self.name in g.holders:
            t.bewitched = True  # its player only gathers (see flow.finish_gather)

    def on_any_turn_end(self, g, t, ev):
        if not t.bewitched or g.markers.bewitched != t.character:
            return False
        witch = g.holders.get(self.name)
        if witch is None:
            return False
        from .. import flow

        ev.append(Event("witch_resumed", seat=witch, player=t.seat, character=t.character))
        flow.begin_turn(g, witch, t.character, ev, resumed=True)
        g.turn.gathered = True  # she gathered before her turn paused
        return True
