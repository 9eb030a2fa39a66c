"""The table actor: one asyncio task per table, the only code that touches its `GameState`.

Everything that reads or changes the game goes through the table's bounded
mailbox (`queue`, typed messages: server/tables/messages.py `ToTable`) and is
handled one message at a time by `Table.run`:

- a seat's command (`Play`): `engine.apply` (refusals go back as `Refused`),
  then `TableSave.arecord` (on disk *before* anyone sees the result), then every
  seat and spectator gets its own `view(state, seat)` and its redacted events (`_publish` builds
  them, `server.tables.fanout.deliver` posts them, 8 sessions per loop iteration);
- attaching a session (a player taking their seat back, a spectator): it gets
  the current view and the table's past events, redacted for it;
- seat changes (a bot replacing an absent player, a guest gone for good),
  saved at once; the creator's "save to a file";
- bot moves and timers (server/tables/timers.py); a command a bot chose in a
  person's stead is marked as such in the events sent and in the save.

Only `ToSession` messages leave the actor: views, refusals, chat lines, the
table's notices and every seat's presence (server/tables/presence.py: who is
away, for how long, whom a bot plays for, how many watch). Sessions are reached
only through `Client.post(message)` (never blocks) and are tracked by
identity; a session that vanished is detached by its app. Nothing here awaits
a session, so a slow or stuck one never blocks the table; the only awaits are
the disk (`arecord`, in a thread) and a hard bot in the process pool, both
bounded and both stalling only this table.

No timers run when nothing is due: the actor sleeps on its queue.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from typing import Any

import msgspec

from engine import GameConfig, IllegalCommand, apply, new_game, redact_events, view
from engine.savefile import bot_doings
from engine.view import PlayerView
from server.logging_setup import log_event
from server.tables.fanout import Deliveries, deliver
from server.tables.game_end import AccountsHook
from server.tables.messages import (
    Attach,
    Begin,
    Detach,
    Displaced,
    Export,
    Notice,
    Play,
    Refused,
    SeatToBot,
    SeatView,
    Tick,
    Toast,
    ToTable,
)
from server.tables.past import past_events
from server.tables.presence import PresenceBoard

# What a table is made of (seats, meta, settings): server/tables/seats.py.
from server.tables.seats import (  # noqa: F401
    BOT_KINDS,
    MAX_CHAT,
    MAX_HISTORY,
    TIMER_MODES,
    Client,
    SeatSlot,
    TableMeta,
    TableSettings,
    _Streak,
)
from server.tables.table_chat import TableChat
from server.tables.timers import TableTimers
from server.task_stop import stop_task

log = logging.getLogger("citadels.server.tables.table")

# Seats' changes the host's log records (leaving is "player away" and a seat given to a bot "seat to bot").
HOST_LOG = {"bot_for": "bot plays for an away player", "back": "seat reclaimed"}


class Table(TableTimers):
    """One table: seats, spectators, and (once started) the game, owned by its actor task."""

    def __init__(
        self,
        table_id: str,
        meta: TableMeta,
        seats: list[SeatSlot],
        settings: TableSettings,
        *,
        store: Any = None,
        pool: Any = None,
        on_change: Callable[[Table], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id = table_id
        self.meta = meta
        self.seats = seats
        self.settings = settings
        self.store = store
        self.pool = pool
        self.on_change = on_change or (lambda t: None)
        self.clock = clock
        self.config: GameConfig | None = None
        self.state: Any = None
        self.save: Any = None  # server.storage.table_save.TableSave
        self.phase = "waiting"  # waiting / playing / over / closed
        self.spectators: list[Client] = []
        self.history: list[Any] = []  # past events (for a session that arrives)
        self.history_by_bot = bytearray()  # per event in `history`: 1 if a bot chose its command for a person
        self.save_problem: str | None = None
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=settings.queue_size)
        self._task: asyncio.Task | None = None
        self._bots: dict[tuple[int, str], Any] = {}
        self._changed_at = clock()
        self._streak: _Streak | None = None
        self._presence = PresenceBoard()
        self.commands = 0
        self.bot_moves = 0
        self.chat_log = TableChat()  # the chat, and its last lines for those who come back
        self.notes: list[tuple[str, dict]] = []  # notices for every player who sits down (a save recovered...)
        self.accounts = AccountsHook()  # one player's keys are one; the finished game's record (game_end.py)

    # --- life cycle ----------------------------------------------------------------------------
    def start_actor(self) -> None:
        if self._task is None:
            loop = asyncio.get_running_loop()
            self._task = loop.create_task(self.run(), name=f"table-{self.id}", context=contextvars.Context())

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)  # not a single cancel: see server/task_stop.py
        if self.save is not None:
            self.save.close()

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def seat_of(self, key: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.bot is None and self.accounts.same(s.key, key):
                return i
        return None

    def bot_plays_for(self, seat: int) -> bool:
        """A bot plays for the person of `seat` until they return (as the table has told everyone)."""
        return self._presence.told(seat) == "bot_for"

    def clients(self) -> list[Client]:
        return [s.client for s in self.seats if s.client is not None] + list(self.spectators)

    # --- requests (any task; never block) ---------------------------------------------------------
    def _put(self, message: ToTable, client: Client | None = None) -> bool:
        try:
            self.queue.put_nowait(message)
            return True
        except asyncio.QueueFull:
            if client is not None:
                client.post(Refused("The table is busy; try again in a moment."))
            log_event(log, logging.WARNING, "table queue full", table=self.id)
            return False

    def submit(self, client: Client, command: Any) -> None:
        """A command from a seated session (checked and applied by the actor)."""
        self._put(Play(client, command), client)

    def attach(self, client: Client, seat: int | None) -> None:
        """A session sits at `seat` (None: watches). It gets the current view from the actor."""
        self._put(Attach(client, seat))

    def detach(self, client: Client) -> None:
        self._put(Detach(client))

    def replace_with_bot(self, seat: int, kind: str | None = None) -> None:
        self._put(SeatToBot(seat, kind or self.meta.bot_kind))

    def begin(self, config: GameConfig) -> None:
        """Start the game (the lobby checked that every seat is filled)."""
        self._put(Begin(config))

    def export(self, path: str) -> asyncio.Future[str | None]:
        """Save the game to a file; the future gets None, or a one-line error."""
        fut = asyncio.get_running_loop().create_future()
        if not self._put(Export(path, fut)):
            fut.set_result("The table is busy; try again in a moment.")
        return fut

    def chat(self, author: str, text: str, watching: bool = False) -> None:
        """A person's chat line to everyone at the table (server/tables/table_chat.py)."""
        self.chat_log.say(self.clients(), author, text, watching)

    def notice(self, key: str, **fields: Any) -> None:
        """The table tells everyone at it something (`notice.<key>` of the catalogue): a message of its
        own type, never a chat line, so that no player's name or text can pass for one."""
        message = Notice(key, fields)
        for c in self.clients():
            c.post(message)

    # --- the actor -------------------------------------------------------------------------------
    async def run(self) -> None:
        while True:
            message = await self._next_message()
            try:
                await self._handle(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: error handling %s", self.id, type(message).__struct_config__.tag)

    async def _handle(self, message: ToTable) -> None:
        match message:
            case Play(client, command):
                await self._command(client, command)
            case Tick():
                self._show_presence()  # an idle wait may have ended
                await self._bot_turn()
            case Attach(client, seat):
                self._attach(client, seat)
            case Detach(client):
                await self._detach(client)
            case SeatToBot(seat, kind):
                await self._bot_seat(seat, kind)
            case Begin(config):
                await self._start(config)
            case Export(path, reply):
                await self._export(path, reply)

    # --- game start ------------------------------------------------------------------------------
    async def _start(self, config: GameConfig) -> None:
        if self.phase != "waiting":
            return
        self.config = config
        self.state, events = new_game(config)
        if self.store is not None:
            seats = [s.as_save() for s in self.seats]
            try:
                self.save = await asyncio.to_thread(
                    self.store.create, self.id, config, seats, self.state, private=self.meta.private
                )
            except Exception as e:  # an id clash or a bad folder: the game goes on in memory
                log_event(log, logging.ERROR, "cannot create the save", table=self.id, error=str(e))
                self.save_problem = f"The game cannot be saved: {e}"
            else:
                if self.save.problem is not None:
                    self._save_notice(self.save.problem)
        self.phase = "playing"
        log_event(
            log,
            logging.INFO,
            "table started",
            table=self.id,
            players=len(self.seats),
            bots=sum(1 for s in self.seats if s.bot),
            rules=config.rules,
            lineup=self.meta.lineup_label,
        )
        await deliver(self._publish(events))
        self._show_presence()
        self.on_change(self)

    def resume(self, save: Any, config: GameConfig) -> None:
        """A game reloaded from disk (before the actor runs): every human is away until they return."""
        self.save = save
        self.config = config
        self.state = save.state
        self.phase = "over" if self.state.phase == "over" else "playing"
        self.history, self.history_by_bot = past_events(save.save)  # the log for those who come back
        now = self.clock()
        for s in self.seats:
            if s.human:
                s.away_since = now

    # --- commands --------------------------------------------------------------------------------
    async def _command(self, client: Client, command: Any) -> None:
        if self.phase != "playing":
            client.post(Refused("The game is not running."))
            return
        seat = getattr(command, "seat", None)
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats) or self.seats[seat].client is not client:
            client.post(Refused("That is not your seat."))
            return
        await self._apply(command, by_bot=False)

    async def _apply(self, command: Any, by_bot: bool, stand_in: bool = False) -> bool:
        """Apply, save, then show a command. `stand_in`: a bot chose it for a person's seat (marked so
        in the events sent and in the save)."""
        try:
            events = apply(self.state, command)
        except IllegalCommand as e:
            if not by_bot:
                c = self.seats[command.seat].client
                if c is not None:
                    c.post(Refused(str(e)))
            return False
        self.commands += 1
        log_event(
            log,
            logging.DEBUG,
            "command",
            table=self.id,
            seat=command.seat,
            kind=type(command).__struct_config__.tag,
            bot=by_bot,
            seq=self.state.seq,
        )
        if self.save is not None and not self.save.finished:
            notice = await self.save.arecord(command, self.state, stand_in=stand_in)
            if notice is not None:
                self._save_notice(notice)
        await deliver(self._publish(events, actor=command.seat, stand_in=stand_in))
        if self.state.phase == "over":
            self.phase = "over"
            scores = [
                (p.name, getattr(sc, "total", None)) for p, sc in zip(self.state.players, self.state.scores or [])
            ]
            log_event(
                log,
                logging.INFO,
                "table finished",
                table=self.id,
                winners=[self.seats[w].name for w in self.state.winners],
                scores=scores,
                commands=self.state.seq,
            )
            self._remove_meta()
            self.on_change(self)
        self.accounts.note(self, command, stand_in)  # counts a bot's decisions for a person; records the end
        return True

    def _save_notice(self, notice: Any) -> None:
        level = logging.INFO if notice.ok else logging.ERROR
        log_event(log, level, "autosave", table=self.id, detail=notice.detail)
        self.save_problem = None if notice.ok else notice.message
        self.notice(notice.key, **notice.fields)  # in each player's language
        for c in self.clients():
            c.post(Toast(error=not notice.ok, key=notice.key, fields=notice.fields))

    # --- views -----------------------------------------------------------------------------------
    def _publish(self, events: list[Any], actor: int | None = None, stand_in: bool = False) -> Deliveries:
        by_bot = bot_doings(events, actor) if stand_in and actor is not None else []
        self.history.extend(events)
        self.history_by_bot.extend(bytes(by_bot) if by_bot else bytes(len(events)))
        if len(self.history) > MAX_HISTORY:
            del self.history[: len(self.history) - MAX_HISTORY]
            del self.history_by_bot[: len(self.history_by_bot) - MAX_HISTORY]
        self._changed_at = self.clock()
        self._track_streak()  # before the views: the deciding seat's carries its turn timer
        # Apps draw in the order told: screens that change little first, the mover's and the decider's last.
        heavy = [s for s in (self.state.pending.seat, actor) if s is not None and 0 <= s < len(self.seats)]
        order = [i for i in range(len(self.seats)) if i not in heavy]
        out = Deliveries()
        # Each player as the others see them, made once for all the views of this state (engine.view):
        # the views' own players, hands and pending choices are each seat's alone.
        others: dict[int, PlayerView] = {}
        for i in order:
            self._seat_view(out, i, events, by_bot, others)
        if self.spectators:  # one view for all of them: a spectator knows what every spectator knows
            message = SeatView(view(self.state, None, others), redact_events(events, None), by_bot)
            for c in self.spectators:
                out.add(c, message)
        for i in dict.fromkeys(heavy):
            self._seat_view(out, i, events, by_bot, others)
        return out

    def _seat_view(
        self, out: Deliveries, seat: int, events: list[Any], by_bot: list[bool], others: dict[int, PlayerView]
    ) -> None:
        # its own view (the other players in it are the objects every seat's view shares: what all know)
        if (client := self.seats[seat].client) is not None:
            message = SeatView(
                view(self.state, seat, others), redact_events(events, seat), by_bot, self.turn_left(seat)
            )
            out.add(client, message)

    def _show_presence(self, arrived: Client | None = None) -> None:
        """Tell everyone at the table what changed in who plays each seat and who watches (the seats'
        marks, the log's notices); `arrived` (a session that just came) gets the presence anyway."""
        playing = self.phase == "playing"
        now = self.clock()
        presence, notices = self._presence.update(
            self.seats, len(self.spectators), now, self.settings.idle_wait, playing
        )
        clients = self.clients()
        for seat, n in notices:
            if n.key in HOST_LOG:  # the host's log says who was played for by a bot and came back
                log_event(log, logging.INFO, HOST_LOG[n.key], table=self.id, seat=seat)
            for c in clients:
                c.post(n)
        if presence is not None:
            for c in clients:
                c.post(presence)
        elif arrived is not None:
            arrived.post(
                self._presence.current(self.seats, len(self.spectators), now, self.settings.idle_wait, playing)
            )

    def _attach(self, client: Client, seat: int | None) -> None:
        if seat is None:
            if client not in self.spectators:
                self.spectators.append(client)
        else:
            slot = self.seats[seat]
            old = slot.client
            if old is not None and old is not client:
                # the same key connected again, or another key of the same player (a second computer)
                same = old.key == client.key
                old.post(Displaced(key="displaced_same_key" if same else "displaced_other_key"))
            slot.client = client
            slot.away_since = None
            self._changed_at = self.clock()
        if self.state is not None:
            ev = redact_events(self.history, seat)
            by_bot = [bool(b) for b in self.history_by_bot] if any(self.history_by_bot) else []
            client.post(SeatView(view(self.state, seat), ev, by_bot, self.turn_left(seat)))
            for key, fields in self.notes if seat is not None else ():
                client.post(Notice(key, fields))
        self.chat_log.replay(client)  # a player back (or a spectator arriving) reads what was said
        self._show_presence(arrived=client)
        self.on_change(self)

    async def _detach(self, client: Client) -> None:
        if client in self.spectators:
            self.spectators.remove(client)
            self._show_presence()
            return
        for i, s in enumerate(self.seats):
            if s.client is client:
                s.client = None
                if self.phase != "playing":
                    continue
                if s.guest:  # a guest cannot come back: a bot plays the seat from now on
                    s.key = None
                    await self._bot_seat(i, self.meta.bot_kind)
                else:
                    s.away_since = self.clock()
                log_event(log, logging.INFO, "player away", table=self.id, seat=i)
        self._show_presence()
        self.on_change(self)

    async def _bot_seat(self, seat: int, kind: str) -> None:
        if not 0 <= seat < len(self.seats):
            return
        s = self.seats[seat]
        if s.client is not None:
            s.client.post(Displaced(key="displaced_bot"))
            s.client = None
        s.bot, s.key, s.away_since = kind, None, None
        log_event(log, logging.INFO, "seat to bot", table=self.id, seat=seat, bot=kind)
        self._show_presence()
        if self.save is not None and not self.save.finished:
            notice = await asyncio.to_thread(self.save.set_seats, [x.as_save() for x in self.seats])
            if notice is not None:
                self._save_notice(notice)
        self._changed_at = self.clock()
        self.on_change(self)

    async def _export(self, path: str, fut: asyncio.Future) -> None:
        if self.save is None:
            result: str | None = "This game is not being saved (no saves folder)."
        else:
            try:
                await asyncio.to_thread(self.store.export, self.save, path)
                result = None
                log_event(log, logging.INFO, "game exported", table=self.id, path=path)
            except OSError as e:
                result = f"Cannot save to {path}: {e.strerror or e}"
        if not fut.done():
            fut.set_result(result)

    # --- persistence of what is not the game ------------------------------------------------------
    def meta_path(self):
        return None if self.store is None else self.store.root / f"{self.id}.meta.json"

    def write_meta(self) -> None:
        path = self.meta_path()
        if path is None:
            return
        try:
            from server.storage.savelog import atomic_write

            atomic_write(path, msgspec.json.encode(self.meta), durable=False)
        except OSError as e:
            log_event(log, logging.WARNING, "cannot write table meta", table=self.id, error=str(e))

    def _remove_meta(self) -> None:
        path = self.meta_path()
        if path is not None:
            try:
                path.unlink(missing_ok=True)
            except OSError:
                pass
