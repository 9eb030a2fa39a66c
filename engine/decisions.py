"""Who must decide what now: a tagged union of pending decisions.

Most of the time the active seat plays its turn (`PlayTurn`); some moments
belong to another seat (a bribe, a warrant reveal, the Theater). Generic
decisions (`Choice`, `SelectCards`) carry a key naming the card rule that
resolves them, so a new card adds a handler, not a new decision type.
"""

from __future__ import annotations

from msgspec import Struct, field


class PickCharacter(Struct, tag="pick_character"):
    seat: int
    mode: str = "pick"  # pick / discard (2 players: discard face down after picking)


class PlayTurn(Struct, tag="play_turn"):
    seat: int


class KeepCards(Struct, tag="keep_cards"):
    seat: int
    keep: int = 1  # cards to keep from turn.drawn


class SelectCards(Struct, tag="select_cards"):
    seat: int
    purpose: str  # the handler that resolves it (e.g. "Magician")
    min: int = 0
    max: int = 99
    selected: list[str] = field(default_factory=list)
    source: str = "hand"  # "hand", "drawn" (the turn's drawn cards) or "offered" (the list below)
    reserved: list[str] = field(default_factory=list)  # copies in the source that may not be selected (Cardinal)
    offered: list[str] = field(default_factory=list)  # the cards to choose from when `source` is "offered"


class Choice(Struct, tag="choice"):
    seat: int
    about: str  # the handler that resolves it (e.g. "Blackmailer.bribe")
    options: list[str] = field(default_factory=list)


class GameOver(Struct, tag="game_over"):
    seat: int = -1


Decision = PickCharacter | PlayTurn | KeepCards | SelectCards | Choice | GameOver
