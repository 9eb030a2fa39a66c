"""What a table is made of, before and during its game: seats (who sits there:
a key, a guest, a bot and its style), the table's meta (name, creator, options,
kept next to its save, and its line-up as the lobby shows it), its settings
(idle wait, timers) and the decision a seat has been facing (for turn timers).
The messages the actor exchanges with sessions: server/tables/messages.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from engine.cards.lineups import PRESETS
from engine.rules import RULESETS
from engine.savefile import Seat
from server.tables.messages import ToSession

TIMER_MODES = ("off", "relaxed", "blitz")
MAX_HISTORY = 2000  # past events kept to rebuild a reconnecting player's log
MAX_CHAT = 300  # characters per chat line
BOT_KINDS = ("random", "easy", "normal", "hard", "expert")
LINEUP_LABELS = {"first-game": "first game", "random": "random", "custom": "custom"}


def lineup_label(spec_lineup: str, rules: str) -> str:
    """The line-up as the lobby's table list shows it (a table's meta)."""
    if RULESETS[rules].edition != "2016":
        return "the rule set's own"
    if spec_lineup in PRESETS and spec_lineup != "first-game":
        return PRESETS[spec_lineup].name.replace("-", " ")
    return LINEUP_LABELS.get(spec_lineup, spec_lineup)


class Client(Protocol):
    """A session as the table sees it (implemented in server/app.py)."""

    key: str  # identity: the key's fingerprint, or "guest:<session id>"
    name: str

    def post(self, message: ToSession) -> None:
        """Post a message to the session (never blocks; dropped if the session is gone)."""


@dataclass
class SeatSlot:
    """One seat of a table."""

    name: str
    key: str | None = None  # the identity bound to the seat (None: a bot seat, or a guest who left)
    guest: bool = False
    bot: str | None = None  # a bot seat: its kind
    style: str | None = None  # a bot seated in the lobby: the style its name belongs to (None: from the seed)
    client: Client | None = None  # the session playing the seat now
    away_since: float | None = None  # the player's session is gone (monotonic time)
    resuming: bool = False  # its session was at the table under its previous owner (a cluster's takeover)

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def person_seat(self) -> bool:
        """A person's seat: a bot that plays it plays in their stead (its moves are marked as a
        bot's). A bot seated in the lobby has a style (its name says "(bot)"); a bot that took a
        person's seat (a guest who left, a player replaced) has none."""
        return self.bot is None or self.style is None

    def as_save(self) -> Seat:
        return Seat(name=self.name, key=None if self.guest else self.key, bot=self.bot)


class TableMeta(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=False):
    """What a table is besides its game: kept next to its save (`<id>.meta.json`)."""

    name: str
    creator: str | None = None  # the creator's identity
    timer: str = "off"
    private: bool = False
    code: str | None = None
    spectator_chat: bool = False
    bot_kind: str = "normal"
    lineup_label: str = ""


@dataclass
class TableSettings:
    """Server-wide settings the actor needs (from ServerConfig)."""

    idle_wait: float = 60.0
    bot_delay: float = 0.6
    timers: dict[str, float | None] = field(default_factory=lambda: {"off": None, "relaxed": 120.0, "blitz": 30.0})
    queue_size: int = 64
    hard_budget_ms: float = 300.0
    expert_budget_ms: float = 2000.0


@dataclass
class _Streak:
    """The decision a seat has been facing since `since` (for turn timers)."""

    key: tuple
    since: float
    warned: bool = False
    expired: bool = False
