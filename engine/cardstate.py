"""Card state: what a character, a unique district or a variant remembers, declared in its own module.

A card that keeps state declares it as a msgspec Struct subclassing one of three scopes::

    class Warrants(RoundScoped):          # engine/roles/magistrate.py
        characters: list[str]
        signed: str
        ...

- `GameScoped`: lasts the game (the Bell Tower's announcement, the Plague's sick seat);
- `RoundScoped`: cleared when a round starts (warrants, threats, the Thief's robbery);
- `TurnScoped`: lives in the turn and goes with it (the Seer's debts, the Wizard's victim).

Game and round states live in `GameState.cards`, turn states in `Turn.cards`, each under its class
name (so class names are unique across cards; the union below refuses duplicates). Access is typed:
`Warrants.get(g)` (None if absent), `Warrants.of(g)` (created with its defaults if absent),
`Warrants.drop(g)`, `Warrants(...).put(g)`; a turn state takes the turn: `SeerDebts.get(t)`.

Hooks a state may implement (the defaults do nothing):
- `show(g, seat, v, everything)`: redaction, what a view shows of it. `seat` is the viewer (None: a
  spectator); `everything` is True only for `view.reveal_all_view` (replays of saves).
- `complete_at()`: the districts that complete a city, when the card changed it (the Bell Tower).
Determinization (what a bot may re-sample from a view) is the card's `sample` hook in
engine/hooks.py: it may have to create the state from nothing.

Encoding: msgspec decodes `cards` through the union of every state type (`AnyCardState`), built on
first use by a decoder, once engine/__init__.py has imported every card module; a state type
declared later is refused. Adding a card's state changes nothing here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Self, TypeAlias, Union

from msgspec import Struct

from . import source_types

if TYPE_CHECKING:
    from .state import GameState
    from .view import View


class CardState(Struct, tag_field="card", kw_only=True, omit_defaults=True):
    """The base of every card's state (use one of the scopes below)."""

    def show(self, g: GameState, seat: int | None, v: View, everything: bool) -> None:
        """Write into `v` what `seat` may know of this state (redaction)."""

    def complete_at(self) -> int | None:
        """The districts that complete a city, if this card changed it for the game."""
        return None


class HasCards(Protocol):
    """A holder of card states: the game (game and round scopes) or the turn (turn scope)."""

    cards: dict[str, CardState]


class _Held(CardState):
    """Typed access to the holder's entry of this state type (its class name)."""

    @classmethod
    def _get(cls, holder: HasCards) -> Self | None:
        s = holder.cards.get(cls.__name__)
        assert s is None or isinstance(s, cls)
        return s

    @classmethod
    def _of(cls, holder: HasCards) -> Self:
        s = holder.cards.get(cls.__name__)
        if s is None:
            s = holder.cards[cls.__name__] = cls()
        assert isinstance(s, cls)
        return s

    @classmethod
    def _drop(cls, holder: HasCards) -> Self | None:
        s = holder.cards.pop(cls.__name__, None)
        assert s is None or isinstance(s, cls)
        return s


class _InGame(_Held):
    @classmethod
    def get(cls, g: HasCards) -> Self | None:
        s = g.cards.get(cls.__name__)  # cls._get(g), inlined: asked at every reveal (the Thief's robbery)
        assert s is None or isinstance(s, cls)
        return s

    @classmethod
    def of(cls, g: HasCards) -> Self:
        """The state, created with its defaults if absent."""
        return cls._of(g)

    @classmethod
    def drop(cls, g: HasCards) -> Self | None:
        return cls._drop(g)

    def put(self, g: HasCards) -> Self:
        g.cards[type(self).__name__] = self
        return self


class GameScoped(_InGame):
    """State that lasts the whole game."""


class RoundScoped(_InGame):
    """State of one round: `start_new_round` drops it."""


class TurnScoped(_Held):
    """State of the turn being played, in `Turn.cards`."""

    @classmethod
    def get(cls, t: HasCards) -> Self | None:
        return cls._get(t)

    @classmethod
    def of(cls, t: HasCards) -> Self:
        return cls._of(t)

    @classmethod
    def drop(cls, t: HasCards) -> Self | None:
        return cls._drop(t)

    def put(self, t: HasCards) -> Self:
        t.cards[type(self).__name__] = self
        return self


_SCOPES = (CardState, _Held, _InGame, GameScoped, RoundScoped, TurnScoped)


def start_new_round(g: HasCards) -> None:
    """Drop the round states (the flow calls this when a round starts)."""
    for key in [k for k, s in g.cards.items() if isinstance(s, RoundScoped)]:
        del g.cards[key]


def kinds() -> list[type[CardState]]:
    """Every card state type declared so far, in declaration order."""
    out: list[type[CardState]] = []
    todo: list[type[CardState]] = [CardState]
    while todo:
        cls = todo.pop(0)
        for sub in cls.__subclasses__():
            if sub not in _SCOPES and sub not in out:
                out.append(sub)
            todo.append(sub)
    return out


if TYPE_CHECKING:
    AnyCardState: TypeAlias = CardState
else:
    _union: list[Any] = []

    def __getattr__(name: str) -> Any:
        """`AnyCardState`: the union msgspec decodes `cards` through, built when a decoder first needs it."""
        if name != "AnyCardState":
            raise AttributeError(name)
        if not _union:
            found = kinds()
            names = [k.__name__ for k in found]
            dup = {n for n in names if names.count(n) > 1}
            if dup:
                raise TypeError(f"two card state types share a name: {sorted(dup)}")
            source_types.restore(*found)  # those of compiled card modules: their annotations as written
            _union.append(Union[tuple(found)] if found else CardState)  # noqa: UP007 - a runtime tuple of types
            _union.append(len(found))
        elif len(kinds()) != _union[1]:
            raise TypeError("a card state type was declared after the state decoder was built")
        return _union[0]
