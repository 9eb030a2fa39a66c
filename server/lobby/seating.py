"""Seats before a game starts, and the game a new table's form describes.

Who sits where (a person by identity, a bot with a style and a name no other
seat has), names made unique at a table, and the `GameConfig` a `TableSpec`
asks for (refused with a `LobbyError` the player can read).

A mixin of `server.lobby.lobby.Lobby` (which provides `default_bot` and `loaded_game`).
"""

from __future__ import annotations

import secrets
from typing import Any

from engine import GameConfig, SetupError, new_game
from engine.bots.registry import KINDS
from engine.bots.styles import NAMES, STYLES
from engine.cards.lineups import PRESETS
from engine.rules import RULESETS
from engine.text import MAX_NAME, clean_text
from server.lobby.errors import LobbyError
from server.tables.bot_names import BOT_MARK, bot_style, pick_bot
from server.tables.table import TIMER_MODES, SeatSlot, Table
from ui.lobby_link import TableSpec


class Seating:
    default_bot: str

    @staticmethod
    def _open(s: SeatSlot) -> bool:
        return s.bot is None and s.key is None

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
        if self.loaded_game(t) is not None:  # type: ignore[attr-defined]  # a saved game's seat keeps its name
            s.bot, s.key, s.guest, s.style = kind, None, False, bot_style(s.name)
            return
        others = [x for i, x in enumerate(t.seats) if i != seat and not self._open(x)]
        rng = secrets.SystemRandom()
        picked = pick_bot({x.name for x in others}, {x.style for x in others if x.bot is not None}, rng)
        if picked is None:  # more seats than names: never with 8 seats at most
            s.style = rng.choice(list(STYLES))  # (STYLES is a dict: choosing from it directly would fail)
            s.name = self._unique_name(t, rng.choice(NAMES[s.style]) + BOT_MARK, seat)
        else:
            s.style, s.name = picked
        s.bot, s.key, s.guest = kind, None, False

    def _free_seat(self, t: Table, seat: int) -> None:
        s = t.seats[seat]
        s.key, s.bot, s.guest, s.name, s.style = None, None, False, "", None

    # --- the new-table form ---------------------------------------------------------------------
    def _checked_spec(self, spec: TableSpec) -> str:
        """The bot kind of a valid `spec`; LobbyError saying what is wrong otherwise."""
        rules = RULESETS.get(spec.rules)
        if rules is None:
            raise LobbyError(f"Unknown rule set {clean_text(spec.rules, 40)!r}.", "bad_spec")
        if not rules.min_players <= spec.players <= rules.max_players:
            raise LobbyError(f"{rules.title} is for {rules.min_players} to {rules.max_players} players.", "bad_spec")
        if not 0 <= spec.bots < spec.players:
            raise LobbyError("Leave at least one seat for a person.", "bad_spec")
        kind = spec.bot_kind or self.default_bot
        if kind not in KINDS:
            raise LobbyError(f"Unknown bot level {clean_text(kind, 40)!r}.", "bad_spec")
        if spec.timer not in TIMER_MODES:
            raise LobbyError(f"Unknown turn timer {clean_text(spec.timer, 40)!r}.", "bad_spec")
        cfg = self._game_config(spec, [f"p{i}" for i in range(spec.players)], seed=0)
        try:
            new_game(cfg)  # the engine checks the line-up and says what is wrong
        except SetupError as e:
            raise LobbyError(str(e), "bad_spec") from None
        return kind

    def _game_config(self, spec: TableSpec, names: list[str], seed: int) -> GameConfig:
        rules = RULESETS[spec.rules]
        kw: dict[str, Any] = dict(
            players=list(names), rules=spec.rules, seed=seed, variants=list(spec.variants) or None
        )
        if rules.edition == "2016":
            if spec.lineup == "custom":
                kw.update(characters=list(spec.characters or []) or None, uniques=list(spec.uniques or []) or None)
                if not kw["characters"]:
                    raise LobbyError("A custom line-up needs one character per rank.", "bad_spec")
            elif spec.lineup == "random":
                kw.update(preset="random")
            else:
                if spec.lineup not in PRESETS:
                    raise LobbyError(f"Unknown line-up {clean_text(spec.lineup, 40)!r}.", "bad_spec")
                kw.update(preset=spec.lineup)
        return GameConfig(**kw)
