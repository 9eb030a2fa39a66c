"""Message catalogues: every user-facing sentence of the UI, per language.

Two files per language, merged into one catalogue: `ui/i18n/<lang>.toml` (the
screen's own words) and `ui/i18n/cards.<lang>.toml` (every card's commands,
questions, card choices, log sentences and rule texts: the one place for card
texts; see its header for the keys). A key may be defined in only one of them.

`Catalogue(lang)` (parsed once per process and shared by every app) answers
`t("section.key", **fields)`. A key missing in a language falls back to
English; a key missing everywhere returns the `fallback` given by the caller
(or the key itself), so a new card or event kind never breaks the screen.
Card names come from the engine's tables (`engine.cards`): English names are
the code's names, Spanish names the 2016 rulebook's.

Editions: `Catalogue.set_rules(view.rules)` makes the catalogue follow the
rule set in play. For an older edition ("classic", "2000": `RuleSet.edition`)
card names, ranks, costs and income come from `engine.cards.editions`, and a
key `k` is first looked up as `"<edition>:k"` (the `["<edition>:<section>"]`
sections of `cards.<lang>.toml`: the older texts, one home for every text).

`Catalogue.audit`: set it to a list and every generic fallback, missing key,
English stand-in for a Spanish text and unfilled {placeholder} is recorded
there (the coverage test reads it; `None`, the default, costs nothing).
"""

from __future__ import annotations

import functools
import string
import tomllib
from pathlib import Path

from engine.cards import editions
from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS
from engine.rules import RULESETS

LANGUAGES = ("en", "es")
_DIR = Path(__file__).parent


FILES = (
    "{lang}.toml",
    "cards.{lang}.toml",
    "lobby.{lang}.toml",
    "players.{lang}.toml",
)  # the screen's words, the cards' texts, the lobby, the players' screens
# Keys whose text is a generic stand-in for something the catalogue does not know.
GENERIC = frozenset(
    {
        "ability.fallback",
        "ability.fallback_option",
        "ability.fallback_does",
        "event.fallback",
        "choice.fallback",
        "cmd.unknown",
        "cmd.unknown_does",
        "cmd.choose_does",
        "cmd.build_via",
        "cmd.build_via_does",
        "help.no_text",
    }
)


@functools.cache
def _load(lang: str) -> dict[str, str]:
    """The catalogue of one language (both files), flattened to "section.key" -> text."""
    flat: dict[str, str] = {}
    for name in FILES:
        path = _DIR / name.format(lang=lang)
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for section, entries in data.items():
            for key, text in entries.items():
                k = f"{section}.{key}"
                if k in flat:
                    raise ValueError(f"{path.name}: {k!r} is already defined in another catalogue file")
                flat[k] = text.strip("\n") if isinstance(text, str) else str(text)
    return flat


class _Fields(dict):
    """Format fields that leave an unknown placeholder visible ("?") instead of failing."""

    def __init__(self, fields: dict, misses: list[str] | None, key: str) -> None:
        super().__init__(fields)
        self.misses = misses
        self.key = key

    def __missing__(self, name: str) -> str:
        if self.misses is not None:
            self.misses.append(f"unfilled:{self.key}:{{{name}}}")
        return "?"

    def __getitem__(self, name: str) -> object:
        v = super().__getitem__(name)
        if v is None:
            return self.__missing__(name)
        return v


_formatter = string.Formatter()


