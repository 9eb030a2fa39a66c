"""Which key chooses each entry of the prompt: keys that mean one thing.

- A list of characters answers to their ranks ("4" takes the King wherever it
  is listed); the list is shown in rank order, the rank printed once, as the key.
- Other lists are numbered 1-9, 0, and a number stays with its entry while the
  player decides (`Numbering`, for the whole turn): an entry that goes away
  (the gold taken, an ability used) takes its number with it, new entries get
  new numbers. Pressing a number twice never does two different things.
- Ending the turn is its own key, `e`, never a number; a confirmation is
  answered with Enter, never a number (a repeated digit cannot confirm); Esc
  goes back.

No Textual here: `Numbering.keyed(menu)` returns the menu with each entry's
`key`, in the order it is shown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text

from .prompt_model import Entry, Menu

DIGITS = "1234567890"
END_TURN = "e"
ENTER = "enter"
ESCAPE = "escape"
_LABELS = {ENTER: "⏎", ESCAPE: "Esc"}


def key_label(key: str) -> str:
    """How a key is printed beside its entry ("⏎" for Enter)."""
    return _LABELS.get(key, key)


def _keyed_entry(e: Entry, key: str, label: Text | None = None) -> Entry:
    """`dataclasses.replace(e, key=key[, label=label])` without its call of `__init__` (an entry is
    copied for every entry of every menu shown; `Entry` has no `__post_init__`)."""
    new = object.__new__(Entry)
    new.__dict__.update(e.__dict__)
    new.key = key
    if label is not None:
        new.label = label
    return new


def _plain(e: Entry) -> bool:
    """An ordinary entry: neither Back, nor the end of the turn, nor a confirmation."""
    return not (e.back or e.end_turn or e.enter)


def _rank_of(e: Entry) -> int:
    """A character's rank, in a list that `ranked` said answers to ranks (each of them has one)."""
    assert e.rank is not None
    return e.rank


def ranked(menu: Menu) -> bool:
    """Every choice of the list is a character, each of another rank (1-9): the ranks are the keys."""
    ranks = [e.rank for e in menu.entries if _plain(e)]
    return bool(ranks) and all(r is not None and 1 <= r <= 9 for r in ranks) and len(set(ranks)) == len(ranks)


class Numbering:
    """The numbers of the entries, kept while the player decides.

    `begin(turn)` with what identifies the turn (or the decision) starts afresh when it changed;
    within it, each menu (by its place: the decision, the entries opened to reach it) remembers
    the number of every entry it showed (by `Entry.ident`) and the next free number."""

    def __init__(self) -> None:
        self._turn: Any = None
        self._menus: dict[Any, tuple[dict[Any, int], list[int]]] = {}

    def begin(self, turn: Any) -> None:
        if turn != self._turn:
            self._turn = turn
            self._menus = {}

    def keyed(self, menu: Menu, place: Any = None) -> Menu:
        """`menu` with each entry's key, in the order shown: choices, the end of the turn, Back."""
        if not menu.entries:  # who we wait for: nothing to number
            return menu
        plain = [e for e in menu.entries if _plain(e) and not e.disabled]
        if ranked(menu):
            shown = [_keyed_entry(e, str(e.rank)) for e in sorted(plain, key=_rank_of)]
        else:
            numbers, next_free = self._menus.setdefault(place, ({}, [1]))
            for e in plain:
                if e.ident not in numbers:
                    numbers[e.ident] = next_free[0]
                    next_free[0] += 1
            shown = []
            for e in sorted(plain, key=lambda e: numbers[e.ident]):
                n = numbers[e.ident]
                label = e.label
                if e.rank is not None:  # a character in a list that is not by rank: its rank in the label
                    label = Text(f"{e.rank} ", style="bold", end="") + e.label
                shown.append(_keyed_entry(e, DIGITS[n - 1] if n <= len(DIGITS) else "", label))
        shown += [_keyed_entry(e, END_TURN) for e in menu.entries if e.end_turn]
        shown += [_keyed_entry(e, ENTER) for e in menu.entries if e.enter and not e.end_turn]
        shown += [_keyed_entry(e, ESCAPE) for e in menu.entries if e.back]
        shown += [_keyed_entry(e, "") for e in menu.entries if e.disabled and _plain(e)]  # shown, never chosen
        return replace(menu, entries=shown)


def turn_of(view: Any) -> tuple:
    """What numbers are kept for: the turn being played, or else the decision."""
    pd = view.pending
    if view.turn is not None:
        return (view.round, view.phase, view.turn.seat, view.turn.character)
    return (view.round, view.phase, pd.kind if pd else None, pd.mode if pd else None, pd.seat if pd else None)


def place_of(view: Any, opened: tuple = ()) -> tuple:
    """Which menu of the turn: the decision, and the entries opened to reach it (their idents)."""
    pd = view.pending
    return (pd.kind if pd else None, pd.about if pd else None, tuple(opened))


def key_bytes(key: str) -> bytes:
    """What a terminal sends for `key` (tests and load generators type the keys)."""
    return b"\r" if key == ENTER else b"\x1b" if key == ESCAPE else key.encode()


def index_of_key(menu: Menu | None, key: str) -> int | None:
    """The entry of `menu` that `key` chooses."""
    if menu is None or not key:
        return None
    for i, e in enumerate(menu.entries):
        if e.key == key:
            return i
    return None
