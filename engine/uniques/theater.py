"""Theater (6): at the end of each selection phase, you may exchange your chosen
character card with another player's.

You choose the player blind (without seeing any character). Both players see
their new character; nobody else learns anything until the cards are revealed
in the turn phase. In 2-3 player games (two characters each) you choose which
of your two to give, and take one of the opponent's two at random (g.rng).
Once per round (the round's `TheaterAsked` keeps a resumed selection end from asking twice).

Decision: Choice(about "Theater", options "pass" and, with 4+ players, the
other seats as strings "2"; with 2-3 players "<seat>:<your character to give>",
e.g. "1:King"). Only the owner sees the options.
Events: "theater" (seat=owner, player=the other; public), "theater_received"
(seat, character: the new character, private to that seat), "theater_passed".
"""

from __future__ import annotations

from .. import flow
from ..cardstate import RoundScoped
from ..finals import CHOICE, EVENT
from ..hooks import Events, Unique, choice, unique
from ..rng import Rng
from ..state import GameState


class TheaterAsked(RoundScoped):
    """The Theater's owner was asked this round."""


class Theater(Unique):
    name = "Theater"

    def end_selection(self, g: GameState, seat: int, ev: Events) -> bool:
        if TheaterAsked.get(g) is not None:
            return False
        TheaterAsked().put(g)
        mine = g.players[seat].characters
        others = [s for s in range(len(g.players)) if s != seat and g.players[s].characters]
        if not mine or not others:
            return False
        options = ["pass"]
        if len(mine) == 1:
            options += [str(s) for s in others]
        else:
            options += [f"{s}:{c}" for s in others for c in mine]
        g.pending = CHOICE(seat, about=self.name, options=options)
        return True


unique(Theater)


def exchange(g: GameState, seat: int, other: int, give: str, take: str, ev: Events) -> None:
    me, them = g.players[seat], g.players[other]
    me.characters[me.characters.index(give)] = take
    them.characters[them.characters.index(take)] = give
    g.holders[take] = seat
    g.holders[give] = other
    ev.append(EVENT("theater", seat=seat, player=other))
    ev.append(EVENT("theater_received", seat=seat, character=take, private=[seat]))
    ev.append(EVENT("theater_received", seat=other, character=give, private=[other]))


@choice("Theater")
def resolve(g: GameState, seat: int, option: str, ev: Events) -> None:
    if option == "pass":
        ev.append(EVENT("theater_passed", seat=seat))
    else:
        who, _, give = option.partition(":")
        other = int(who)
        theirs = g.players[other].characters
        if give:  # 2-3 players: one of the opponent's two, at random
            rng = Rng(g.rng)
            take = theirs[rng.below(len(theirs))]
            g.rng = rng.state
        else:
            give, take = g.players[seat].characters[0], theirs[0]
        exchange(g, seat, other, give, take, ev)
    flow.end_selection(g, ev)
