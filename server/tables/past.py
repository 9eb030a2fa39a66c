"""A resumed table's past: the events of its game so far, rebuilt from the save's command log, so
that players who come back after a server restart find the game's log (each redacted for its seat
when it is sent, as a live table's history is)."""

from __future__ import annotations

import logging
from typing import Any

from engine.savefile import SaveError, bot_doings, bot_played, replay_steps, start
from server.tables.seats import MAX_HISTORY

log = logging.getLogger("citadels.server.tables.past")


def past_events(save: Any) -> tuple[list[Any], bytearray]:
    """(events, per event 1 if a bot chose its command for a person) of `save` (an engine Save), the
    last MAX_HISTORY of them; nothing when the log no longer replays (a game resumed from its
    snapshot): the log then starts empty, as before."""
    try:
        _, events = start(save)
        history = list(events)
        flags = bytearray(len(events))
        stand_ins = bot_played(save)
        for n, cmd, ev, _ in replay_steps(save):
            history.extend(ev)
            flags.extend(bytes(bot_doings(ev, cmd.seat)) if n in stand_ins else bytes(len(ev)))
    except SaveError as e:
        log.warning("table %s: its past events cannot be rebuilt: %s", getattr(save, "id", "?"), e)
        return [], bytearray()
    return history[-MAX_HISTORY:], flags[-MAX_HISTORY:]
