"""Reopening a table keeps what it can: the snapshot, then every log record that holds and applies.

`scan_log` (server/storage/savelog.py) has already repaired the records that one
flipped bit or byte damaged (their checksum shows where) and skipped what cannot
be read; here the records are applied to the snapshot, each validated by the
engine. Where a record is missing (a skipped stretch: the next record's seq
jumps by one), the one legal command that lets every later record replay fills
it; if none do, or several that lead to different games, the game stops at the
gap and the later records are counted as lost (they stay in the quarantined copy
of the log). When several commands fit and all lead to the very same game (a
Thief robbing a character nobody took, say), the game goes on exactly as it
would have, and the record of which of them it was is marked uncertain.

`Recovery` says what happened, for the server log, stderr and the table's players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from engine.apply import apply
from engine.commands import Command
from engine.errors import IllegalCommand
from engine.legal import legal_commands
from engine.savefile import Save
from engine.state import GameState, copy_state
from engine.state import encode as encode_state

from .savelog import LogEntry, LogScan

MAX_GAP_CANDIDATES = 400  # legal commands tried for one missing record


@dataclass(frozen=True)
class Recovery:
    """What reopening a table found."""

    table: str
    snapshot_commands: int  # commands in the snapshot
    log_commands: int  # commands recovered from the log
    dropped: str | None = None  # why part of the log was not used (None: all of it was)
    damage: list[str] = field(default_factory=list)  # what was wrong in the log (repaired or not)
    repaired: int = 0  # records repaired from their checksum
    refilled: int = 0  # missing records rebuilt (the only command that lets the later ones replay)
    uncertain: int = 0  # of those, how many were one of several commands leading to the same game
    lost: int = 0  # commands known to have been saved that could not be recovered
    quarantined: str | None = None  # the damaged log, kept beside the save

    @property
    def damaged(self) -> bool:
        """The log held damage (not just a torn last write, which no one was told had been saved)."""
        return bool(self.damage)

    def for_host(self) -> str:
        kept = f"{self.snapshot_commands + self.log_commands} commands kept"
        what = f"{self.repaired} record(s) repaired, {self.refilled} rebuilt, {self.lost} move(s) lost"
        if self.uncertain:
            what += f" ({self.uncertain} rebuilt move(s) one of several choices leading to the same game)"
        where = f"; the damaged log is kept as {self.quarantined}" if self.quarantined else ""
        return f"table {self.table}: its command log was damaged ({'; '.join(self.damage)}): {what}; {kept}{where}"

    def player_notice(self) -> tuple[str, dict]:
        """What the players are told (notice.<key> of their catalogue, with its fields)."""
        if self.lost:
            return "save_damaged", {"lost": self.lost, "move": self.snapshot_commands + self.log_commands}
        return "save_repaired", {}

    def for_players(self) -> str:
        if self.lost:
            return (
                f"This game's save was damaged on the server: the last {self.lost} move(s) could not be "
                f"recovered; the game goes on from move {self.snapshot_commands + self.log_commands}."
            )
        return "This game's save was damaged on the server and has been repaired: no move was lost."


@dataclass
class Replayed:
    log: list[Command]
    updated: datetime | None
    recovered: int = 0
    refilled: int = 0
    uncertain: int = 0
    lost: int = 0
    stop: str | None = None


def replay_entries(save: Save, scan: LogScan) -> Replayed:
    """Apply the log's records after the snapshot to `save.state` (in place) and append them to `save.log`."""
    g = save.state
    out = Replayed(save.log, None)
    entries = [e for e in scan.entries if e.seq > g.seq]
    known_last = max((e.seq for e in entries), default=g.seq)
    i = 0
    while i < len(entries) and g.phase != "over":
        e = entries[i]
        if e.seq == g.seq + 1:
            try:
                apply(g, e.cmd)
            except IllegalCommand as ex:
                out.stop = f"command {e.seq} of the log is illegal here ({ex})"
                break
            _take(save, out, e.cmd, e.t, e.bot)
            i += 1
            continue
        if e.seq == g.seq + 2:  # one record is missing: rebuild it if only one command fits
            run = _run(entries, i)
            cmd, certain = _fill(g, run)
            if cmd is not None:
                apply(g, cmd)
                _take(save, out, cmd, e.t)
                out.refilled += 1
                out.uncertain += not certain
                continue
            out.stop = f"command {g.seq + 1} of the log is missing and cannot be rebuilt"
        else:
            out.stop = f"commands {g.seq + 1} to {e.seq - 1} of the log are missing"
        break
    if g.phase != "over":
        out.lost = max(known_last - g.seq, 0) + (1 if scan.tail_damaged else 0)
    return out


def _take(save: Save, out: Replayed, cmd: Command, t: datetime, by_bot: bool = False) -> None:
    save.log.append(cmd)
    if by_bot:  # a bot chose it in a person's stead (a rebuilt record's author is not known: a person's)
        save.seats[cmd.seat].bot_played.append(len(save.log))
    save.updated = t
    out.updated = t
    out.recovered += 1


def _run(entries: list[LogEntry], i: int) -> list[Command]:
    """The commands of the consecutive records from entries[i]."""
    run = [entries[i].cmd]
    for a, b in zip(entries[i:], entries[i + 1 :]):
        if b.seq != a.seq + 1:
            break
        run.append(b.cmd)
    return run


def _fill(g: GameState, run: list[Command]) -> tuple[Command | None, bool]:
    """The missing command before `run` and whether it is certain: the only legal command after which
    all of `run` applies (certain), or one of several that all lead to the same game (not certain);
    (None, False) when none fits or the fitting ones lead to different games."""
    seat = g.pending.seat
    if not 0 <= seat < len(g.players):
        return None, False
    fits: list[Command] = []
    outcome: bytes | None = None
    for cand in legal_commands(g, seat)[:MAX_GAP_CANDIDATES]:
        h = copy_state(g)
        try:
            apply(h, cand)
            for cmd in run:
                apply(h, cmd)
        except IllegalCommand:
            continue
        except Exception:  # a command that makes no sense in this game: not the missing one
            continue
        state = encode_state(h)
        if outcome is not None and state != outcome:
            return None, False  # two different games fit: nothing is guessed
        outcome = state
        fits.append(cand)
    return (fits[0], len(fits) == 1) if fits else (None, False)


def quarantine(log_path: Path, data: bytes) -> Path:
    """Keep a damaged log beside its save (`<id>.log.damaged`, `-2`, ...); the path written."""
    from .savelog import atomic_write

    n = 1
    while True:
        target = log_path.with_name(log_path.name + (".damaged" if n == 1 else f".damaged-{n}"))
        if not target.exists():
            break
        n += 1
    atomic_write(target, data, durable=True)
    return target
