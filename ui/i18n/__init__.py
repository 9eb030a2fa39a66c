"""Message catalogues: every user-facing sentence of the UI, per language.

`Catalogue(lang)` reads `ui/i18n/<lang>.toml` (parsed once per process and
shared by every app) and answers `t("section.key", **fields)`. A key missing
in a language falls back to English; a key missing everywhere returns the
`fallback` given by the caller (or the key itself), so a new card or event
kind never breaks the screen. Card names come from the engine's tables
(`engine.cards`): English names are the code's names, Spanish names the 2016
rulebook's.
"""
from __future__ import annotations

import functools
import string
import tomllib
from pathlib import Path

from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS

LANGUAGES = ("en", "es")
_DIR = Path(__file__).parent


@functools.cache
def _load(lang: str) -> dict[str, str]:
    """The catalogue of one language, flattened to "section.key" -> text."""
    with open(_DIR / f"{lang}.toml", "rb") as f:
        data = tomllib.load(f)
    flat: dict[str, str] = {}
    for section, entries in data.items():
        for key, text in entries.items():
            flat[f"{section}.{key}"] = text.strip("\n") if isinstance(text, str) else str(text)
    return flat


class _Fields(dict):
    """Format fields that leave an unknown placeholder visible instead of failing."""

    def __missing__(self, key: str) -> str:
        return "?"


_formatter = string.Formatter()


class Catalogue:
    """The texts of one language. Cheap to create: the files are parsed once."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            lang = "en"
        self.lang = lang
        self._texts = _load(lang)
        self._en = _load("en")

    def has(self, key: str) -> bool:
        return key in self._texts or key in self._en

    def raw(self, key: str, fallback: str | None = None) -> str:
        text = self._texts.get(key)
        if text is None:
            text = self._en.get(key)
        if text is None:
            return key if fallback is None else fallback
        return text

    def t(self, key: str, fallback: str | None = None, **fields: object) -> str:
        text = self.raw(key, fallback)
        if not fields and "{" not in text:
            return text
        return _formatter.vformat(text, (), _Fields(fields))

    # --- card names and types --------------------------------------------------
    def character(self, name: str | None) -> str:
        if name is None:
            return self.t("ui.unknown")
        c = CHARACTERS.get(name)
        if c is None:
            return name
        return c.es if self.lang == "es" else c.name

    def rank(self, name: str | None) -> int | None:
        c = CHARACTERS.get(name or "")
        return c.rank if c else None

    def ranked(self, name: str | None) -> str:
        """ "4 King": rank and name."""
        r = self.rank(name)
        return f"{r} {self.character(name)}" if r is not None else self.character(name)

    def district(self, name: str | None) -> str:
        if name is None:
            return self.t("ui.unknown")
        d = DISTRICTS.get(name)
        if d is None:
            return name
        return d.es if self.lang == "es" else d.name

    def card(self, name: str | None) -> str:
        """Any card name: a district or a character."""
        if name in CHARACTERS:
            return self.character(name)
        return self.district(name)

    def type_name(self, kind: str | None) -> str:
        return self.t(f"types.{kind}", fallback=kind or "?")

    def type_letter(self, kind: str | None) -> str:
        return self.t(f"type_letter.{kind}", fallback=(kind or "?")[:1].upper())

    def kind(self, kind: str | None) -> str:
        """A value of the `kind` field of an ability: a district type or a resource."""
        if kind in ("gold", "cards"):
            return self.t(f"resources.{kind}")
        return self.type_name(kind)

    def character_text(self, name: str) -> str:
        return self.t(f"character_text.{name}", fallback=self.t("help.no_text"))

    def district_text(self, name: str) -> str:
        return self.t(f"district_text.{name}", fallback="")

    def names(self, names: list[str], empty: str | None = None) -> str:
        if not names:
            return empty if empty is not None else self.t("ui.none")
        return ", ".join(names)

    def other(self) -> str:
        return "es" if self.lang == "en" else "en"


__all__ = ["Catalogue", "LANGUAGES"]
