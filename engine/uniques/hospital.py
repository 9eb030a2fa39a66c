"""Hospital (6; The Dark City): if you are killed, you may still take your action
(2 gold or draw cards) when your character is called, but you may not build or use
your character's power.

The flow asks `killed_may_gather` when a killed character is called and gives its
player a gather-only turn (flow.gather_only_turn: no reveal, no build, no ability, no
district effects but gathering ones; the turn ends once resources are gathered).
Not used without the Assassin (the 2000 set-up refuses it: engine/edition_setup.py).
Events: gather_only (seat, character), then the gathering events.
"""

from __future__ import annotations

from ..hooks import Unique, unique


@unique
class Hospital(Unique):
    name = "Hospital"

    def killed_may_gather(self, g, seat):
        return True
