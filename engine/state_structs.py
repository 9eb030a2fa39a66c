"""The parts of the game state that stay msgspec Structs (engine/state.py re-exports them).

- `Built`, a district in a city: every view copies every city's districts (a bot's play-out takes a
  view at each decision), and msgspec builds a Struct in about half the time of a dataclass's
  `__init__` (interpreted code in the pure-Python engine);
- `Score`, a player's final score: its `omit_defaults` keeps the saved scores as they are.

Not in engine/state.py, which the compiled build compiles (docs/speed.md): mypyc cannot compile a
class body with msgspec fields.
"""

from __future__ import annotations

from msgspec import Struct, field


class Built(Struct):
    """A district in a city."""

    name: str
    beautified: bool = False  # Artist: +1 cost and score, once
    under: list[str] = field(default_factory=list)  # Museum: cards kept under it


class Score(Struct, omit_defaults=True):
    """One player's final score with its breakdown."""

    seat: int
    districts: int = 0
    all_types: int = 0
    first_complete: int = 0
    complete: int = 0
    bonuses: dict[str, int] = field(default_factory=dict)  # by unique district name
    total: int = 0
    choices: dict[str, str] = field(default_factory=dict)  # e.g. {"Haunted Quarter": "military"}
    tiebreak: int = -1  # highest rank revealed in the last round
