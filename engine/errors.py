"""The error a refused command raises: its message is for the player."""


class IllegalCommand(Exception):
    """A command that the rules refuse now. The state is unchanged."""


class SetupError(ValueError):
    """An impossible game set-up, with a sentence that says why."""
