"""Player names: cleaned by the one sanitiser (engine/text.py), compared case-insensitively.

`clean(name)` is `engine.text.clean_name` (controls, bidi and zero-width characters dropped,
spaces folded, at most NAME_MAX characters), so a claimed name reads exactly as the lobby
shows it; `checked` adds the name rules every player name follows (`engine.text.name_problem`:
a letter or digit first, no reserved word, no bot mark). `fold(name)` is the key a claim is
unique under: Unicode compatibility form (NFKC, so a full-width "Ａｎａ" is "Ana") then
case-folded ("ANA", "ana" and "Ana" are one name).
"""

from __future__ import annotations

import unicodedata

from engine.text import clean_name, name_problem

from .schema import NAME_MAX


class InvalidName(ValueError):
    """A name that cannot be claimed; the message is one line for the player."""


def clean(name: str) -> str:
    return clean_name(name, NAME_MAX)


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", clean(name)).casefold()


def checked(name: str) -> tuple[str, str]:
    """(the cleaned name, its folded key), or InvalidName saying what is wrong with it."""
    shown = clean(name)
    problem = name_problem(shown)
    if problem is not None:
        raise InvalidName(problem)
    return shown, fold(shown)
