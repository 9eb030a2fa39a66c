"""Player names: cleaned like other typed text, compared case-insensitively.

`clean(name)` keeps printable characters, folds runs of spaces and cuts at NAME_MAX
(as the lobby's names); `fold(name)` is the key a claim is unique under: Unicode
compatibility form (NFKC, so a full-width "Ａｎａ" is "Ana") then case-folded ("ANA",
"ana" and "Ana" are one name).
"""

from __future__ import annotations

import unicodedata

from .schema import NAME_MAX


class InvalidName(ValueError):
    """A name that cannot be claimed; the message is one line for the player."""


def clean(name: str) -> str:
    text = unicodedata.normalize("NFKC", name)
    return " ".join("".join(ch for ch in text if ch.isprintable()).split())[:NAME_MAX]


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", clean(name)).casefold()


def checked(name: str) -> tuple[str, str]:
    """(the cleaned name, its folded key), or InvalidName when nothing usable is left."""
    shown = clean(name)
    if not shown or not any(ch.isalnum() for ch in shown):
        raise InvalidName("a name needs at least one letter or digit")
    return shown, fold(shown)
