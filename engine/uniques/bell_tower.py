"""Bell Tower (5; The Dark City): when you build it, you may announce that the game
ends after the round in which a city first reaches 7 districts (also if the Bell
Tower is your 7th). If it is later destroyed, the normal end returns.

The announcement is the game's `Announced` (city.complete_at asks it: 7, or less with a
short-game variant); so the Warlord cannot destroy in a city of 7 either. After it,
the cities that already hold 7 districts are complete: the builder's first, then the
others in seating order (the first one found is the first complete city).
Open point decided: `004_...`'s ruling that the other players who already have 7
also get 4 points is not applied; they get the usual 2 for a complete city.
Destroyed (Warlord, Armory): the announcement goes; if the first complete city no longer
reaches the normal size, no city is complete until one does.
Decision: Choice(about "Bell Tower", options "announce" / "pass").
Events: bell_tower (seat, count = 7), bell_tower_passed (seat), city_completed.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..cardstate import GameScoped
from ..city import complete_at, complete_size, size
from ..finals import CHOICE, EVENT
from ..hooks import Events, Unique, choice, unique
from ..state import GameState

if TYPE_CHECKING:
    from ..view import View


class Announced(GameScoped):
    """The game ends after the round in which a city reaches `districts` (public: View.complete_at)."""

    districts: int

    def complete_at(self) -> int | None:
        return self.districts


class BellTower(Unique):
    name = "Bell Tower"

    def on_built(self, g: GameState, seat: int, ev: Events) -> None:
        g.pending = CHOICE(seat, self.name, ["announce", "pass"])

    def on_removed(self, g: GameState, seat: int) -> None:
        if Announced.drop(g) is None:
            return
        first, normal, n = g.first_complete, complete_at(g), len(g.players)
        if first is not None and size(g, first) < normal:
            g.first_complete = next((s for s in [(first + i) % n for i in range(n)] if size(g, s) >= normal), None)

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        if view.complete_at != complete_size(g.rules, len(g.players)):
            Announced(districts=view.complete_at).put(g)  # only the announcement changes it


unique(BellTower)


@choice("Bell Tower")
def announce(g: GameState, seat: int, option: str, ev: Events) -> None:
    if option != "announce":
        ev.append(EVENT("bell_tower_passed", seat=seat))
        return
    at = Announced(districts=min(7, complete_at(g))).put(g).districts
    ev.append(EVENT("bell_tower", seat=seat, count=at))
    if g.first_complete is None:
        n = len(g.players)
        for s in [(seat + i) % n for i in range(n)]:
            if size(g, s) >= at:
                g.first_complete = s
                ev.append(EVENT("city_completed", seat=s, option="first"))
                break
