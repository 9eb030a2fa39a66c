"""A table in this process for `citadels play`: you against bots, no network.

`LocalTable` owns the `GameState` (the only object here that touches it),
applies the human's commands (an `IllegalCommand` becomes a `CommandRefused`
message with the engine's sentence), lets the bots play their decisions after
a short delay scheduled with `loop.call_later` (no polling, nothing runs while
the human thinks), and posts the human seat's view and redacted events to the
app. It implements `ui.link.TableLink` (`send`, plus `attach`/`detach`) and
the end of a game's choices: `play_again()` (the same seats, another deal) and
`replay_save()` (the game as a save, for the replay screen).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from engine import GameConfig, IllegalCommand, apply, legal_commands, new_game, redact_events, view
from engine.bots.random_bot import RandomBot
from engine.savefile import Save, Seat, new_save, utcnow

from .link import CommandRefused, ViewUpdate


class Bot(Protocol):
    def choose(self, legal: list[Any], view: Any = None) -> Any: ...


BotFactory = Callable[[int, int], Bot]  # (seat, seed) -> bot


def random_bots(seat: int, seed: int) -> Bot:
    return RandomBot(seed=seed * 101 + seat)


class LocalTable:
    """An in-process table: one human seat, bots in the others."""

    def __init__(
        self,
        config: GameConfig,
        human_seat: int = 0,
        bot_factory: BotFactory = random_bots,
        bot_delay: float = 0.7,
        max_bot_steps: int = 100_000,
    ) -> None:
        self.config = config
        self.state, events = new_game(config)
        self.log: list[Any] = []  # every command applied, for the replay
        self.human = human_seat
        self.bot_factory = bot_factory
        self.bots: dict[int, Bot] = {
            s: bot_factory(s, config.seed) for s in range(len(config.players)) if s != human_seat
        }
        self.bot_delay = bot_delay
        self.max_bot_steps = max_bot_steps
        self._unsent: list[Any] = list(events)
        self._app: Any = None
        self._handle: asyncio.Handle | None = None
        self.bot_steps = 0

    # --- TableLink -----------------------------------------------------------------------
    def attach(self, app: Any) -> None:
        self._app = app
        self._publish()
        self._schedule()

    def detach(self, app: Any) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._app = None

    def send(self, command: Any) -> None:
        try:
            events = apply(self.state, command)
        except IllegalCommand as e:
            if self._app is not None:
                self._app.post_message(CommandRefused(str(e)))
            return
        self.log.append(command)
        self._unsent.extend(events)
        self._publish()
        self._schedule()

    # --- the end of a game --------------------------------------------------------------------
    def play_again(self) -> str | None:
        """Another game with the same seats (another deal): the app shows it as a new table."""
        if not self.over:
            return "The game is not over."
        seed = (self.config.seed or 0) + 1
        self.config = msgspec.structs.replace(self.config, seed=seed)
        self.state, events = new_game(self.config)
        self.log = []
        self.bots = {s: self.bot_factory(s, seed) for s in self.bots}
        self._unsent = list(events)
        self.bot_steps = 0
        self._publish()
        self._schedule()
        return None

    def replay_save(self) -> Save | None:
        """The game so far as a save (the replay screen re-runs its log from its config)."""
        seats = [Seat(name=n, bot=None if s == self.human else "random") for s, n in enumerate(self.config.players)]
        return new_save("local", self.config, seats, self.state, self.log, created=utcnow())

    # --- bots ------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def _bot_to_move(self) -> int | None:
        seat = self.state.pending.seat
        return seat if not self.over and seat in self.bots else None

    def _schedule(self) -> None:
        if self._handle is not None or self._app is None or self._bot_to_move() is None:
            return
        loop = asyncio.get_running_loop()
        if self.bot_delay > 0:
            self._handle = loop.call_later(self.bot_delay, self._bot_step)
        else:
            self._handle = loop.call_soon(self._bot_step)

    def _bot_step(self) -> None:
        self._handle = None
        if self._app is None:
            return
        # With no delay, bots play on until the human must decide: one update, not one per move.
        while (seat := self._bot_to_move()) is not None and self.bot_steps < self.max_bot_steps:
            self.bot_steps += 1
            cmd = self.bots[seat].choose(legal_commands(self.state, seat), view(self.state, seat))
            self._unsent.extend(apply(self.state, cmd))
            self.log.append(cmd)
            if self.bot_delay > 0:
                break
        self._publish()
        self._schedule()

    def _publish(self) -> None:
        if self._app is None:
            return
        events, self._unsent = self._unsent, []
        self._app.post_message(ViewUpdate(view(self.state, self.human), redact_events(events, self.human)))
