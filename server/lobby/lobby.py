"""The lobby: the index of tables and of the players connected to this server.

Identity is the SSH key's fingerprint (guests get a per-session identity and
cannot come back to a seat). A seat is bound to its identity: the same key
reconnecting is put back at its seat (and screen); nobody else can take it.

Before a table starts, the lobby manages its seats itself (no game state
exists yet): join, leave, bots in open seats, the creator removing a player.
Once started, everything about the game goes through the table's actor
(server/tables/table.py). Sessions in the lobby get a fresh `LobbyUpdate` after
changes, coalesced (at most one every `BROADCAST_DELAY` seconds), so a busy
lobby costs one small message per idle session, not one per change.

The sessions it talks to are `server.app.PlayerSession`s: `key`, `name`,
`guest`, `table`, `seat`, `post(msg)`, `enter_table(table, seat)`,
`to_lobby(notice)`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import time
from typing import Any

from engine import GameConfig, SetupError, new_game
from engine.bots.registry import KINDS
from engine.bots.styles import NAMES, STYLES
from engine.cards.characters import CHARACTERS, RANK
from engine.cards.districts import UNIQUE_DISTRICTS
from engine.cards.editions import OLDER_ONLY
from engine.cards.lineups import PRESETS
from engine.rules import RULESETS, VARIANTS
from server.config import ServerConfig
from server.lobby.saved_games import LobbyError, SavedGames
from server.logging_setup import log_event
from server.tables.bot_names import BOT_MARK, bot_style, pick_bot  # noqa: F401
from server.tables.seats import lineup_label
from server.tables.table import TIMER_MODES, SeatSlot, Table, TableMeta, TableSettings
from ui.lobby_link import LobbyOptions, LobbySnapshot, LobbyUpdate, Room, RoomSeat, RuleChoice, TableRow, TableSpec

log = logging.getLogger("citadels.server.lobby.lobby")

BROADCAST_DELAY = 0.25
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
MAX_NAME = 20


def clean_name(name: str) -> str:
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())[:MAX_NAME]


class Lobby(SavedGames):
    def __init__(self, config: ServerConfig, store: Any = None, pool: Any = None, clock: Any = time.monotonic) -> None:
        self.config = config
        self.store = store
        self.pool = pool
        self.clock = clock
        self.default_bot = config.bot_kind
        self.settings = TableSettings(
            idle_wait=config.idle_wait_seconds,
            bot_delay=config.bot_delay_seconds,
            timers={
                "off": None,
                "relaxed": config.turn_timer_relaxed_seconds,
                "blitz": config.turn_timer_blitz_seconds,
            },
            queue_size=config.table_queue_size,
        )
        self.tables: dict[str, Table] = {}
        self.sessions: set[Any] = set()
        self.names: dict[str, str] = {}  # identity -> the name chosen in the lobby (this run)
        self._broadcast_handle: asyncio.TimerHandle | None = None
        self.problems: list[str] = []
        self._stopping: set[asyncio.Task] = (
            set()
        )  # closed tables' stop tasks, kept until done (the loop holds weak refs)

    # --- sessions ---------------------------------------------------------------------------------
    def connect(self, session: Any) -> None:
        """A session arrives: back to its seat if its key has one in a game, else the lobby."""
        self.sessions.add(session)
        if not session.guest and session.key in self.names:
            session.name = self.names[session.key]
        table, seat = self.seat_of(session.key)
        if table is not None:
            session.table, session.seat = table, seat
            if table.phase == "playing":
                session.enter_table(table, seat)
        self._changed()

    def disconnect(self, session: Any) -> None:
        self.sessions.discard(session)
        table = session.table
        if table is not None:
            if table.phase == "waiting" and session.seat is not None:
                if session.guest:  # a guest's seat is freed: they cannot come back to it
                    self._free_seat(table, session.seat)
            elif session.at_table:
                table.detach(session)
            self._maybe_drop(table)
        self._changed()

    def seat_of(self, key: str) -> tuple[Table | None, int | None]:
        for t in self.tables.values():
            if t.phase in ("waiting", "playing"):
                s = t.seat_of(key)
                if s is not None:
                    return t, s
        return None, None

    def connected(self, key: str | None) -> bool:
        return key is not None and any(s.key == key for s in self.sessions)

    # --- requests from sessions (all synchronous) ----------------------------------------------------
    def rename(self, session: Any, name: str) -> None:
        name = clean_name(name)
        if not name:
            raise LobbyError("A name needs at least one letter.")
        t = session.table
        if t is not None and t.phase == "playing" and session.seat is not None:
            raise LobbyError("You cannot change your name during a game.")
        session.name = name
        if not session.guest:
            self.names[session.key] = name
        if t is not None and t.phase == "waiting" and session.seat is not None:
            t.seats[session.seat].name = self._unique_name(t, name, session.seat)
        self._changed()

    def create(self, session: Any, spec: TableSpec) -> Table:
        self._not_seated(session)
        if len(self.tables) >= self.config.max_tables:
            raise LobbyError(f"The server holds at most {self.config.max_tables} tables; try again later.")
        rules = RULESETS.get(spec.rules)
        if rules is None:
            raise LobbyError(f"Unknown rule set {spec.rules!r}.")
        if not rules.min_players <= spec.players <= rules.max_players:
            raise LobbyError(f"{rules.title} is for {rules.min_players} to {rules.max_players} players.")
        if not 0 <= spec.bots < spec.players:
            raise LobbyError("Leave at least one seat for a person.")
        kind = spec.bot_kind or self.default_bot
        if kind not in KINDS:
            raise LobbyError(f"Unknown bot level {kind!r}.")
        if spec.timer not in TIMER_MODES:
            raise LobbyError(f"Unknown turn timer {spec.timer!r}.")
        cfg = self._game_config(spec, [f"p{i}" for i in range(spec.players)], seed=0)
        try:
            new_game(cfg)  # the engine checks the line-up and says what is wrong
        except SetupError as e:
            raise LobbyError(str(e)) from None
        table_id = "t" + secrets.token_hex(4)
        while table_id in self.tables:
            table_id = "t" + secrets.token_hex(4)
        name = clean_name(spec.name) or clean_name(f"{session.name}'s table")
        meta = TableMeta(
            name=name,
            creator=session.key,
            timer=spec.timer,
            private=spec.private,
            code=self._new_code() if spec.private else None,
            spectator_chat=spec.spectator_chat,
            bot_kind=kind,
            lineup_label=lineup_label(spec.lineup, spec.rules),
        )
        seats = [SeatSlot(name="") for _ in range(spec.players)]
        table = Table(
            table_id,
            meta,
            seats,
            self.settings,
            store=self.store,
            pool=self.pool,
            on_change=self._table_changed,
            clock=self.clock,
        )
        table.spec = spec  # type: ignore[attr-defined]
        self._take_seat(table, 0, session)
        for i in range(spec.players - spec.bots, spec.players):
            self._bot_in(table, i, kind)
        self.tables[table_id] = table
        table.start_actor()
        log_event(
            log,
            logging.INFO,
            "table created",
            table=table_id,
            players=spec.players,
            bots=spec.bots,
            rules=spec.rules,
            lineup=meta.lineup_label,
            private=spec.private,
            timer=spec.timer,
        )
        self._changed()
        return table

    def join(self, session: Any, table_id: str, seat: int | None = None, code: str | None = None) -> None:
        t = self._table(table_id)
        if session.table is t and session.seat is not None:
            return
        self._not_seated(session)
        if t.meta.private and code != t.meta.code:
            raise LobbyError("This table is private: join it with its code.")
        if t.phase != "waiting":
            raise LobbyError("This game has started: you can watch it.")
        open_seats = [i for i, s in enumerate(t.seats) if self._open(s)]
        if not open_seats:
            raise LobbyError("This table is full.")
        if seat is None:
            seat = open_seats[0]
        elif seat not in open_seats:
            raise LobbyError("That seat is taken.")
        self._leave_watching(session)
        self._take_seat(t, seat, session)
        self._changed()

    def join_code(self, session: Any, code: str) -> None:
        code = "".join(code.split()).upper()
        for t in self.tables.values():
            if t.meta.code and t.meta.code == code and t.phase != "closed":
                if t.phase == "waiting":
                    self.join(session, t.id, code=code)
                else:
                    self.watch(session, t.id, code=code)
                return
        raise LobbyError("No table has this code.")

    def watch(self, session: Any, table_id: str, code: str | None = None) -> None:
        t = self._table(table_id)
        if t.meta.private and code != t.meta.code and t.seat_of(session.key) is None:
            raise LobbyError("This table is private: watch it with its code.")
        if t.phase == "waiting":
            raise LobbyError("This game has not started yet.")
        own = t.seat_of(session.key)
        if own is not None and t.phase == "playing":
            session.table, session.seat = t, own
            session.enter_table(t, own)
            return
        self._leave_watching(session)
        if session.table is not None and session.seat is not None and session.table.phase == "waiting":
            raise LobbyError("Leave your table before watching another.")
        session.table, session.seat = t, None
        session.enter_table(t, None)
        self._changed()

    def back_to_table(self, session: Any) -> None:
        t, seat = self.seat_of(session.key)
        if t is None or t.phase != "playing":
            raise LobbyError("You have no game to return to.")
        session.table, session.seat = t, seat
        session.enter_table(t, seat)

    def to_lobby(self, session: Any) -> None:
        """From the table screen back to the lobby; a player keeps their seat (away)."""
        t = session.table
        if t is not None and session.at_table:
            t.detach(session)
        session.at_table = False
        if t is not None and (session.seat is None or t.phase == "over"):
            session.table, session.seat = None, None
            self._maybe_drop(t)
        self._changed()

    def leave(self, session: Any) -> None:
        """Leave the table you sit at before it starts (its creator closes it)."""
        t = session.table
        if t is None:
            return
        if t.phase != "waiting" or session.seat is None:
            self.to_lobby(session)
            return
        if t.meta.creator == session.key:
            self._close(t, "The table's creator closed it.")
        else:
            self._free_seat(t, session.seat)
            session.table, session.seat = None, None
        self._changed()

    def start(self, session: Any) -> None:
        t = self._own_waiting(session)
        missing = [i for i, s in enumerate(t.seats) if self._open(s)]
        if missing:
            raise LobbyError(f"{len(missing)} seat(s) still open: wait for players or add bots.")
        names = [s.name for s in t.seats]
        spec: TableSpec = t.spec  # type: ignore[attr-defined]
        cfg = self._game_config(spec, names, seed=secrets.randbits(31))
        try:
            new_game(cfg)
        except SetupError as e:
            raise LobbyError(str(e)) from None
        for i, s in enumerate(t.seats):
            if s.human:
                player = self._session_of(s.key)
                if player is not None and player.table is t:
                    player.enter_table(t, i)
                else:
                    s.away_since = self.clock()
        t.write_meta()
        t.begin(cfg)
        self._changed()

    def add_bot(self, session: Any, seat: int | None = None) -> None:
        t = self._own_waiting(session)
        open_seats = [i for i, s in enumerate(t.seats) if self._open(s)]
        if not open_seats:
            raise LobbyError("No open seat.")
        if seat is None:
            seat = open_seats[0]
        if seat not in open_seats:
            raise LobbyError("That seat is not open.")
        self._bot_in(t, seat, t.meta.bot_kind)
        self._changed()

    def remove(self, session: Any, seat: int) -> None:
        t = self._own_waiting(session)
        if not 0 <= seat < len(t.seats):
            raise LobbyError("No such seat.")
        if t.seats[seat].key == session.key:
            raise LobbyError("You cannot remove yourself: leave the table to close it.")
        gone = t.seats[seat].key
        self._free_seat(t, seat)
        for s in list(self.sessions):
            if s.key == gone and s.table is t:
                s.table, s.seat = None, None
                s.post(LobbyUpdate(self.snapshot(s), notice="The table's creator removed you from the table."))
        self._changed()

    def replace_with_bot(self, session: Any, seat: int) -> None:
        t = session.table
        if t is None or t.meta.creator != session.key:
            raise LobbyError("Only the table's creator can do that.")
        if t.phase != "playing":
            raise LobbyError("The game is not running.")
        if not 0 <= seat < len(t.seats) or t.seats[seat].bot is not None:
            raise LobbyError("No player at that seat.")
        if t.seats[seat].client is not None or (self.connected(t.seats[seat].key) and t.seats[seat].away_since is None):
            raise LobbyError("That player is here: only an absent player can be replaced.")
        t.replace_with_bot(seat)

    def set_spectator_chat(self, session: Any, allowed: bool) -> None:
        t = session.table
        if t is None or t.meta.creator != session.key:
            raise LobbyError("Only the table's creator can do that.")
        t.meta.spectator_chat = allowed
        t.write_meta()
        t.notice("Spectators may now write in the chat." if allowed else "Spectators may no longer write.")

    # --- snapshots ----------------------------------------------------------------------------------
    def row(self, t: Table, key: str | None) -> TableRow:
        spec = getattr(t, "spec", None)
        rules = t.config.rules if t.config is not None else (spec.rules if spec else "2016")
        taken = sum(1 for s in t.seats if not self._open(s))
        return TableRow(
            id=t.id,
            name=t.meta.name,
            rules=RULESETS[rules].title if rules in RULESETS else rules,
            lineup=t.meta.lineup_label,
            taken=taken,
            seats=len(t.seats),
            state=t.phase,
            private=t.meta.private,
            yours=key is not None and t.seat_of(key) is not None,
            timer=t.meta.timer,
            spectators=len(t.spectators),
        )

    def snapshot(self, session: Any) -> LobbySnapshot:
        key = session.key
        rows = []
        for t in self.tables.values():
            if t.phase == "closed":
                continue
            yours = t.seat_of(key) is not None or session.table is t
            if t.meta.private and not yours:
                continue
            rows.append(self.row(t, key))
        room = None
        t = session.table
        if t is not None and session.seat is not None and t.phase == "waiting":
            seats = []
            for i, s in enumerate(t.seats):
                kind = "open" if self._open(s) else ("bot" if s.bot else "player")
                away = kind == "player" and not self.connected(s.key)
                seats.append(RoomSeat(i, s.name, kind, away=away, you=s.key == key and kind == "player"))
            room = Room(
                table=self.row(t, key),
                seats=seats,
                creator=t.meta.creator == key,
                can_start=t.meta.creator == key and not any(self._open(s) for s in t.seats),
                code=t.meta.code,
                spectator_chat=t.meta.spectator_chat,
            )
        playing, _ = self.seat_of(key)
        identity = "guest" if session.guest else f"key {session.key[:20]}…"
        return LobbySnapshot(
            you=session.name,
            identity=identity,
            guest=session.guest,
            tables=rows,
            room=room,
            playing=playing.id if playing is not None and playing.phase == "playing" else None,
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
            characters_by_rank=by_rank,
            uniques=uniques,
        )

    async def close(self) -> None:
        for t in list(self.tables.values()):
            await t.stop()
        if self._broadcast_handle is not None:
            self._broadcast_handle.cancel()

    # --- helpers ----------------------------------------------------------------------------------------
    def _table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None or t.phase == "closed":
            raise LobbyError("This table no longer exists.")
        return t

    @staticmethod
    def _open(s: SeatSlot) -> bool:
        return s.bot is None and s.key is None

    def _not_seated(self, session: Any) -> None:
        t, _ = self.seat_of(session.key)
        if t is not None:
            what = "a game" if t.phase == "playing" else "a table"
            raise LobbyError(f"You already have a seat at {what} ({t.meta.name}): leave it first.")

    def _own_waiting(self, session: Any) -> Table:
        t = session.table
        if t is None or t.phase != "waiting" or t.meta.creator != session.key:
            raise LobbyError("Only the table's creator can do that, before the start.")
        return t

    def _session_of(self, key: str | None) -> Any:
        best = None
        for s in self.sessions:
            if s.key == key:
                best = s
        return best

    def _unique_name(self, t: Table, name: str, seat: int) -> str:
        used = {s.name for i, s in enumerate(t.seats) if i != seat and not self._open(s)}
        candidate, n = name, 2
        while candidate in used:
            candidate = f"{name[: MAX_NAME - 3]} {n}"
            n += 1
        return candidate

    def _take_seat(self, t: Table, seat: int, session: Any) -> None:
        s = t.seats[seat]
        s.key, s.guest, s.bot, s.style = session.key, session.guest, None, None
        s.name = self._unique_name(t, session.name, seat)
        session.table, session.seat = t, seat

    def _bot_in(self, t: Table, seat: int, kind: str) -> None:
        s = t.seats[seat]
        others = [x for i, x in enumerate(t.seats) if i != seat and not self._open(x)]
        rng = secrets.SystemRandom()
        picked = pick_bot({x.name for x in others}, {x.style for x in others if x.bot is not None}, rng)
        if picked is None:  # more seats than names: never with 8 seats at most
            s.style = rng.choice(STYLES)
            s.name = self._unique_name(t, rng.choice(NAMES[s.style]) + BOT_MARK, seat)
        else:
            s.style, s.name = picked
        s.bot, s.key, s.guest = kind, None, False

    def _free_seat(self, t: Table, seat: int) -> None:
        s = t.seats[seat]
        s.key, s.bot, s.guest, s.name, s.style = None, None, False, "", None

    def _leave_watching(self, session: Any) -> None:
        t = session.table
        if t is not None and session.seat is None:
            if session.at_table:
                t.detach(session)
            session.table = None
            self._maybe_drop(t)

    def _close(self, t: Table, why: str) -> None:
        t.phase = "closed"
        for s in list(self.sessions):
            if s.table is t:
                s.table, s.seat = None, None
                s.post(LobbyUpdate(self.snapshot(s), notice=why))
        self.tables.pop(t.id, None)
        loop = asyncio.get_running_loop()
        task = loop.create_task(t.stop(), context=contextvars.Context())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)
        log_event(log, logging.INFO, "table closed", table=t.id)

    def _maybe_drop(self, t: Table) -> None:
        """A finished game leaves the index when nobody looks at it any more."""
        if t.phase == "over" and not any(s.table is t for s in self.sessions):
            self._close(t, "")

    def _table_changed(self, t: Table) -> None:
        self._changed()

    def _new_code(self) -> str:
        used = {t.meta.code for t in self.tables.values()}
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in used:
                return code

    def _game_config(self, spec: TableSpec, names: list[str], seed: int) -> GameConfig:
        rules = RULESETS[spec.rules]
        kw: dict[str, Any] = dict(
            players=list(names), rules=spec.rules, seed=seed, variants=list(spec.variants) or None
        )
        if rules.edition == "2016":
            if spec.lineup == "custom":
                kw.update(characters=list(spec.characters or []) or None, uniques=list(spec.uniques or []) or None)
                if not kw["characters"]:
                    raise LobbyError("A custom line-up needs one character per rank.")
            elif spec.lineup == "random":
                kw.update(preset="random")
            else:
                if spec.lineup not in PRESETS:
                    raise LobbyError(f"Unknown line-up {spec.lineup!r}.")
                kw.update(preset=spec.lineup)
        return GameConfig(**kw)

    # --- broadcasting ---------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self._broadcast_handle is None:
            loop = asyncio.get_running_loop()
            self._broadcast_handle = loop.call_later(BROADCAST_DELAY, self._broadcast, context=contextvars.Context())

    def _broadcast(self) -> None:
        self._broadcast_handle = None
        for s in list(self.sessions):
            if not s.at_table:
                s.post(LobbyUpdate(self.snapshot(s)))
