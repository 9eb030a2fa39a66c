"""Alchemist (rank 6): at the end of his turn he gets back all the gold he paid to
build districts this turn; not gold paid for anything else (Smithy, the tax,
rank-8 prices...). A Poor House resolves before this refund (flow.end_turn runs
the districts' end-of-turn effects before the character's).

`turn.build_gold` counts only gold paid to build (build.finish_build). A card that
gives build gold back during the turn (the Magistrate's confiscation) must take it
off `turn.build_gold` so it is not refunded twice.

Events: alchemist_refund (gold).
"""

from __future__ import annotations

from ..finals import EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


class Alchemist(Role):
    name = "Alchemist"

    def end_turn(self, g: GameState, t: Turn, ev: Events) -> None:
        if t.build_gold > 0:
            g.players[t.seat].gold += t.build_gold
            ev.append(EVENT("alchemist_refund", seat=t.seat, character=self.name, gold=t.build_gold))


role(Alchemist)
