"""The Citadels rules engine: pure, synchronous, deterministic from a seed.

Public API:
    new_game(GameConfig) -> (GameState, events)
    legal_commands(state, seat) -> list[Command]
    apply(state, command) -> events          (raises IllegalCommand, state unchanged)
    view(state, seat | None) -> View         (what that seat may know)
    redact_event(event, seat) -> Event
"""

from . import roles as _roles  # noqa: F401  (registers the characters)
from . import uniques as _uniques  # noqa: F401  (registers the unique districts)
from . import variants as _variants  # noqa: F401  (registers the rules variants: the Plague)
from .apply import apply, explain, waiting_for
from .commands import Command
from .errors import IllegalCommand, SetupError
from .events import Event
from .legal import legal_commands
from .setup import GameConfig, new_game
from .state import GameState, copy_state
from .view import View, redact_event, redact_events, view, view_bytes

__all__ = [
    "Command",
    "Event",
    "GameConfig",
    "GameState",
    "IllegalCommand",
    "SetupError",
    "View",
    "apply",
    "copy_state",
    "explain",
    "legal_commands",
    "new_game",
    "redact_event",
    "redact_events",
    "view",
    "view_bytes",
    "waiting_for",
]
