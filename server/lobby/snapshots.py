"""What the lobby screen is sent: the table rows a session may see, its room, the create form's options,
and the coalesced update every session in the lobby gets when something changed.

A mixin of `server.lobby.lobby.Lobby` (which provides `tables`, `sessions`,
`pool`, `default_bot`, `settings`, `seat_of`, `present` and `_open`).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.bots.registry import KINDS
from engine.cards.characters import CHARACTERS, RANK
from engine.cards.districts import UNIQUE_DISTRICTS
from engine.cards.editions import OLDER_ONLY
from engine.cards.lineups import PRESETS
from engine.rules import RULESETS, VARIANTS
from server.lobby.lifetimes import OPEN_PHASES, first_seat
from server.tables.table import TIMER_MODES, Table
from ui.lobby_link import LobbyOptions, LobbySnapshot, LobbyUpdate, Room, RoomSeat, RuleChoice, TableRow


@dataclass(frozen=True)
class SharedRows:
    """What every session's lobby snapshot of one moment is drawn from (LobbyViews.shared_rows)."""

    rows: list[tuple[Any, TableRow]]  # (table or listing, its row with yours=False), in the lobby's order
    seated: dict[str, set[str]]  # a person's identity -> the ids of the tables where they have a seat
    tables: dict[str, Any]  # id -> table or listing, in the order the lobby's `seat_of` looks at them
    position: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", {i: n for n, i in enumerate(self.tables)})

    def seated_table(self, ids: Iterable[str], open_: Callable[[Any], bool], saved: Callable[[Any], bool]) -> Any:
        """What the lobby's `seat_of` finds among the tables `ids` (a person's), without asking every table."""
        ordered = (self.tables[i] for i in sorted(ids, key=self.position.__getitem__))
        return first_seat((t for t in ordered if open_(t)), saved)


# Lobby updates are coalesced: one snapshot per session at most this often, whatever changed.
BROADCAST_DELAY = 0.25


