"""The lobby's refusals: one sentence for the player, and a cause for the log and the host."""

from __future__ import annotations


class LobbyError(Exception):
    """A lobby request that cannot be done. The message is one sentence for the player; `cause` is a
    short word for the log and the host's counters ("table_limit", "not_owner", "code_guesses"...)."""

    def __init__(self, message: str, cause: str = "refused") -> None:
        super().__init__(message)
        self.cause = cause
