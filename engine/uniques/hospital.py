"""Hospital (6; The Dark City): if you are killed, you may still take your action
(2 gold or draw cards) when your character is called, but you may not build or use
your character's power.

The flow asks `killed_may_gather` when a killed character is called and gives its
player a gather-only turn (flow.gather_only_turn: no reveal, no build, no ability, no
district effects but gathering ones; the turn ends once resources are gathered). The
turn's `gather_only` names the Hospital (apart from the Witch's bewitchment): the
view's reason is "hospital", and this card explains refusals.
Not used without the Assassin (the 2000 set-up refuses it: engine/edition_setup.py).
Events: gather_only (seat, character), then the gathering events.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..hooks import Unique, unique
from ..state import GameState

if TYPE_CHECKING:
    from ..view import View


class Hospital(Unique):
    name = "Hospital"
    gather_only_reason = "hospital"
    gather_only_why = "Killed, you only gather resources (the Hospital); the turn then ends."

    def killed_may_gather(self, g: GameState, seat: int) -> bool:
        return True

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        tv = view.turn
        if g.turn is not None and tv is not None and tv.gather_only_reason == self.gather_only_reason:
            g.turn.gather_only = self.name


unique(Hospital)
