"""The classes and constants of the interpreted modules, as `Final` names for compiled code.

Compiled (setup.py), a module reads a `Final` name of a compiled module from a C static, and any other
module-level name from its module's dictionary at every use (some 135 instructions): among them the
msgspec classes of the commands, decisions and events, which stay interpreted. The compiled flow builds
and tests them through the names here (`EVENT(...)`, `type(p) is PLAY_TURN`); annotations keep the
classes' own names. Pure Python, a name here costs what the class's own name does (docs/speed.md).
"""

from __future__ import annotations

from typing import Final

from . import commands, decisions, events, state_structs

# commands
PICK: Final = commands.Pick
DISCARD_CHARACTER: Final = commands.DiscardCharacter
KEEP: Final = commands.Keep
BUILD: Final = commands.Build
INCOME: Final = commands.Income
ABILITY: Final = commands.Ability
CHOOSE: Final = commands.Choose
SELECT: Final = commands.Select
UNSELECT: Final = commands.Unselect
# the commands that carry only a seat, one per seat
TAKE_GOLD: Final = commands.TAKE_GOLD
DRAW_CARDS: Final = commands.DRAW_CARDS
END_TURN: Final = commands.END_TURN
CONFIRM: Final = commands.CONFIRM

# decisions
PICK_CHARACTER: Final = decisions.PickCharacter
PLAY_TURN: Final = decisions.PlayTurn
KEEP_CARDS: Final = decisions.KeepCards
SELECT_CARDS: Final = decisions.SelectCards
CHOICE: Final = decisions.Choice
GAME_OVER: Final = decisions.GameOver

EVENT: Final = events.Event
BUILT: Final = state_structs.Built
