"""A finished game as the history receives it: `GameRecord` (typed, msgspec; the outbox stores it as is).

`game_record(...)` builds one from the engine's finished state and command log; the
server and `citadels sim --record-to` call it, so the engine does no I/O. Places are
worked out here once (`places`): the winners are first, then by score, equal scores
sharing a place.
"""

from __future__ import annotations

import zlib
from collections import Counter
from datetime import datetime
from typing import Annotated

import msgspec
from msgspec import Meta, Struct

from engine.commands import Command, Pick
from engine.rules import RULESETS
from engine.setup import GameConfig
from engine.state import GameState

LOG_FORMAT = 1  # game_logs.format: zlib-compressed MessagePack list of commands
Share = Annotated[float, Meta(ge=0.0, le=1.0)]


class SeatRecord(Struct, frozen=True, kw_only=True):
    seat: int
    name: str
    player_id: int | None = None  # the person's account; None: a guest (ignored for a bot seat)
    # The SSH key that held the seat, when its player was not known yet (the database was away when
    # they connected): recording finds or makes the key's player. None with no player_id: a guest.
    key: str | None = None
    bot: str | None = None  # a bot sat here from the start: its level ("hard", ...)
    bot_share: Share = 0.0  # the share of this seat's decisions a bot made (a bot seat: 1.0)
    score: int
    winner: bool
    place: int  # 1: won (see `places`)
    characters: dict[str, int]  # the characters this seat picked, and how often


class GameRecord(Struct, frozen=True, kw_only=True):
    uid: str  # unique per game: recording the same game twice writes it once
    config: GameConfig
    seats: list[SeatRecord]
    log: list[Command]
    rounds: int
    started_at: datetime
    finished_at: datetime
    source: str = "server"  # "server" or "sim"

    @property
    def family(self) -> str:
        return family_of(self.config.rules)


def family_of(rules: str) -> str:
    """The rule family a game is rated in: "2016", "classic" or "2000" (2000 and Dark City)."""
    return RULESETS[rules].edition


def places(totals: list[int], winners: list[int]) -> list[int]:
    """Each seat's place: winners 1, then the others by total (equal totals share a place)."""
    order = sorted(range(len(totals)), key=lambda s: (s not in winners, -totals[s]))
    out = [0] * len(totals)
    for i, s in enumerate(order):
        prev = order[i - 1]
        if s in winners:
            out[s] = 1
        elif i and prev not in winners and totals[prev] == totals[s]:
            out[s] = out[prev]
        else:
            out[s] = i + 1
    return out


def picked_characters(log: list[Command], seats: int) -> list[dict[str, int]]:
    counts = [Counter[str]() for _ in range(seats)]
    for cmd in log:
        if isinstance(cmd, Pick) and 0 <= cmd.seat < seats:
            counts[cmd.seat][cmd.character] += 1
    return [dict(c) for c in counts]


def game_record(
    uid: str,
    config: GameConfig,
    state: GameState,
    log: list[Command],
    *,
    player_ids: list[int | None],
    bots: list[str | None],
    bot_shares: list[float] | None = None,
    keys: list[str | None] | None = None,
    started_at: datetime,
    finished_at: datetime,
    source: str = "server",
) -> GameRecord:
    """The record of a finished game. `player_ids`, `bots`, `bot_shares` and `keys` are per seat."""
    if state.phase != "over" or not state.scores:
        raise ValueError("only a finished game is recorded")
    n = len(state.players)
    if not (len(player_ids) == len(bots) == n) or any(x is not None and len(x) != n for x in (bot_shares, keys)):
        raise ValueError("one player id, bot, bot share and key per seat")
    totals = [0] * n
    for sc in state.scores:
        totals[sc.seat] = sc.total
    placed = places(totals, list(state.winners))
    picked = picked_characters(log, n)
    shares = bot_shares or [1.0 if b else 0.0 for b in bots]
    seats = [
        SeatRecord(
            seat=s,
            name=state.players[s].name,
            player_id=player_ids[s],
            key=None if keys is None or player_ids[s] is not None or bots[s] else keys[s],
            bot=bots[s],
            bot_share=1.0 if bots[s] else shares[s],
            score=totals[s],
            winner=s in state.winners,
            place=placed[s],
            characters=picked[s],
        )
        for s in range(n)
    ]
    return GameRecord(
        uid=uid,
        config=config,
        seats=seats,
        log=list(log),
        rounds=state.round,
        started_at=started_at,
        finished_at=finished_at,
        source=source,
    )


_log_dec = msgspec.msgpack.Decoder(list[Command])
_record_dec = msgspec.msgpack.Decoder(GameRecord)


def encode_log(log: list[Command]) -> bytes:
    return zlib.compress(msgspec.msgpack.encode(log), 6)


def decode_log(data: bytes, fmt: int = LOG_FORMAT) -> list[Command]:
    if fmt != LOG_FORMAT:
        raise ValueError(f"unknown command log format {fmt}")
    return _log_dec.decode(zlib.decompress(data))


def encode_record(record: GameRecord) -> bytes:
    return msgspec.msgpack.encode(record)


def decode_record(data: bytes) -> GameRecord:
    return _record_dec.decode(data)
