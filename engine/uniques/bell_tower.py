"""Bell Tower (5; The Dark City): when you build it, you may announce that the game
ends after the round in which a city first reaches 7 districts (also if the Bell
Tower is your 7th). If it is later destroyed, the normal end returns.

The announcement sets `g.flags["complete_at"]` (city.complete_at: 7, or less with a
short-game variant); so the Warlord cannot destroy in a city of 7 either. After it,
the cities that already hold 7 districts are complete: the builder's first, then the
others in seating order (the first one found is the first complete city).
Open point decided: `004_...`'s ruling that the other players who already have 7
also get 4 points is not applied; they get the usual 2 for a complete city.
Destroyed (Warlord, Armory): the flag goes; if the first complete city no longer
reaches the normal size, no city is complete until one does.
Decision: Choice(about "Bell Tower", options "announce" / "pass").
Events: bell_tower (seat, count = 7), bell_tower_passed (seat), city_completed.
"""

from __future__ import annotations

from ..city import complete_at, size
from ..decisions import Choice
from ..events import Event
from ..hooks import Unique, choice, unique

FLAG = "complete_at"


@unique
class BellTower(Unique):
    name = "Bell Tower"

    def on_built(self, g, seat, ev):
        g.pending = Choice(seat, self.name, ["announce", "pass"])

    def on_removed(self, g, seat):
        if g.flags.pop(FLAG, None) is None:
            return
        first, normal, n = g.first_complete, complete_at(g), len(g.players)
        if first is not None and size(g, first) < normal:
            g.first_complete = next((s for s in [(first + i) % n for i in range(n)] if size(g, s) >= normal), None)


@choice("Bell Tower")
def announce(g, seat, option, ev):
    if option != "announce":
        ev.append(Event("bell_tower_passed", seat=seat))
        return
    g.flags[FLAG] = min(7, complete_at(g))
    ev.append(Event("bell_tower", seat=seat, count=g.flags[FLAG]))
    if g.first_complete is None:
        n = len(g.players)
        for s in [(seat + i) % n for i in range(n)]:
            if size(g, s) >= g.flags[FLAG]:
                g.first_complete = s
                ev.append(Event("city_completed", seat=s, option="first"))
                break
