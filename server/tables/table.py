"""The table actor: one asyncio task per table, the only code that touches its `GameState`.

Everything that reads or changes the game goes through the table's bounded
queue and is handled one item at a time by `Table.run`:

- a seat's command: `engine.apply` (refusals go back as `CommandRefused`),
  then `TableSave.arecord` (on disk *before* anyone sees the result), then every
  seat and spectator gets its own `view(state, seat)` and its redacted events;
- attaching a session (a player taking their seat back, a spectator): it gets
  the current view and the table's past events, redacted for it;
- seat changes (a bot replacing an absent player, a guest gone for good),
  saved at once; the creator's "save to a file";
- bot moves: a bot seat moves `bot_delay` after the view changed; a human seat
  whose player is disconnected is played by a bot after `idle_wait` seconds
  (until they come back); with a turn timer (relaxed / blitz) a bot finishes a
  turn that runs out.

Only views leave the actor. Sessions are reached only through
`Client.post(message)` (which posts to their app: never blocks) and are
tracked by identity; a session that vanished is detached by its app. Nothing
here awaits a session, so a slow or stuck one never blocks the table; the
only awaits are the disk (`arecord`, in a thread) and a hard bot in the
process pool, both bounded and both stalling only this table.

No timers run when nothing is due: the actor sleeps on its queue, with a
timeout only while a bot move, an idle wait or a turn timer is pending.
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
from engine.bots.registry import make_bot
from engine.text import clean_text
from server.logging_setup import log_event

# What a table is made of (seats, meta, settings) and the markers it posts: server/tables/seats.py.
from server.tables.seats import (  # noqa: F401
    BOT_KINDS,
    MAX_CHAT,
    MAX_HISTORY,
    TIMER_MODES,
    Client,
    Displaced,
    SeatSlot,
    TableMeta,
    TableSettings,
    Toast,
    _Displaced,
    _Streak,
    _Toast,
)
from ui.link import ChatLine, CommandRefused, ViewUpdate

log = logging.getLogger("citadels.server.tables.table")


class Table:
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
        self.save: Any = None  # server.storage.persistence.TableSave
        self.phase = "waiting"  # waiting / playing / over / closed
        self.spectators: list[Client] = []
        self.history: list[Any] = []
        self.save_problem: str | None = None
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=settings.queue_size)
        self._task: asyncio.Task | None = None
        self._bots: dict[tuple[int, str], Any] = {}
        self._changed_at = clock()
        self._streak: _Streak | None = None
        self.commands = 0
        self.bot_moves = 0
        self.notes: list[str] = []  # lines for every player who sits down (a damaged save recovered...)
        self._covered: set[int] = set()  # away players' seats a bot is playing for now (logged once)

    # --- life cycle ----------------------------------------------------------------------------
    def start_actor(self) -> None:
        if self._task is None:
            loop = asyncio.get_running_loop()
            self._task = loop.create_task(self.run(), name=f"table-{self.id}", context=contextvars.Context())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        if self.save is not None:
            self.save.close()

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def seat_of(self, key: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.key == key and s.bot is None:
                return i
        return None

    def clients(self) -> list[Client]:
        return [s.client for s in self.seats if s.client is not None] + list(self.spectators)

    # --- requests (any task; never block) ---------------------------------------------------------
    def _put(self, item: tuple, client: Client | None = None) -> bool:
        try:
            self.queue.put_nowait(item)
            return True
        except asyncio.QueueFull:
            if client is not None:
                client.post(CommandRefused("The table is busy; try again in a moment."))
            log_event(log, logging.WARNING, "table queue full", table=self.id)
            return False

    def submit(self, client: Client, command: Any) -> None:
        """A command from a seated session (checked and applied by the actor)."""
        self._put(("cmd", client, command), client)

    def attach(self, client: Client, seat: int | None) -> None:
        """A session sits at `seat` (None: watches). It gets the current view from the actor."""
        self._put(("attach", client, seat))

    def detach(self, client: Client) -> None:
        self._put(("detach", client))

    def replace_with_bot(self, seat: int, kind: str | None = None) -> None:
        self._put(("bot_seat", seat, kind or self.meta.bot_kind))

    def begin(self, config: GameConfig) -> None:
        """Start the game (the lobby checked that every seat is filled)."""
        self._put(("start", config))

    def export(self, path: str) -> asyncio.Future[str | None]:
        """Save the game to a file; the future gets None, or a one-line error."""
        fut = asyncio.get_running_loop().create_future()
        if not self._put(("export", path, fut)):
            fut.set_result("The table is busy; try again in a moment.")
        return fut

    def chat(self, author: str, text: str, system: bool = False) -> None:
        """A chat line to everyone at the table (chat holds no game state: no queue needed)."""
        text = clean_text(text, MAX_CHAT)  # no control, bidi or zero-width character reaches the others
        if not text:
            return
        for c in self.clients():
            c.post(ChatLine(author, text))

    def notice(self, text: str) -> None:
        self.chat("*", text, system=True)

    # --- the actor -------------------------------------------------------------------------------
    async def run(self) -> None:
        while True:
            due = self._due()
            try:
                if due is None:
                    item = await self.queue.get()
                else:
                    item = await asyncio.wait_for(self.queue.get(), max(due - self.clock(), 0.0))
            except TimeoutError:
                item = ("tick",)
            try:
                await self._handle(item)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: error handling %s", self.id, item[0])

    async def _handle(self, item: tuple) -> None:
        kind = item[0]
        if kind == "cmd":
            await self._command(item[1], item[2])
        elif kind == "tick":
            await self._bot_turn()
        elif kind == "attach":
            self._attach(item[1], item[2])
        elif kind == "detach":
            await self._detach(item[1])
        elif kind == "bot_seat":
            await self._bot_seat(item[1], item[2])
        elif kind == "start":
            await self._start(item[1])
        elif kind == "export":
            await self._export(item[1], item[2])
        elif kind == "call":  # tests and the lobby: run a function in the actor
            item[1]()

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
        self._publish(events)
        self.on_change(self)

    def resume(self, save: Any, config: GameConfig) -> None:
        """A game reloaded from disk (before the actor runs): every human is away until they return."""
        self.save = save
        self.config = config
        self.state = save.state
        self.phase = "over" if self.state.phase == "over" else "playing"
        now = self.clock()
        for s in self.seats:
            if s.human:
                s.away_since = now

    # --- commands --------------------------------------------------------------------------------
    async def _command(self, client: Client, command: Any) -> None:
        if self.phase != "playing":
            client.post(CommandRefused("The game is not running."))
            return
        seat = getattr(command, "seat", None)
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats) or self.seats[seat].client is not client:
            client.post(CommandRefused("That is not your seat."))
            return
        await self._apply(command, by_bot=False)

    async def _apply(self, command: Any, by_bot: bool) -> bool:
        try:
            events = apply(self.state, command)
        except IllegalCommand as e:
            if not by_bot:
                c = self.seats[command.seat].client
                if c is not None:
                    c.post(CommandRefused(str(e)))
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
            notice = await self.save.arecord(command, self.state)
            if notice is not None:
                self._save_notice(notice)
        self._publish(events, actor=command.seat)
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
        return True

    def _save_notice(self, notice: Any) -> None:
        level = logging.INFO if notice.ok else logging.ERROR
        log_event(log, level, "autosave", table=self.id, detail=notice.detail)
        self.save_problem = None if notice.ok else notice.message
        self.notice(notice.message)
        for c in self.clients():
            c.post(_Toast(notice.message, error=not notice.ok))

    # --- views -----------------------------------------------------------------------------------
    def _publish(self, events: list[Any], actor: int | None = None) -> None:
        self.history.extend(events)
        if len(self.history) > MAX_HISTORY:
            del self.history[: len(self.history) - MAX_HISTORY]
        # The apps draw in the order they are told (one loop): the seats whose screens change
        # little (a log line, some gold) first, the seat that just moved and the one that must
        # decide next (a whole new menu each) last, so that the news reaches the others sooner.
        heavy = [s for s in (self.state.pending.seat, actor) if s is not None and 0 <= s < len(self.seats)]
        order = [i for i in range(len(self.seats)) if i not in heavy]
        for i in order:
            self._post_view(i, events)
        if self.spectators:
            v = view(self.state, None)
            ev = redact_events(events, None)
            for c in self.spectators:
                c.post(ViewUpdate(v, ev))
        for i in dict.fromkeys(heavy):
            self._post_view(i, events)
        self._changed_at = self.clock()
        self._track_streak()

    def _post_view(self, seat: int, events: list[Any]) -> None:
        client = self.seats[seat].client
        if client is not None:
            client.post(ViewUpdate(view(self.state, seat), redact_events(events, seat)))

    def _attach(self, client: Client, seat: int | None) -> None:
        if seat is None:
            if client not in self.spectators:
                self.spectators.append(client)
        else:
            slot = self.seats[seat]
            old = slot.client
            if old is not None and old is not client:
                old.post(_Displaced("Your seat was taken over by a new connection with your key."))
            slot.client = client
            if slot.away_since is not None:
                slot.away_since = None
                if self.phase == "playing":
                    self.notice(f"{slot.name} is back.")
                    log_event(log, logging.INFO, "seat reclaimed", table=self.id, seat=seat)
            self._covered.discard(seat)
            self._changed_at = self.clock()
        if self.state is not None:
            client.post(ViewUpdate(view(self.state, seat), redact_events(self.history, seat)))
            for note in self.notes if seat is not None else ():
                client.post(ChatLine("*", note))
        self.on_change(self)

    async def _detach(self, client: Client) -> None:
        if client in self.spectators:
            self.spectators.remove(client)
            return
        for i, s in enumerate(self.seats):
            if s.client is client:
                s.client = None
                if self.phase != "playing":
                    continue
                if s.guest:  # a guest cannot come back: a bot plays the seat from now on
                    s.key = None
                    await self._bot_seat(i, self.meta.bot_kind, why=f"{s.name} (a guest) left; a bot plays their seat.")
                else:
                    s.away_since = self.clock()
                    wait = self.settings.idle_wait
                    self.notice(f"{s.name} disconnected; a bot plays for them after {wait:g} s unless they return.")
                log_event(log, logging.INFO, "player away", table=self.id, seat=i)
        self.on_change(self)

    async def _bot_seat(self, seat: int, kind: str, why: str | None = None) -> None:
        if not 0 <= seat < len(self.seats):
            return
        s = self.seats[seat]
        if s.client is not None:
            s.client.post(_Displaced("A bot now plays your seat."))
            s.client = None
        s.bot, s.key, s.away_since = kind, None, None
        self.notice(why or f"A bot ({kind}) now plays {s.name}'s seat.")
        log_event(log, logging.INFO, "seat to bot", table=self.id, seat=seat, bot=kind)
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

    # --- bots and timers -------------------------------------------------------------------------
    def _track_streak(self) -> None:
        st = self.state
        if st is None or st.phase == "over":
            self._streak = None
            return
        turn = st.turn.character if st.turn is not None else None
        key = (st.pending.seat, st.round, st.phase, turn)
        if self._streak is None or self._streak.key != key:
            self._streak = _Streak(key, self.clock())

    def _timer(self) -> float | None:
        return self.settings.timers.get(self.meta.timer)

    def _due(self) -> float | None:
        """When the actor must wake up by itself (None: not before the next request)."""
        if self.phase != "playing" or self.state is None:
            return None
        seat = self.state.pending.seat
        if not 0 <= seat < len(self.seats):
            return None
        s = self.seats[seat]
        delay = self._changed_at + self.settings.bot_delay
        if s.bot is not None:
            return delay
        times = []
        if s.client is None:
            away = s.away_since if s.away_since is not None else self._changed_at
            times.append(max(away + self.settings.idle_wait, delay))
        limit = self._timer()
        if limit is not None and self._streak is not None:
            if self._streak.expired:
                times.append(delay)
            else:
                if not self._streak.warned and limit > 20:
                    times.append(self._streak.since + limit - 10)
                times.append(self._streak.since + limit)
        return min(times) if times else None

    def _decider(self, now: float) -> str | None:
        """The bot kind to play the pending decision now, or None if a person must."""
        seat = self.state.pending.seat
        s = self.seats[seat]
        if now < self._changed_at + self.settings.bot_delay - 1e-6:
            return None
        if s.bot is not None:
            return s.bot
        if s.client is None:
            away = s.away_since if s.away_since is not None else self._changed_at
            if now >= away + self.settings.idle_wait - 1e-6:
                if seat not in self._covered:
                    self._covered.add(seat)
                    log_event(log, logging.INFO, "bot plays for an away player", table=self.id, seat=seat)
                return self.meta.bot_kind
        limit = self._timer()
        streak = self._streak
        if limit is not None and streak is not None:
            if not streak.expired and now >= streak.since + limit - 1e-6:
                streak.expired = True
                self.notice(f"Time is up for {s.name}: a bot finishes this turn.")
                log_event(log, logging.INFO, "turn timer ran out", table=self.id, seat=seat)
            elif not streak.warned and not streak.expired and limit > 20 and now >= streak.since + limit - 10 - 1e-6:
                streak.warned = True
                if s.client is not None:
                    s.client.post(ChatLine("*", "10 seconds left for this turn."))
            if streak.expired:
                return self.meta.bot_kind
        return None

    async def _bot_turn(self) -> None:
        if self.phase != "playing":
            return
        kind = self._decider(self.clock())
        if kind is None:
            return
        seat = self.state.pending.seat
        v = view(self.state, seat)
        if not v.legal:
            log_event(log, logging.ERROR, "no legal command for the pending seat", table=self.id, seat=seat)
            return
        command = await self._bot_choice(kind, seat, v)
        self.bot_moves += 1
        if not await self._apply(command, by_bot=True):
            # never expected: fall back to the first legal command so that the table cannot hang
            log_event(log, logging.ERROR, "bot command refused", table=self.id, seat=seat, bot=kind)
            await self._apply(v.legal[0], by_bot=True)

    async def _bot_choice(self, kind: str, seat: int, v: Any) -> Any:
        seed = (self.config.seed if self.config else 0) * 31 + seat
        if len(v.legal) == 1:
            return v.legal[0]
        s = self.seats[seat]
        style = s.style if s.bot is not None else None  # a person's seat played for them: a style from the seed
        if kind == "hard" and self.pool is not None:
            return await self.pool.decide(
                "hard", v, seed=seed + self.state.seq, budget_ms=self.settings.hard_budget_ms, style=style
            )
        if kind == "hard":  # no process pool: the best bot that is cheap enough for the event loop
            kind = "normal"
        bot = self._bots.get((seat, kind))
        if bot is None:
            bot = self._bots[(seat, kind)] = make_bot(kind, seed, style)
        try:
            command = bot.choose(list(v.legal), v)
        except Exception:
            log.exception("table %s: bot %s failed; it plays its first legal command", self.id, kind)
            return v.legal[0]
        return command if command in v.legal else v.legal[0]

    # --- persistence of what is not the game ------------------------------------------------------
    def meta_path(self):
        return None if self.store is None else self.store.root / f"{self.id}.meta.json"

    def write_meta(self) -> None:
        path = self.meta_path()
        if path is None:
            return
        try:
            from server.storage.persistence import atomic_write

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
