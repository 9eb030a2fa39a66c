"""Playing a cluster table as its people do: each seat's keys pressed on its screen, from the seat's
view as the table's log has it (tests/cluster/harness.py's GameFollower), until the game ends."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ui.i18n import Catalogue

from .harness import ESC, GameFollower, Player


async def play_to_end(
    follower: GameFollower,
    players: dict[int, Player],
    rng: Any,
    timeout: float = 180.0,
    on_move: Any = None,
    stop_at: int | None = None,
) -> int:
    """Press keys for every decision of the seats in `players` until the game ends (or reaches
    `stop_at` commands); the number of presses. A press that changes nothing (a screen not
    ready, a table moving) is made again."""
    cat = Catalogue("en")
    presses = 0
    deadline = time.monotonic() + timeout
    while follower.state.phase != "over" and (stop_at is None or follower.seq < stop_at):
        assert time.monotonic() < deadline, f"game not over in {timeout} s (seq {follower.seq})"
        seat = follower.state.pending.seat
        seq = follower.seq
        if seat not in players:
            await follower.wait(lambda s=seq: follower.seq != s, timeout=30, what=f"a bot's move after {seq}")
            continue
        player = players[seat]
        # its screen drew the view of this command (its decision is new), then went quiet; the view may
        # reach the screen a little before the follower reads the command from the stream
        await player.output_since(follower.arrived.get(seq, 0.0) - 0.1, timeout=5.0)
        await player.quiet(0.15)
        if follower.seq != seq:
            continue
        keys, _command = follower.keys_for(seat, rng, cat, player.numbers)
        player.send(keys)
        presses += 1
        if on_move is not None:
            on_move(seat, seq)
        why = await _press_taken(follower, player, seq)
        if why is not None:
            print(f"retry ({why}) seat {seat} seq {seq} keys {keys!r} screen: {player.text(False)[-1500:]!r}")
            player.send(ESC)
            await asyncio.sleep(0.3)
            player.send(ESC)
            await asyncio.sleep(0.3)
    return presses


async def _press_taken(follower: GameFollower, player: Player, seq: int, patience: float = 8.0) -> str | None:
    """None once the press moved the game on; else why to press again: the screen was redrawn well after
    the press and went quiet without the move (the press fell on a view the table had already passed,
    e.g. its owner killed before this seat's view was sent: the new owner's view came since), or nothing
    happened in `patience` seconds."""
    pressed = time.monotonic()
    while follower.seq == seq:
        now = time.monotonic()
        if now - pressed > patience:
            return "no move"
        if now - pressed > 1.0 and player.last_output > pressed + 0.3 and now - player.last_output > 0.3:
            return "screen redrawn"
        await asyncio.sleep(0.05)
    return None
