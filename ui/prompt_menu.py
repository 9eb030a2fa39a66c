"""The prompt's menus as data: `Menu`s of `Entry`s (ui/prompt_model.py builds them from a view's
legal commands; ui/prompt_keys.py gives each entry its key). No Textual here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text


@dataclass
class Entry:
    """One line of a menu: a command to send (leaf), a sub-menu, or a step of a checklist."""

    label: Text
    detail: str  # what it will do
    command: Any = None
    submenu: Menu | None = None
    confirm: bool = False  # ask once, naming what will happen, before sending
    back: bool = False
    inline: bool = False  # show the detail under the label when there is room (character cards)
    disabled: bool = False  # shown, never chosen (a district in hand that cannot be built now)
    ident: Any = None  # what the entry is, the same in every view while the player decides (keeps its key)
    rank: int | None = None  # a character's rank: the key in a list of characters
    end_turn: bool = False  # chosen with its own key, never a number
    enter: bool = False  # a confirmation: chosen with Enter, never a number
    confirm_hint: str = ""  # the confirmation's second line (ending the turn: what is still possible)
    toggle: int | None = None  # a checklist row: the card it marks
    plan: list[Any] | None = None  # commands to send one after the other (a checklist's last step)
    key: str = ""  # set by ui.prompt_keys


@dataclass
class Checklist:
    """Cards chosen in the prompt before anything is sent (the Magician's redraw)."""

    purpose: str  # the SelectCards purpose the commands answer ("Magician")
    cards: list[str]  # one row per card (copies repeated)
    start: Any  # the command that starts it
    seat: int
    least: int = 1  # fewer chosen: nothing would happen, the last step is not offered


@dataclass
class Menu:
    title: str
    hint: str = ""
    entries: list[Entry] = field(default_factory=list)
    checklist: Checklist | None = None


class LazyMenu(Menu):
    """A sub-menu whose entries are made the first time they are asked for: most sub-menus of a
    decision are never opened, and their entries (labels, descriptions, prices) were most of what
    a new decision's menu cost. Made from the same view and catalogue as when it was offered
    (a view is not changed; a catalogue that changes language, edition or palette brings a new menu)."""

    def __init__(
        self,
        title: str,
        hint: str = "",
        entries: list[Entry] | None = None,
        checklist: Checklist | None = None,
        make: Callable[[], list[Entry]] | None = None,
    ) -> None:
        # (the dataclass's own fields; `dataclasses.replace` gives them all, `make` not)
        self.title, self.hint, self.checklist = title, hint, checklist
        self._make = make if entries is None else None
        self._entries = entries if entries is not None else []

    @property  # type: ignore[override]
    def entries(self) -> list[Entry]:
        make = self._make
        if make is not None:
            self._make = None
            self._entries = make()
        return self._entries

    @entries.setter
    def entries(self, value: list[Entry]) -> None:
        self._make = None
        self._entries = value
