"""One module per character, each registering its `Role` (see engine.hooks)."""
from . import architect, assassin, bishop, king, magician, merchant, thief, warlord  # noqa: F401