class LobbyViews:
    tables: dict[str, Table]
    sessions: set[Any]
    _broadcast_handle: asyncio.TimerHandle | None
    pool: Any
    default_bot: str
    settings: Any  # server.tables.seats.TableSettings: the turn timers' seconds

    def row(self, t: Table, key: str | None) -> TableRow:
        spec = getattr(t, "spec", None)
        loaded = self.loaded_game(t)  # type: ignore[attr-defined]
        if t.config is not None or loaded is not None:
            rules = (t.config or loaded.config).rules  # type: ignore[union-attr]
        else:
            rules = spec.rules if spec else "2016"
        taken = sum(1 for s in t.seats if not self._open(s))  # type: ignore[attr-defined,misc]
        return TableRow(
            id=t.id,
            name=t.meta.name,
            rules=RULESETS[rules].title if rules in RULESETS else rules,
            lineup=t.meta.lineup_label,
            taken=taken,
            seats=len(t.seats),
            state=t.phase,
            private=t.meta.private,
            yours=key is not None and t.phase != "over" and t.seat_of(key) is not None,  # no seat after the end
            timer=t.meta.timer,
            spectators=len(t.spectators),
        )

    def shared_rows(self) -> SharedRows:
        """Every table's row as a stranger sees it, and who sits where: built once for a broadcast to
        every session in the lobby (per session it was a row per table, ~4 ms a session at 170 tables:
        a 354 ms loop step for a few hundred sessions in the lobby)."""
        rows: list[tuple[Table, TableRow]] = []
        seated: dict[str, set[str]] = {}
        for t in self.tables.values():
            if t.phase == "closed":
                continue
            rows.append((t, self.row(t, None)))
            for s in t.seats:
                if s.bot is None and s.key is not None:
                    seated.setdefault(self.identity(s.key) or s.key, set()).add(t.id)  # type: ignore[attr-defined]
        return SharedRows(rows, seated, {t.id: t for t, _ in rows})

    def snapshot(self, session: Any, shared: SharedRows | None = None) -> LobbySnapshot:
        key = session.key
        shared = shared or self.shared_rows()
        # `Table.seat_of` compares keys with `same` (two keys of one account are one player): by identity.
        mine = shared.seated.get(self.identity(key) or key, ()) if key is not None else ()  # type: ignore[attr-defined]
        rows = []
        for t, row in shared.rows:
            seated = t.id in mine
            if t.meta.private and not (seated or session.table is t):
                continue
            rows.append(replace(row, yours=True) if seated and t.phase != "over" else row)  # no seat after the end
        room = None
        t = session.table
        if t is not None and session.seat is not None and t.phase == "waiting":
            room = self._room(t, key)
        # as `self.seat_of(key)` (every table asked again, per session: most of a broadcast's time)
        loaded = self.loaded  # type: ignore[attr-defined]
        playing = shared.seated_table(mine, lambda t: t.phase in OPEN_PHASES, lambda t: t.id in loaded)
        return LobbySnapshot(
            you=session.name,
            identity=self.account_line(session),  # type: ignore[attr-defined]
            guest=session.guest,
            accounts=self.accounts_state(session),  # type: ignore[attr-defined]
            tables=rows,
            room=room,
            playing=playing.id if playing is not None and playing.phase == "playing" else None,
        )

    def _room(self, t: Table, key: str) -> Room:
        seats = []
        for i, s in enumerate(t.seats):
            kind = "open" if self._open(s) else ("bot" if s.bot else "player")  # type: ignore[attr-defined]
            away = kind == "player" and not self.present(t, s.key)  # type: ignore[attr-defined]
            you = kind == "player" and self.same(s.key, key)  # type: ignore[attr-defined]
            seats.append(RoomSeat(i, s.name, kind, away=away, you=you))
        creator = self.same(t.meta.creator, key)  # type: ignore[attr-defined]
        ready = not any(x.kind == "open" for x in seats)
        if self.loaded_game(t) is not None:  # type: ignore[attr-defined]
            ready = ready and not any(x.away for x in seats)  # a saved game waits for its players
        return Room(
            table=self.row(t, key),
            seats=seats,
            creator=creator,
            can_start=creator and ready,
            code=t.meta.code,
            spectator_chat=t.meta.spectator_chat,
            saved=self.loaded_game(t) is not None,  # type: ignore[attr-defined]
        )

    def options(self) -> LobbyOptions:
        rules = [
            RuleChoice(
                r.name,
                r.title,
                r.min_players,
                r.max_players,
                r.edition == "2016",
                [o for o in r.options if o in VARIANTS],
            )
            for r in RULESETS.values()
        ]
        presets = [(p.name, p.name.replace("-", " "), p.es) for p in PRESETS.values()]
        by_rank: dict[int, list[str]] = {}
        for name in CHARACTERS:
            by_rank.setdefault(RANK[name], []).append(name)
        uniques = [u for u in UNIQUE_DISTRICTS if u not in OLDER_ONLY]
        # the searching kinds (hard, expert) think in the worker pool: offered only with one
        kinds = [k for k in KINDS if k not in ("hard", "expert") or self.pool is not None] or ["normal"]
        return LobbyOptions(
            rules=rules,
            presets=presets,
            bot_kinds=kinds,
            default_bot=self.default_bot,
            timers=list(TIMER_MODES),
            timer_seconds={m: self.settings.timers.get(m) for m in TIMER_MODES},
            characters_by_rank=by_rank,
            uniques=uniques,
        )

    # --- broadcasting ---------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self._broadcast_handle is None:
            loop = asyncio.get_running_loop()
            self._broadcast_handle = loop.call_later(BROADCAST_DELAY, self._broadcast, context=contextvars.Context())

    def _broadcast(self) -> None:
        self._broadcast_handle = None
        shared = self.shared_rows()
        for s in list(self.sessions):
            if not s.at_table:
                s.post(LobbyUpdate(self.snapshot(s, shared)))
