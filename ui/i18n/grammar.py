"""The grammar a sentence's fields carry: numbers with their unit's plural forms, card names with
their articles. Each is a named field of a template, formatted by a spec the translator writes:

- `{gold:gold}`, `{count:cards}`, `{n:points}`: the number with its unit, in the plural form the
  language's Plural-Forms picks (`amount.<unit>`: "1 gold" / "2 gold", "1 oro" / "2 de oro",
  "1 card" / "2 cards", "1 carta" / "2 cartas"). `{gold}` alone is the bare number.
- `{district:the}`, `{character:to_the}`, `{card:of_the}`: a card's name with the definite
  article its language gives that card (`the.<Card>`: "el Mercado", "la Guarida de Ladrones",
  "los Establos"), after "to" ("al Rey", "a la Reina") or "of" ("del Templo"); contractions per
  language are in `CONTRACTIONS`. `{district}` alone is the bare name.

A field the spec does not fit (an article asked of a plain word) is shown plain, never an exception
on the screen; tests/ui/test_catalogue_keys.py checks that every spec in the catalogue is one of these.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalogue import Catalogue

ARTICLE_FORMS = ("the", "to_the", "of_the")
# A preposition and an article that the language writes as one word ("a el" -> "al").
CONTRACTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "es": (("a el ", "al "), ("de el ", "del ")),
}


class CardName(str):
    """A card's name in the catalogue's language and edition, which knows its articles."""

    card: str
    cat: Catalogue

    def __new__(cls, text: str, card: str, cat: Catalogue) -> CardName:
        self = super().__new__(cls, text)
        self.card = card
        self.cat = cat
        return self

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if spec in ARTICLE_FORMS:
            return self.cat.article(self, spec)
        return format(str(self), spec)


class Amount(int):
    """A number in a sentence; `{gold:gold}` writes it with its unit's plural form."""

    cat: Catalogue

    def __new__(cls, n: int, cat: Catalogue) -> Amount:
        self = super().__new__(cls, n)
        self.cat = cat
        return self

    def __format__(self, spec: str) -> str:
        if len(spec) > 1 and spec.isidentifier():
            return self.cat.t(f"amount.{spec}", n=int(self))
        return format(int(self), spec)


def contract(lang: str, phrase: str) -> str:
    for long, short in CONTRACTIONS.get(lang, ()):
        if phrase.startswith(long):
            return short + phrase[len(long) :]
    return phrase


class Fields(dict):
    """A template's fields: numbers become `Amount`s; an unknown or empty field shows "?" instead of
    failing (and is recorded in the audit)."""

    def __init__(self, fields: dict, cat: Catalogue, key: str) -> None:
        super().__init__(fields)
        self.cat = cat
        self.key = key

    def __missing__(self, name: str) -> str:
        if self.cat.audit is not None:
            self.cat.audit.append(f"unfilled:{self.key}:{{{name}}}")
        return "?"

    def __getitem__(self, name: str) -> object:
        v = super().__getitem__(name)
        if v is None:
            return self.__missing__(name)
        if v.__class__ is int:
            return Amount(v, self.cat)
        return v


class Formatter(string.Formatter):
    """`str.format` with a field whose spec does not fit shown plain (and audited)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        try:
            return format(value, format_spec)
        except (ValueError, TypeError):
            return str(value)


FORMATTER = Formatter()
