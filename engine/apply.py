"""`apply(state, command)`: validate, then change the state and return the events.

Validation is membership in `legal_commands`: one source of truth for what is
allowed. A refused command raises `IllegalCommand` with a sentence for the
player and changes nothing. `check=False` skips validation for commands that
were just taken from `legal_commands` (bots and simulations).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import build, flow, selection, turn
from .cards.characters import CHARACTERS
from .cards.districts import DISTRICTS
from .commands import (
    Ability,
    Build,
    Choose,
    Command,
    Confirm,
    DiscardCharacter,
    DrawCards,
    EndTurn,
    Income,
    Keep,
    Pick,
    Select,
    TakeGold,
    Unselect,
)
from .decisions import Choice, GameOver, KeepCards, PickCharacter, PlayTurn, SelectCards
from .errors import IllegalCommand
from .events import Event
from .finals import CHOICE, PLAY_TURN, SELECT_CARDS
from .hooks import CHOICES, SELECTS, UNIQUES, role_of
from .legal import legal_commands
from .state import GameState, current_turn


def apply(g: GameState, cmd: Command, check: bool = True) -> list[Event]:
    if check and cmd not in legal_commands(g, cmd.seat):
        raise IllegalCommand(explain(g, cmd))
    ev: list[Event] = []
    _HANDLERS[type(cmd)](g, cmd, ev)
    g.seq += 1
    return ev


def _back_to_turn(g: GameState) -> None:
    g.pending = PLAY_TURN(g.turn.seat) if g.turn is not None else g.pending


def _pick(g: GameState, cmd: Pick, ev: list[Event]) -> None:
    selection.pick(g, cmd.seat, cmd.character, ev)
    flow.after_selection_step(g, ev)


def _discard(g: GameState, cmd: DiscardCharacter, ev: list[Event]) -> None:
    selection.discard(g, cmd.seat, cmd.character, ev)
    flow.after_selection_step(g, ev)


def _take_gold(g: GameState, cmd: TakeGold, ev: list[Event]) -> None:
    turn.take_gold(g, g.turn or current_turn(g), ev)


def _draw_cards(g: GameState, cmd: DrawCards, ev: list[Event]) -> None:
    turn.draw_cards(g, g.turn or current_turn(g), ev)


def _keep(g: GameState, cmd: Keep, ev: list[Event]) -> None:
    turn.keep(g, g.turn or current_turn(g), cmd.card, ev)


def _income(g: GameState, cmd: Income, ev: list[Event]) -> None:
    turn.take_income(g, g.turn or current_turn(g), cmd, ev)


def _ability(g: GameState, cmd: Ability, ev: list[Event]) -> None:
    turn.act(g, g.turn or current_turn(g), cmd, ev)


def _end_turn(g: GameState, cmd: EndTurn, ev: list[Event]) -> None:
    flow.end_turn(g, ev)


def _choose(g: GameState, cmd: Choose, ev: list[Event]) -> None:
    p = g.pending
    if not isinstance(p, CHOICE):  # pragma: no cover - legal_commands offers no other pair
        raise IllegalCommand("That is not a legal move now.")
    _back_to_turn(g)
    CHOICES[p.about](g, cmd.seat, cmd.option, ev)


def _select(g: GameState, cmd: Select, ev: list[Event]) -> None:
    p = g.pending
    if not isinstance(p, SELECT_CARDS):  # pragma: no cover
        raise IllegalCommand("That is not a legal move now.")
    p.selected.append(cmd.card)


def _unselect(g: GameState, cmd: Unselect, ev: list[Event]) -> None:
    p = g.pending
    if not isinstance(p, SELECT_CARDS):  # pragma: no cover
        raise IllegalCommand("That is not a legal move now.")
    p.selected.remove(cmd.card)


def _confirm(g: GameState, cmd: Confirm, ev: list[Event]) -> None:
    p = g.pending
    if not isinstance(p, SELECT_CARDS):  # pragma: no cover
        raise IllegalCommand("That is not a legal move now.")
    _back_to_turn(g)
    SELECTS[p.purpose](g, cmd.seat, list(p.selected), ev)


# What each command does, by its type (one dictionary look-up instead of a chain of isinstance).
_HANDLERS: Final[dict[type, Callable[[GameState, Any, list[Event]], None]]] = {
    Pick: _pick,
    DiscardCharacter: _discard,
    TakeGold: _take_gold,
    DrawCards: _draw_cards,
    Keep: _keep,
    Income: _income,
    Build: lambda g, cmd, ev: build.do_build(g, cmd, ev),
    Ability: _ability,
    EndTurn: _end_turn,
    Choose: _choose,
    Select: _select,
    Unselect: _unselect,
    Confirm: _confirm,
}


def _dispatch(g: GameState, cmd: Command, ev: list[Event]) -> None:
    _HANDLERS[type(cmd)](g, cmd, ev)


def _who(g: GameState, seat: int) -> str:
    return g.players[seat].name if 0 <= seat < len(g.players) else f"seat {seat}"


def waiting_for(g: GameState) -> str:
    """A public sentence: who must decide what now."""
    p = g.pending
    if isinstance(p, GameOver):
        return "The game is over."
    name = _who(g, p.seat)
    if isinstance(p, PickCharacter):
        return f"waiting for {name} to {'choose' if p.mode == 'pick' else 'discard'} a character"
    if isinstance(p, PlayTurn) and g.turn is not None:
        return f"waiting for {name} ({g.turn.character})"
    if isinstance(p, KeepCards):
        return f"waiting for {name} to keep a card"
    if isinstance(p, Choice):
        return f"waiting for {name} to decide ({p.about})"
    if isinstance(p, SelectCards):
        return f"waiting for {name} to choose cards ({p.purpose})"
    return f"waiting for {name}"


def explain(g: GameState, cmd: Command) -> str:
    """Why `cmd` is refused, in a sentence that reveals nothing hidden."""
    p = g.pending
    if isinstance(p, GameOver):
        return "The game is over."
    if not 0 <= cmd.seat < len(g.players):
        return f"There is no seat {cmd.seat} at this table."
    if cmd.seat != p.seat:
        return f"It is not your move: {waiting_for(g)}."
    if isinstance(p, PickCharacter):
        if isinstance(cmd, (Pick, DiscardCharacter)):
            if isinstance(cmd, Pick) != (p.mode == "pick"):
                return "Choose a character to " + ("keep." if p.mode == "pick" else "discard face down.")
            name = cmd.character if cmd.character in CHARACTERS else repr(cmd.character)
            return f"{name} is not among the characters passed to you."
        return "Characters are being chosen: choose one of the characters passed to you."
    if isinstance(p, KeepCards):
        if isinstance(cmd, Keep):
            return "Keep one of the cards you drew."
        return "Choose which of the drawn cards to keep first."
    if isinstance(p, Choice):
        return f"Answer the question first: {', '.join(p.options)}."
    if isinstance(p, SelectCards):
        if isinstance(cmd, Confirm):
            return f"Choose at least {p.min} card(s) first."
        if isinstance(cmd, (Select, Unselect)):
            return "You cannot choose that card."
        return "Finish choosing cards first (then confirm)."
    if isinstance(cmd, (Pick, DiscardCharacter)):
        return "Characters are not being chosen now."
    t = g.turn
    if t is None:
        return "That is not a legal move now."
    if isinstance(cmd, (TakeGold, DrawCards)):
        if t.gathered:
            return "You have already gathered resources this turn."
        if isinstance(cmd, DrawCards) and not g.deck:
            return "The district deck is empty: take 2 gold."
        return "You cannot gather resources now."
    if isinstance(cmd, Build):
        if cmd.district not in DISTRICTS:
            return f"There is no district called {cmd.district!r}."
        reason = build.why_not(g, t, cmd.district)
        if reason:
            return reason
        cost = build.cost_for(g, t.seat, cmd.district)
        if cmd.via is None and g.players[t.seat].gold < cost:
            return f"The {cmd.district} costs {cost} gold; you have {g.players[t.seat].gold}."
        return f"You cannot build the {cmd.district} that way."
    limited = turn.only_gathering(g, t)  # a card restricts this turn (the Witch, the Hospital, a threat)
    if limited is not None:
        return limited
    if isinstance(cmd, Income):
        c = CHARACTERS.get(t.character)
        if c is None or c.income_type is None:
            return f"The {t.character} has no income ability."
        if "income" in t.used:
            return "You have already taken your income this turn."
        return f"You have no {c.income_type} districts to take income for."
    if isinstance(cmd, Ability):
        if cmd.name in UNIQUES:
            return turn.district_effect_refusal(g, t, cmd.name) or f"You cannot use the {cmd.name} that way now."
        if cmd.name != t.character:
            return f"You are playing the {t.character}, not the {cmd.name}."
        if cmd.name in t.used:
            return f"You have already used the {cmd.name}'s ability this turn."
        return role_of(t.character).why(g, cmd) or f"The {cmd.name} cannot do that now."
    if isinstance(cmd, EndTurn):
        return turn.why_not_end(g, t) or "You cannot end your turn now."
    if isinstance(cmd, (Choose, Select, Unselect, Confirm, Keep)):
        return "There is no such question to answer now."
    return "That is not a legal move now."