class Catalogue:
    """The texts of one language. Cheap to create: the files are parsed once."""

    def __init__(self, lang: str = "en", rules: str | None = None, palette: str = "printed") -> None:
        if lang not in LANGUAGES:
            lang = "en"
        self.lang = lang
        self._texts = _load(lang)
        self._en = _load("en")
        self.audit: list[str] | None = None
        self.rules: str | None = None
        self.edition = "2016"
        self._pre = ""  # "<edition>:" for an older edition: its keys are looked up first
        self._names: dict[str, str] = {}
        self.palette = palette  # the card colours (ui/cards.py: "printed" or "colour-blind")
        self.key = lang  # what rendered text depends on (widgets' caches): language, edition, palette
        self.set_rules(rules)
        self._rekey()

    def set_rules(self, rules: str | None) -> bool:
        """Follow the rule set in play (`View.rules`): its edition's names, ranks, costs and texts.
        True when the edition changed (whatever was rendered must be rendered again)."""
        self.rules = rules
        r = RULESETS.get(rules or "")
        edition = r.edition if r is not None else "2016"
        if edition == self.edition:
            return False
        self.edition = edition
        self._pre = "" if edition == "2016" else edition + ":"
        self._names: dict[str, str] = {}  # card names in this edition and language, as asked
        self._rekey()
        return True

    def set_palette(self, palette: str) -> None:
        """The card colours this player chose (part of `key`: rendered lines depend on it)."""
        self.palette = palette
        self._rekey()

    def _rekey(self) -> None:
        key = self.lang if self.edition == "2016" else f"{self.lang}/{self.edition}"
        self.key = key if self.palette == "printed" else f"{key}+{self.palette}"

    def has(self, key: str) -> bool:
        if self._pre and (self._pre + key in self._texts or self._pre + key in self._en):
            return True
        return key in self._texts or key in self._en

    def first(self, *keys: str) -> str | None:
        """The first of `keys` the catalogue holds (None: none of them)."""
        for k in keys:
            if k in self._texts or k in self._en:
                return k
        return None

    def raw(self, key: str, fallback: str | None = None) -> str:
        if self._pre:  # the edition's own text first
            ek = self._pre + key
            if ek in self._texts or ek in self._en:
                key = ek
        text = self._texts.get(key)
        if text is None:
            text = self._en.get(key)
            if self.audit is not None and text is not None:
                self.audit.append(f"english:{key}")
        if self.audit is not None and key in GENERIC:
            self.audit.append(f"generic:{key}")
        if text is None:
            if self.audit is not None:
                self.audit.append(f"missing:{key}")
            return key if fallback is None else fallback
        return text

    def t(self, key: str, fallback: str | None = None, **fields: object) -> str:
        text = self.raw(key, fallback)
        if not fields and "{" not in text:
            return text
        return _formatter.vformat(text, (), _Fields(fields, self.audit, key))

    # --- card names and types --------------------------------------------------
    def character(self, name: str | None) -> str:
        if name is None:
            return self.t("ui.unknown")
        c = CHARACTERS.get(name)
        if c is None:
            return name
        if self._pre:
            return self._names.get(name) or self._edition_name(name)
        return c.es if self.lang == "es" else c.name

    def _edition_name(self, name: str) -> str:
        return self._names.setdefault(name, editions.name_in(self.edition, name, self.lang))

    def rank(self, name: str | None) -> int | None:
        c = CHARACTERS.get(name or "")
        if c is None:
            return None
        return editions.rank(self.edition, c.name) if self._pre else c.rank

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
        if self._pre:
            return self._names.get(name) or self._edition_name(name)
        return d.es if self.lang == "es" else d.name

    def cost(self, name: str | None) -> int | None:
        """A district's printed cost in this edition (None: not a district)."""
        d = DISTRICTS.get(name or "")
        if d is None:
            return None
        return editions.cost(self.edition, d.name) if self._pre else d.cost

    def income(self, character: str | None) -> tuple[str | None, str | None]:
        """A character's income in this edition: (district type, "gold" | "cards" | "mix"), or (None, None)."""
        if character not in CHARACTERS:
            return None, None
        return editions.income(self.edition, character)

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

    def value(self, v: str | None) -> str:
        """A free value (an event's or a choice's option): a card, a character, a type, a resource."""
        if v is None:
            return "?"
        if v in CHARACTERS:
            return self.character(v)
        if v in DISTRICTS:
            return self.district(v)
        if self.has(f"types.{v}") or v in ("gold", "cards"):
            return self.kind(v)
        return v

    def character_text(self, name: str) -> str:
        key = f"character_text.{name}"
        return self.t(key) if self.has(key) else self.t("help.no_text")

    def district_text(self, name: str) -> str:
        return self.t(f"district_text.{name}", fallback="")

    def names(self, names: list[str], empty: str | None = None) -> str:
        if not names:
            return empty if empty is not None else self.t("ui.none")
        return ", ".join(names)

    def other(self) -> str:
        return "es" if self.lang == "en" else "en"


__all__ = ["LANGUAGES", "Catalogue"]
