"""Commands: a tagged union of msgspec Structs, each naming the seat that sends it.

Core commands cover the flow; every character and unique-district ability is an
`Ability` named after its card (`name` is "Assassin", "Laboratory", ...), with
the target fields it needs. Small decisions answer with `Choose`, multi-card
choices with `Select`/`Unselect`/`Confirm`.
"""

from __future__ import annotations

from msgspec import Struct


class Pick(Struct, tag="pick", frozen=True):
    seat: int
    character: str


class DiscardCharacter(Struct, tag="discard_character", frozen=True):
    seat: int
    character: str


class TakeGold(Struct, tag="take_gold", frozen=True):
    seat: int


class DrawCards(Struct, tag="draw_cards", frozen=True):
    seat: int


class Keep(Struct, tag="keep", frozen=True):
    seat: int
    card: str


class Build(Struct, tag="build", frozen=True):
    seat: int
    district: str
    via: str | None = None  # None: pay gold; or a card that builds it another way (Framework, Necropolis, ...)
    using: str | None = None  # the district destroyed or the player involved, when `via` needs one
    player: int | None = None


class Income(Struct, tag="income", frozen=True):
    seat: int
    gold: int | None = None  # Abbot: how many of the resources are gold (declared first)


class Ability(Struct, tag="ability", frozen=True):
    seat: int
    name: str  # the card: "Assassin", "Warlord", "Laboratory", ...
    option: str | None = None  # which of the card's options ("swap", "redraw", ...)
    character: str | None = None
    player: int | None = None
    district: str | None = None
    card: str | None = None
    kind: str | None = None  # a district type or a resource


class Choose(Struct, tag="choose", frozen=True):
    seat: int
    option: str


class Select(Struct, tag="select", frozen=True):
    seat: int
    card: str


class Unselect(Struct, tag="unselect", frozen=True):
    seat: int
    card: str


class Confirm(Struct, tag="confirm", frozen=True):
    seat: int


class EndTurn(Struct, tag="end_turn", frozen=True):
    seat: int


Command = (
    Pick
    | DiscardCharacter
    | TakeGold
    | DrawCards
    | Keep
    | Build
    | Income
    | Ability
    | Choose
    | Select
    | Unselect
    | Confirm
    | EndTurn
)

# The commands that carry nothing but a seat, made once for each seat a table can have (at most 8):
# frozen, so one object serves every legal list (the turn's and the selections' lists built some 330
# of them a game).
TAKE_GOLD = tuple(TakeGold(s) for s in range(8))
DRAW_CARDS = tuple(DrawCards(s) for s in range(8))
END_TURN = tuple(EndTurn(s) for s in range(8))
CONFIRM = tuple(Confirm(s) for s in range(8))
